// Column sums of a row-major rows x cols matrix: one thread per column walks all
// rows. Coalesced (a warp reads 32 neighbouring columns), but only cols threads.
#include <cuda_runtime.h>

#define THREADS 256

// kforecast: rows = 4096; cols = 4096; x: f32[rows, cols] randn; out: f32[cols] zeros; rtol = 1e-3; atol = 1e-2
__global__ void col_sum(const float* __restrict__ x, float* __restrict__ out, int rows, int cols)
{
    const int c = blockIdx.x * blockDim.x + threadIdx.x;
    if (c >= cols) return;
    float s = 0.0f;
    for (int r = 0; r < rows; ++r) s += x[(size_t)r * cols + c];
    out[c] = s;
}

extern "C" void launch_col_sum(const float* x, float* out, int rows, int cols, cudaStream_t stream)
{
    const int blocks = (cols + THREADS - 1) / THREADS;
    col_sum<<<blocks, THREADS, 0, stream>>>(x, out, rows, cols);
}
