// Inclusive prefix sum of every row (cols <= 1024): one thread per row scans it
// sequentially (uncoalesced: a warp touches 32 rows per step).
#include <cuda_runtime.h>

#define THREADS 128

// kforecast: rows = 16384; cols = 1024; in: f32[rows, cols] randn; out: f32[rows, cols]; rtol = 1e-3; atol = 1e-3
__global__ void row_cumsum(const float* __restrict__ in, float* __restrict__ out, int rows, int cols)
{
    const int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= rows) return;
    const float* x = in + (size_t)r * cols;
    float* y = out + (size_t)r * cols;
    float s = 0.0f;
    for (int c = 0; c < cols; ++c) {
        s += x[c];
        y[c] = s;
    }
}

extern "C" void launch_row_cumsum(const float* in, float* out, int rows, int cols, cudaStream_t stream)
{
    row_cumsum<<<(rows + THREADS - 1) / THREADS, THREADS, 0, stream>>>(in, out, rows, cols);
}
