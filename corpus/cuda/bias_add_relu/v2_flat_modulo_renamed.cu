// Fused bias + ReLU: out = max(in + b[col], 0). Flat indexing over all elements
// (same work as the modulo version; names and statement order tidied).
#include <cuda_runtime.h>

#define BLOCK 256

// kforecast: rows = 8192; cols = 2048; x: f32[rows, cols] randn; bias: f32[cols] randn; y: f32[rows, cols]; rtol = 0; atol = 0
__global__ void bias_add_relu(const float* __restrict__ x, const float* __restrict__ bias, float* __restrict__ y,
                              int rows, int cols)
{
    const int n = rows * cols;
    const int idx = threadIdx.x + blockIdx.x * BLOCK;
    if (idx < n) {
        const int col = idx % cols;
        const float b = bias[col];
        const float s = x[idx] + b;
        y[idx] = fmaxf(s, 0.0f);
    }
}

extern "C" void launch_bias_add_relu(const float* x, const float* bias, float* y, int rows, int cols,
                                     cudaStream_t stream)
{
    const int n = rows * cols;
    const int grid = (n + BLOCK - 1) / BLOCK;
    bias_add_relu<<<grid, BLOCK, 0, stream>>>(x, bias, y, rows, cols);
}
