// Softmax backward dx = y * (dy - sum(dy * y)) per row. One thread per row, two serial passes over
// its row: a warp touches 32 rows 4 KB apart per step (uncoalesced) and only 32768 threads exist.
#include <cuda_runtime.h>

#define THREADS 256

// kforecast: rows = 32768; cols = 1024; y: f32[rows, cols] rand; dy: f32[rows, cols] randn; dx: f32[rows, cols]; rtol = 1e-3; atol = 1e-3
__global__ void softmax_backward(const float* __restrict__ y, const float* __restrict__ dy, float* __restrict__ dx,
                                 int rows, int cols)
{
    const int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= rows) return;
    const float* yr = y + (size_t)r * cols;
    const float* gr = dy + (size_t)r * cols;
    float* out = dx + (size_t)r * cols;
    float dot = 0.0f;
    for (int c = 0; c < cols; ++c) dot += yr[c] * gr[c];
    for (int c = 0; c < cols; ++c) out[c] = yr[c] * (gr[c] - dot);
}

extern "C" void launch_softmax_backward(const float* y, const float* dy, float* dx, int rows, int cols,
                                        cudaStream_t stream)
{
    softmax_backward<<<(rows + THREADS - 1) / THREADS, THREADS, 0, stream>>>(y, dy, dx, rows, cols);
}
