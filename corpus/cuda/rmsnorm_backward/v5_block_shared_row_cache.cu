// RMSNorm input gradient, one block of 256 threads per row that caches the row
// in shared memory (x and w*dy, 2 x 16 KB, cols <= 4096): scalar coalesced loads,
// shuffle + shared reductions, and the second pass reads shared memory only.
#include <cuda_runtime.h>
#include <math.h>

#define THREADS   256
#define WARPS     (THREADS / 32)
#define MAX_COLS  4096
#define FULL_MASK 0xffffffffu

// kforecast: rows = 8192; cols = 4096; eps = 0.000001; x: f32[rows, cols] randn; w: f32[cols] randn; dy: f32[rows, cols] randn; dx: f32[rows, cols]; rtol = 1e-3; atol = 1e-4
__global__ void __launch_bounds__(THREADS)
rmsnorm_backward(const float* __restrict__ x, const float* __restrict__ w, const float* __restrict__ dy,
                 float* __restrict__ dx, int rows, int cols, float eps)
{
    __shared__ float xs[MAX_COLS];
    __shared__ float gs[MAX_COLS];
    __shared__ float part_ss[WARPS];
    __shared__ float part_dot[WARPS];
    const float* xr = x + (size_t)blockIdx.x * cols;
    const float* gr = dy + (size_t)blockIdx.x * cols;
    float* dr = dx + (size_t)blockIdx.x * cols;
    float ss = 0.0f, dot = 0.0f;
    for (int c = threadIdx.x; c < cols; c += THREADS) {
        const float v = xr[c];
        const float g = w[c] * gr[c];
        xs[c] = v;
        gs[c] = g;
        ss += v * v;
        dot += g * v;
    }
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) {
        ss += __shfl_xor_sync(FULL_MASK, ss, o);
        dot += __shfl_xor_sync(FULL_MASK, dot, o);
    }
    if ((threadIdx.x & 31) == 0) {
        part_ss[threadIdx.x >> 5] = ss;
        part_dot[threadIdx.x >> 5] = dot;
    }
    __syncthreads();
    ss = 0.0f;
    dot = 0.0f;
#pragma unroll
    for (int k = 0; k < WARPS; ++k) {
        ss += part_ss[k];
        dot += part_dot[k];
    }
    const float rstd = rsqrtf(ss / cols + eps);
    const float coef = rstd * rstd * dot / cols;
    for (int c = threadIdx.x; c < cols; c += THREADS) dr[c] = rstd * (gs[c] - xs[c] * coef);
}

extern "C" void launch_rmsnorm_backward(const float* x, const float* w, const float* dy, float* dx, int rows,
                                        int cols, float eps, cudaStream_t stream)
{
    rmsnorm_backward<<<rows, THREADS, 0, stream>>>(x, w, dy, dx, rows, cols, eps);
}
