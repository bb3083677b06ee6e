// 7x7 Gaussian blur (sigma 1.5, clamped edges), naive one thread per output on a 16x16 block,
// the 49 weights precomputed in a __constant__ table (uniform index: broadcast) instead of expf.
#include <cuda_runtime.h>

#define BX 16
#define BY 16
#define R  3
#define K  (2 * R + 1)

__constant__ float c_w[49] = {
    0.00134196552f, 0.00407653116f, 0.00793999806f, 0.00991585758f, 0.00793999806f, 0.00407653116f, 0.00134196552f,
    0.00407653116f, 0.0123834079f, 0.0241195839f, 0.0301217157f, 0.0241195839f, 0.0123834079f, 0.00407653116f,
    0.00793999806f, 0.0241195839f, 0.0469785333f, 0.0586690903f, 0.0469785333f, 0.0241195839f, 0.00793999806f,
    0.00991585758f, 0.0301217157f, 0.0586690903f, 0.0732688308f, 0.0586690903f, 0.0301217157f, 0.00991585758f,
    0.00793999806f, 0.0241195839f, 0.0469785333f, 0.0586690903f, 0.0469785333f, 0.0241195839f, 0.00793999806f,
    0.00407653116f, 0.0123834079f, 0.0241195839f, 0.0301217157f, 0.0241195839f, 0.0123834079f, 0.00407653116f,
    0.00134196552f, 0.00407653116f, 0.00793999806f, 0.00991585758f, 0.00793999806f, 0.00407653116f, 0.00134196552f};
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
            s += c_w[(dy + R) * K + (dx + R)] * src[yy * W + xx];
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
