// y = float(x) * scale[c] + bias[c]: half2 / float2 per step in a grid-stride loop over a fixed grid (8 blocks of 256 per SM).
#include <cuda_runtime.h>
#include <cuda_fp16.h>

#define THREADS 256
#define NUM_SMS 132

// kforecast: rows = 8192; cols = 4096; x: f16[rows, cols] randn; scale: f32[cols] rand; bias: f32[cols] randn; y: f32[rows, cols]; rtol = 1e-5; atol = 1e-5
__global__ void __launch_bounds__(THREADS)
half_to_float_scale(const __half* __restrict__ x, const float* __restrict__ scale,
                    const float* __restrict__ bias, float* __restrict__ y, int rows, int cols)
{
    const int half_cols = cols >> 1;
    const int pairs = rows * half_cols;
    const __half2* x2 = reinterpret_cast<const __half2*>(x);
    const float2* s2 = reinterpret_cast<const float2*>(scale);
    const float2* b2 = reinterpret_cast<const float2*>(bias);
    float2* y2 = reinterpret_cast<float2*>(y);
    for (int p = blockIdx.x * THREADS + threadIdx.x; p < pairs; p += gridDim.x * THREADS) {
        const int cp = p % half_cols;
        const float2 v = __half22float2(x2[p]);
        const float2 s = s2[cp];
        const float2 b = b2[cp];
        y2[p] = make_float2(fmaf(v.x, s.x, b.x), fmaf(v.y, s.y, b.y));
    }
}

extern "C" void launch_half_to_float_scale(const __half* x, const float* scale, const float* bias, float* y,
                                          int rows, int cols, cudaStream_t stream)
{
    const int pairs = rows * (cols / 2);
    const int blocks = min((pairs + THREADS - 1) / THREADS, NUM_SMS * 8);
    half_to_float_scale<<<blocks, THREADS, 0, stream>>>(x, scale, bias, y, rows, cols);
}
