// Row sums: one block of 256 threads per row, strided accumulation, then a
// shared-memory tree reduction.
#include <cuda_runtime.h>

#define THREADS 256

// kforecast: rows = 16384; cols = 1024; x: f32[rows, cols] randn; out: f32[rows]; rtol = 1e-3; atol = 1e-3
__global__ void row_sum(const float* __restrict__ x, float* __restrict__ out, int rows, int cols)
{
    __shared__ float buf[THREADS];
    const float* row = x + (size_t)blockIdx.x * cols;
    float s = 0.0f;
    for (int c = threadIdx.x; c < cols; c += THREADS) s += row[c];
    buf[threadIdx.x] = s;
    __syncthreads();
    for (int stride = THREADS / 2; stride > 0; stride >>= 1) {
        if (threadIdx.x < stride) buf[threadIdx.x] += buf[threadIdx.x + stride];
        __syncthreads();
    }
    if (threadIdx.x == 0) out[blockIdx.x] = buf[0];
}

extern "C" void launch_row_sum(const float* x, float* out, int rows, int cols, cudaStream_t stream)
{
    row_sum<<<rows, THREADS, 0, stream>>>(x, out, rows, cols);
}
