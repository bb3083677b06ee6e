// Direct 3x3 convolution, 16 -> 16 channels, zero padding. Naive as v0 (one thread
// per output, global loads for every tap) with 32x8 blocks instead of 16x16.
#include <cuda_runtime.h>

#define CIN 16
#define COUT 16
#define BX 32
#define BY 8

// kforecast: H = 768; W = 768; in: f32[16, H, W] randn; w: f32[16, 16, 3, 3] randn; out: f32[16, H, W]; rtol = 1e-3; atol = 1e-3
__global__ void conv2d_3x3(const float* __restrict__ in, const float* __restrict__ w, float* __restrict__ out, int H, int W)
{
    const int x = blockIdx.x * BX + threadIdx.x;
    const int y = blockIdx.y * BY + threadIdx.y;
    const int co = blockIdx.z;
    if (x >= W || y >= H) return;
    float acc = 0.0f;
    for (int ci = 0; ci < CIN; ++ci) {
        for (int ky = 0; ky < 3; ++ky) {
            const int iy = y + ky - 1;
            if (iy < 0 || iy >= H) continue;
            for (int kx = 0; kx < 3; ++kx) {
                const int ix = x + kx - 1;
                if (ix < 0 || ix >= W) continue;
                acc += in[((size_t)ci * H + iy) * W + ix] * w[((co * CIN + ci) * 3 + ky) * 3 + kx];
            }
        }
    }
    out[((size_t)co * H + y) * W + x] = acc;
}

extern "C" void launch_conv2d_3x3(const float* in, const float* w, float* out, int H, int W, cudaStream_t stream)
{
    dim3 block(BX, BY);
    dim3 grid((W + BX - 1) / BX, (H + BY - 1) / BY, COUT);
    conv2d_3x3<<<grid, block, 0, stream>>>(in, w, out, H, W);
}
