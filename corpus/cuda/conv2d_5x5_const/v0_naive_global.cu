// 5x5 convolution, zero padding, naive: one thread per output pixel (16x16 blocks), every tap reads
// the filter and the image from global memory behind a bounds check.
#include <cuda_runtime.h>

#define BX 16
#define BY 16
#define R  2
#define KS (2 * R + 1)

// kforecast: H = 4096; W = 4096; in: f32[H, W] randn; filt: f32[25] randn; out: f32[H, W]; rtol = 1e-4; atol = 1e-4
__global__ void conv2d_5x5(const float* __restrict__ in, const float* __restrict__ filt, float* __restrict__ out, int H, int W)
{
    const int x = blockIdx.x * BX + threadIdx.x;
    const int y = blockIdx.y * BY + threadIdx.y;
    if (x >= W || y >= H) return;
    float acc = 0.0f;
    for (int ky = 0; ky < KS; ++ky) {
        const int iy = y + ky - R;
        for (int kx = 0; kx < KS; ++kx) {
            const int ix = x + kx - R;
            if (iy >= 0 && iy < H && ix >= 0 && ix < W) acc += filt[ky * KS + kx] * in[(size_t)iy * W + ix];
        }
    }
    out[(size_t)y * W + x] = acc;
}

extern "C" void launch_conv2d_5x5(const float* in, const float* filt, float* out, int H, int W, cudaStream_t stream)
{
    dim3 block(BX, BY);
    dim3 grid((W + BX - 1) / BX, (H + BY - 1) / BY);
    conv2d_5x5<<<grid, block, 0, stream>>>(in, filt, out, H, W);
}
