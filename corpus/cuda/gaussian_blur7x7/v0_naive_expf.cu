// 7x7 Gaussian blur (sigma 1.5, clamped edges) of a planar 3-channel image, naive: one thread
// per output on a 16x16 block, 49 clamped global loads, each weight computed with expf.
#include <cuda_runtime.h>

#define BX 16
#define BY 16
#define R  3
#define INV_2SIGMA2 0.222222222f   // 1 / (2 * 1.5^2)
#define NORM        0.0732688261f  // 1 / (sum_k exp(-k^2 / 4.5))^2, k = -3..3

// kforecast: C = 3; H = 4096; W = 4096; in: f32[C, H, W] randn; out: f32[C, H, W]; rtol = 1e-4; atol = 1e-5
__global__ void gaussian_blur7x7(const float* __restrict__ in, float* __restrict__ out, int C, int H, int W)
{
    const int x = blockIdx.x * BX + threadIdx.x;
    const int y = blockIdx.y * BY + threadIdx.y;
    if (x >= W || y >= H) return;
    const float* src = in + (size_t)blockIdx.z * H * W;
    float s = 0.0f;
    for (int dy = -R; dy <= R; ++dy) {
        const int yy = min(max(y + dy, 0), H - 1);
        for (int dx = -R; dx <= R; ++dx) {
            const int xx = min(max(x + dx, 0), W - 1);
            const float w = expf(-(float)(dx * dx + dy * dy) * INV_2SIGMA2) * NORM;
            s += w * src[yy * W + xx];
        }
    }
    out[(size_t)blockIdx.z * H * W + y * W + x] = s;
}

extern "C" void launch_gaussian_blur7x7(const float* in, float* out, int C, int H, int W, cudaStream_t stream)
{
    dim3 block(BX, BY);
    dim3 grid((W + BX - 1) / BX, (H + BY - 1) / BY, C);
    gaussian_blur7x7<<<grid, block, 0, stream>>>(in, out, C, H, W);
}
