// Depthwise 3x3 convolution, NCHW, zero padding 1, stride 1 (one filter per
// channel). Naive: one thread per output, 16x16 blocks, grid.z = plane (n*C + c),
// bounds-checked global loads of the input and the filter for every tap.
#include <cuda_runtime.h>

#define BX 16
#define BY 16

// kforecast: N = 4; C = 64; H = 256; W = 256; in: f32[N, C, H, W] randn; w: f32[C, 3, 3] randn; out: f32[N, C, H, W]; rtol = 1e-4; atol = 1e-4
__global__ void depthwise_conv2d(const float* __restrict__ in, const float* __restrict__ w, float* __restrict__ out, int N, int C, int H, int W)
{
    const int x = blockIdx.x * BX + threadIdx.x;
    const int y = blockIdx.y * BY + threadIdx.y;
    const int p = blockIdx.z;
    const int c = p % C;
    if (x >= W || y >= H) return;
    const float* src = in + (size_t)p * H * W;
    float acc = 0.0f;
    for (int ky = 0; ky < 3; ++ky) {
        const int iy = y + ky - 1;
        if (iy < 0 || iy >= H) continue;
        for (int kx = 0; kx < 3; ++kx) {
            const int ix = x + kx - 1;
            if (ix < 0 || ix >= W) continue;
            acc += src[iy * W + ix] * w[c * 9 + ky * 3 + kx];
        }
    }
    out[(size_t)p * H * W + y * W + x] = acc;
}

extern "C" void launch_depthwise_conv2d(const float* in, const float* w, float* out, int N, int C, int H, int W, cudaStream_t stream)
{
    dim3 block(BX, BY);
    dim3 grid((W + BX - 1) / BX, (H + BY - 1) / BY, N * C);
    depthwise_conv2d<<<grid, block, 0, stream>>>(in, w, out, N, C, H, W);
}
