// 5x5 bilateral filter, the naive version with only the math swapped for fast intrinsics:
// __expf for both weights per tap, reciprocals hoisted out of the loop, __fdividef at the end.
#include <cuda_runtime.h>

#define BX 16
#define BY 16
#define R  2

// kforecast: H = 4096; W = 4096; sigma_s = 2.0; sigma_r = 0.1; in: f32[H, W] rand; out: f32[H, W]; rtol = 1e-4; atol = 1e-5
__global__ void bilateral_filter(const float* __restrict__ in, float* __restrict__ out, int H, int W, float sigma_s, float sigma_r)
{
    const int x = blockIdx.x * BX + threadIdx.x;
    const int y = blockIdx.y * BY + threadIdx.y;
    if (x >= W || y >= H) return;
    const float inv_s = 1.0f / (2.0f * sigma_s * sigma_s);
    const float inv_r = 1.0f / (2.0f * sigma_r * sigma_r);
    const float center = in[y * W + x];
    float num = 0.0f, den = 0.0f;
    for (int dy = -R; dy <= R; ++dy) {
        const int yy = min(max(y + dy, 0), H - 1);
        for (int dx = -R; dx <= R; ++dx) {
            const int xx = min(max(x + dx, 0), W - 1);
            const float v = in[yy * W + xx];
            const float d = v - center;
            const float w = __expf(-(float)(dx * dx + dy * dy) * inv_s) * __expf(-d * d * inv_r);
            num += w * v;
            den += w;
        }
    }
    out[y * W + x] = __fdividef(num, den);
}

extern "C" void launch_bilateral_filter(const float* in, float* out, int H, int W, float sigma_s, float sigma_r,
                                        cudaStream_t stream)
{
    dim3 block(BX, BY);
    dim3 grid((W + BX - 1) / BX, (H + BY - 1) / BY);
    bilateral_filter<<<grid, block, 0, stream>>>(in, out, H, W, sigma_s, sigma_r);
}
