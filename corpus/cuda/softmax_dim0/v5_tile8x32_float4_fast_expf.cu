// Softmax over dim 0 (cols % 4 == 0): an 8 x 32 block owns 32 columns, each thread 4 neighbouring columns read as one float4 over rows ty, ty+32, ...; 32 row groups merged in shared memory, __expf.
#include <cuda_runtime.h>
#include <math.h>

#define VX 8
#define TH 32
#define TW (VX * 4)

__device__ __forceinline__ void online(float& m, float& s, float v)
{
    if (v > m) {
        s = s * __expf(m - v) + 1.0f;
        m = v;
    } else {
        s += __expf(v - m);
    }
}

__device__ __forceinline__ void merge(float& m, float& s, float m2, float s2)
{
    const float mx = fmaxf(m, m2);
    const float a = m == -INFINITY ? 0.0f : s * __expf(m - mx);
    const float b = m2 == -INFINITY ? 0.0f : s2 * __expf(m2 - mx);
    m = mx;
    s = a + b;
}

// kforecast: rows = 4096; cols = 8192; x: f32[rows, cols] randn; out: f32[rows, cols]; rtol = 1e-3; atol = 1e-8
__global__ void __launch_bounds__(VX * TH)
softmax_dim0(const float* __restrict__ x, float* __restrict__ out, int rows, int cols)
{
    __shared__ float part_m[TH][TW + 1];
    __shared__ float part_s[TH][TW + 1];
    __shared__ float fin_m[TW], fin_inv[TW];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int cols4 = cols >> 2;
    const int c4 = blockIdx.x * VX + tx;
    const float4* x4 = reinterpret_cast<const float4*>(x);
    float4* out4 = reinterpret_cast<float4*>(out);

    float m0 = -INFINITY, m1 = -INFINITY, m2 = -INFINITY, m3 = -INFINITY;
    float s0 = 0.0f, s1 = 0.0f, s2 = 0.0f, s3 = 0.0f;
    if (c4 < cols4) {
        for (int r = ty; r < rows; r += TH) {
            const float4 v = x4[(size_t)r * cols4 + c4];
            online(m0, s0, v.x);
            online(m1, s1, v.y);
            online(m2, s2, v.z);
            online(m3, s3, v.w);
        }
    }
    part_m[ty][4 * tx + 0] = m0; part_s[ty][4 * tx + 0] = s0;
    part_m[ty][4 * tx + 1] = m1; part_s[ty][4 * tx + 1] = s1;
    part_m[ty][4 * tx + 2] = m2; part_s[ty][4 * tx + 2] = s2;
    part_m[ty][4 * tx + 3] = m3; part_s[ty][4 * tx + 3] = s3;
    __syncthreads();
    const int t = ty * VX + tx;
    if (t < TW) {
        float m = part_m[0][t], s = part_s[0][t];
        for (int k = 1; k < TH; ++k) merge(m, s, part_m[k][t], part_s[k][t]);
        fin_m[t] = m;
        fin_inv[t] = 1.0f / s;
    }
    __syncthreads();
    if (c4 >= cols4) return;
    const float4 mm = make_float4(fin_m[4 * tx], fin_m[4 * tx + 1], fin_m[4 * tx + 2], fin_m[4 * tx + 3]);
    const float4 iv = make_float4(fin_inv[4 * tx], fin_inv[4 * tx + 1], fin_inv[4 * tx + 2], fin_inv[4 * tx + 3]);
    for (int r = ty; r < rows; r += TH) {
        const float4 v = x4[(size_t)r * cols4 + c4];
        float4 o;
        o.x = __expf(v.x - mm.x) * iv.x;
        o.y = __expf(v.y - mm.y) * iv.y;
        o.z = __expf(v.z - mm.z) * iv.z;
        o.w = __expf(v.w - mm.w) * iv.w;
        out4[(size_t)r * cols4 + c4] = o;
    }
}

extern "C" void launch_softmax_dim0(const float* x, float* out, int rows, int cols, cudaStream_t stream)
{
    dim3 block(VX, TH);
    dim3 grid((cols / 4 + VX - 1) / VX);
    softmax_dim0<<<grid, block, 0, stream>>>(x, out, rows, cols);
}
