// Softmax over dim 0: one thread per column, online softmax (running max and rescaled sum in one pass) then a write pass: two reads of x instead of three.
#include <cuda_runtime.h>
#include <math.h>

#define THREADS 256

// kforecast: rows = 4096; cols = 8192; x: f32[rows, cols] randn; out: f32[rows, cols]; rtol = 1e-3; atol = 1e-8
__global__ void softmax_dim0(const float* __restrict__ x, float* __restrict__ out, int rows, int cols)
{
    const int c = blockIdx.x * blockDim.x + threadIdx.x;
    if (c >= cols) return;
    const float* col = x + c;
    float m = -INFINITY, s = 0.0f;
    for (int r = 0; r < rows; ++r) {
        const float v = col[(size_t)r * cols];
        if (v > m) {
            s = s * expf(m - v) + 1.0f;
            m = v;
        } else {
            s += expf(v - m);
        }
    }
    const float inv = 1.0f / s;
    for (int r = 0; r < rows; ++r) out[(size_t)r * cols + c] = expf(col[(size_t)r * cols] - m) * inv;
}

extern "C" void launch_softmax_dim0(const float* x, float* out, int rows, int cols, cudaStream_t stream)
{
    softmax_dim0<<<(cols + THREADS - 1) / THREADS, THREADS, 0, stream>>>(x, out, rows, cols);
}
