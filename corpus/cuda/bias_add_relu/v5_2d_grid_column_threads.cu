// y = relu(x + bias[col]) on a 2-D grid mapped the wrong way round: threadIdx.x
// runs down a column, so a warp touches 32 rows per access (uncoalesced).
#include <cuda_runtime.h>

#define TX 32
#define TY 8

// kforecast: rows = 8192; cols = 2048; x: f32[rows, cols] randn; bias: f32[cols] randn; y: f32[rows, cols]; rtol = 0; atol = 0
__global__ void bias_add_relu(const float* __restrict__ x, const float* __restrict__ bias, float* __restrict__ y,
                              int rows, int cols)
{
    const int r = blockIdx.x * TX + threadIdx.x;
    const int c = blockIdx.y * TY + threadIdx.y;
    if (r >= rows || c >= cols) return;
    const size_t i = (size_t)r * cols + c;
    y[i] = fmaxf(x[i] + bias[c], 0.0f);
}

extern "C" void launch_bias_add_relu(const float* x, const float* bias, float* y, int rows, int cols,
                                     cudaStream_t stream)
{
    dim3 block(TX, TY);
    dim3 grid((rows + TX - 1) / TX, (cols + TY - 1) / TY);
    bias_add_relu<<<grid, block, 0, stream>>>(x, bias, y, rows, cols);
}
