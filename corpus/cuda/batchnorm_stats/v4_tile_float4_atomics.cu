// Per-column mean and variance: 2-D tiles of 64 columns x 512 rows per 16x16 block,
// each thread loads float4 (4 adjacent columns, assumes C % 4 == 0), partial sums
// reduced through shared memory, float atomics into ws, last block per column
// strip finalises mean/var and resets ws and its counter.
#include <cuda_runtime.h>

#define BX 16
#define BY 16
#define ROWS 512

// kforecast: N = 4096; C = 4096; x: f32[N, C] randn; mean: f32[C]; var: f32[C]; ws: f32[2, C] zeros; count: u32[C] zeros; outputs = mean, var; rtol = 1e-3; atol = 1e-4
__global__ void __launch_bounds__(BX * BY)
bn_stats(const float* __restrict__ x, float* __restrict__ mean, float* __restrict__ var,
         float* __restrict__ ws, unsigned int* __restrict__ count, int N, int C)
{
    __shared__ float4 sh_s[BY][BX];
    __shared__ float4 sh_ss[BY][BX];
    __shared__ bool is_last;
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int C4 = C / 4;
    const int c4 = blockIdx.x * BX + tx;
    const int r0 = blockIdx.y * ROWS;
    const int r1 = min(r0 + ROWS, N);
    const float4* x4 = reinterpret_cast<const float4*>(x);
    float4 s = make_float4(0.0f, 0.0f, 0.0f, 0.0f), ss = s;
    if (c4 < C4) {
        for (int r = r0 + ty; r < r1; r += BY) {
            const float4 v = x4[(size_t)r * C4 + c4];
            s.x += v.x; s.y += v.y; s.z += v.z; s.w += v.w;
            ss.x += v.x * v.x; ss.y += v.y * v.y; ss.z += v.z * v.z; ss.w += v.w * v.w;
        }
    }
    sh_s[ty][tx] = s;
    sh_ss[ty][tx] = ss;
    __syncthreads();
    if (ty == 0 && c4 < C4) {
        for (int k = 1; k < BY; ++k) {
            const float4 a = sh_s[k][tx], b = sh_ss[k][tx];
            s.x += a.x; s.y += a.y; s.z += a.z; s.w += a.w;
            ss.x += b.x; ss.y += b.y; ss.z += b.z; ss.w += b.w;
        }
        const int c = c4 * 4;
        atomicAdd(&ws[c + 0], s.x);
        atomicAdd(&ws[c + 1], s.y);
        atomicAdd(&ws[c + 2], s.z);
        atomicAdd(&ws[c + 3], s.w);
        atomicAdd(&ws[C + c + 0], ss.x);
        atomicAdd(&ws[C + c + 1], ss.y);
        atomicAdd(&ws[C + c + 2], ss.z);
        atomicAdd(&ws[C + c + 3], ss.w);
        __threadfence();
    }
    __syncthreads();
    if (tx == 0 && ty == 0) {
        const unsigned ticket = atomicAdd(&count[blockIdx.x], 1u);
        is_last = (ticket == gridDim.y - 1);
    }
    __syncthreads();
    if (!is_last) return;
    // The last block of this strip: 256 threads finalise its 64 columns.
    const int t = ty * BX + tx;
    if (t < BX * 4) {
        const int c = blockIdx.x * BX * 4 + t;
        if (c < C) {
            const float tot = atomicExch(&ws[c], 0.0f);
            const float tot2 = atomicExch(&ws[C + c], 0.0f);
            const float m = tot / N;
            mean[c] = m;
            var[c] = tot2 / N - m * m;
        }
    }
    if (t == 0) count[blockIdx.x] = 0;  // ready for the next launch
}

extern "C" void launch_bn_stats(const float* x, float* mean, float* var, float* ws, unsigned int* count, int N, int C,
                                cudaStream_t stream)
{
    dim3 block(BX, BY);
    dim3 grid((C / 4 + BX - 1) / BX, (N + ROWS - 1) / ROWS);
    bn_stats<<<grid, block, 0, stream>>>(x, mean, var, ws, count, N, C);
}
