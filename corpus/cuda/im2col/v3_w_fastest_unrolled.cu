// im2col 3x3 (pad 1, stride 1), NCHW float32. threadIdx.x along w (128-wide row blocks), blockIdx.y = h, blockIdx.z = n * C + c: no division; each thread loads its 3x3 window and writes the 9 taps (unrolled), each store coalesced along w.
#include <cuda_runtime.h>

#define BX 128
#define KS 3
#define PAD 1

// kforecast: N = 8; C = 64; H = 128; W = 128; in: f32[N, C, H, W] randn; cols: f32[N, C * 9, H * W]; rtol = 0; atol = 0
__global__ void __launch_bounds__(BX)
im2col(const float* __restrict__ in, float* __restrict__ cols, int N, int C, int H, int W)
{
    const int w = blockIdx.x * BX + threadIdx.x;
    const int h = blockIdx.y;
    const int nc = blockIdx.z;
    if (w >= W) return;
    const int HW = H * W;
    const float* src = in + (size_t)nc * HW;
    float* dst = cols + (size_t)nc * KS * KS * HW + h * W + w;
#pragma unroll
    for (int kh = 0; kh < KS; ++kh) {
        const int ih = h + kh - PAD;
        const bool row_ok = ih >= 0 && ih < H;
#pragma unroll
        for (int kw = 0; kw < KS; ++kw) {
            const int iw = w + kw - PAD;
            const float v = (row_ok && iw >= 0 && iw < W) ? src[ih * W + iw] : 0.0f;
            dst[(kh * KS + kw) * HW] = v;
        }
    }
}

extern "C" void launch_im2col(const float* in, float* cols, int N, int C, int H, int W, cudaStream_t stream)
{
    dim3 grid((W + BX - 1) / BX, H, N * C);
    im2col<<<grid, BX, 0, stream>>>(in, cols, N, C, H, W);
}
