// y = relu(x + bias[col]) on a 2-D grid: blockIdx.y is the row, threads run along
// the columns, so there is no division and bias is read contiguously.
#include <cuda_runtime.h>

#define THREADS 256

// kforecast: rows = 8192; cols = 2048; x: f32[rows, cols] randn; bias: f32[cols] randn; y: f32[rows, cols]; rtol = 0; atol = 0
__global__ void bias_add_relu(const float* __restrict__ x, const float* __restrict__ bias, float* __restrict__ y,
                              int rows, int cols)
{
    const int c = blockIdx.x * blockDim.x + threadIdx.x;
    const int r = blockIdx.y;
    if (c >= cols) return;
    const size_t i = (size_t)r * cols + c;
    y[i] = fmaxf(x[i] + bias[c], 0.0f);
}

extern "C" void launch_bias_add_relu(const float* x, const float* bias, float* y, int rows, int cols,
                                     cudaStream_t stream)
{
    dim3 block(THREADS);
    dim3 grid((cols + THREADS - 1) / THREADS, rows);
    bias_add_relu<<<grid, block, 0, stream>>>(x, bias, y, rows, cols);
}
