// Sum of every row of a row-major matrix: one thread per row (neighbouring
// threads read addresses cols*4 bytes apart: uncoalesced).
#include <cuda_runtime.h>

#define THREADS 128

// kforecast: rows = 16384; cols = 1024; x: f32[rows, cols] randn; out: f32[rows]; rtol = 1e-3; atol = 1e-3
__global__ void row_sum(const float* __restrict__ x, float* __restrict__ out, int rows, int cols)
{
    const int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= rows) return;
    const float* row = x + (size_t)r * cols;
    float s = 0.0f;
    for (int c = 0; c < cols; ++c) s += row[c];
    out[r] = s;
}

extern "C" void launch_row_sum(const float* x, float* out, int rows, int cols, cudaStream_t stream)
{
    const int blocks = (rows + THREADS - 1) / THREADS;
    row_sum<<<blocks, THREADS, 0, stream>>>(x, out, rows, cols);
}
