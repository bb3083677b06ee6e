// Softmax over dim 0: the 32 x 8 shared-merge kernel with __expf, but launched on a fixed grid of 32 blocks that loop over the column tiles (too small a grid: most SMs idle).
#include <cuda_runtime.h>
#include <math.h>

#define TW     32
#define TH     8
#define BLOCKS 32

__device__ __forceinline__ void merge(float& m, float& s, float m2, float s2)
{
    const float mx = fmaxf(m, m2);
    const float a = m == -INFINITY ? 0.0f : s * __expf(m - mx);
    const float b = m2 == -INFINITY ? 0.0f : s2 * __expf(m2 - mx);
    m = mx;
    s = a + b;
}

// kforecast: rows = 4096; cols = 8192; x: f32[rows, cols] randn; out: f32[rows, cols]; rtol = 1e-3; atol = 1e-8
__global__ void __launch_bounds__(TW * TH)
softmax_dim0(const float* __restrict__ x, float* __restrict__ out, int rows, int cols)
{
    __shared__ float part_m[TH][TW + 1];
    __shared__ float part_s[TH][TW + 1];
    const int tx = threadIdx.x, ty = threadIdx.y;
    for (int c0 = blockIdx.x * TW; c0 < cols; c0 += gridDim.x * TW) {
        const int c = c0 + tx;
        float m = -INFINITY, s = 0.0f;
        if (c < cols) {
            for (int r = ty; r < rows; r += TH) {
                const float v = x[(size_t)r * cols + c];
                if (v > m) {
                    s = s * __expf(m - v) + 1.0f;
                    m = v;
                } else {
                    s += __expf(v - m);
                }
            }
        }
        part_m[ty][tx] = m;
        part_s[ty][tx] = s;
        __syncthreads();
        if (ty == 0) {
#pragma unroll
            for (int k = 1; k < TH; ++k) merge(m, s, part_m[k][tx], part_s[k][tx]);
            part_m[0][tx] = m;
            part_s[0][tx] = s;
        }
        __syncthreads();
        m = part_m[0][tx];
        const float inv = 1.0f / part_s[0][tx];
        if (c < cols)
            for (int r = ty; r < rows; r += TH) out[(size_t)r * cols + c] = __expf(x[(size_t)r * cols + c] - m) * inv;
        __syncthreads();
    }
}

extern "C" void launch_softmax_dim0(const float* x, float* out, int rows, int cols, cudaStream_t stream)
{
    dim3 block(TW, TH);
    softmax_dim0<<<BLOCKS, block, 0, stream>>>(x, out, rows, cols);
}
