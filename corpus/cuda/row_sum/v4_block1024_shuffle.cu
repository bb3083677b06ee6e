// Row sums: one block of 1024 threads per row (a single element per thread for
// 1024-wide rows), warp shuffles and a second shuffle round over the 32 warps.
#include <cuda_runtime.h>

#define THREADS   1024
#define FULL_MASK 0xffffffffu

__device__ __forceinline__ float warp_sum(float v)
{
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(FULL_MASK, v, o);
    return v;
}

// kforecast: rows = 16384; cols = 1024; x: f32[rows, cols] randn; out: f32[rows]; rtol = 1e-3; atol = 1e-3
__global__ void __launch_bounds__(THREADS)
row_sum(const float* __restrict__ x, float* __restrict__ out, int rows, int cols)
{
    __shared__ float partial[32];
    const float* row = x + (size_t)blockIdx.x * cols;
    float s = 0.0f;
    for (int c = threadIdx.x; c < cols; c += THREADS) s += row[c];
    s = warp_sum(s);
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    if (lane == 0) partial[warp] = s;
    __syncthreads();
    if (warp == 0) {
        s = warp_sum(partial[lane]);
        if (lane == 0) out[blockIdx.x] = s;
    }
}

extern "C" void launch_row_sum(const float* x, float* out, int rows, int cols, cudaStream_t stream)
{
    row_sum<<<rows, THREADS, 0, stream>>>(x, out, rows, cols);
}
