// y = relu(x + bias[col]) over a row-major rows x cols matrix; flat 1-D grid,
// column from i % cols.
#include <cuda_runtime.h>

#define THREADS 256

// kforecast: rows = 8192; cols = 2048; x: f32[rows, cols] randn; bias: f32[cols] randn; y: f32[rows, cols]; rtol = 0; atol = 0
__global__ void bias_add_relu(const float* __restrict__ x, const float* __restrict__ bias, float* __restrict__ y,
                              int rows, int cols)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= rows * cols) return;
    const float v = x[i] + bias[i % cols];
    y[i] = v > 0.0f ? v : 0.0f;
}

extern "C" void launch_bias_add_relu(const float* x, const float* bias, float* y, int rows, int cols,
                                     cudaStream_t stream)
{
    const int total = rows * cols;
    bias_add_relu<<<(total + THREADS - 1) / THREADS, THREADS, 0, stream>>>(x, bias, y, rows, cols);
}
