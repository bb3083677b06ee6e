// y = float(x) * scale[c] + bias[c]: one thread per element but consecutive threads walk down a column (uncoalesced x and y).
#include <cuda_runtime.h>
#include <cuda_fp16.h>

#define THREADS 256

// kforecast: rows = 8192; cols = 4096; x: f16[rows, cols] randn; scale: f32[cols] rand; bias: f32[cols] randn; y: f32[rows, cols]; rtol = 1e-5; atol = 1e-5
__global__ void half_to_float_scale(const __half* __restrict__ x, const float* __restrict__ scale,
                                    const float* __restrict__ bias, float* __restrict__ y, int rows, int cols)
{
    const int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx >= rows * cols) return;
    const int r = idx % rows;
    const int c = idx / rows;
    const size_t off = (size_t)r * cols + c;
    y[off] = __half2float(x[off]) * scale[c] + bias[c];
}

extern "C" void launch_half_to_float_scale(const __half* x, const float* scale, const float* bias, float* y,
                                          int rows, int cols, cudaStream_t stream)
{
    const int n = rows * cols;
    half_to_float_scale<<<(n + THREADS - 1) / THREADS, THREADS, 0, stream>>>(x, scale, bias, y, rows, cols);
}
