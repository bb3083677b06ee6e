// Mandelbrot escape-time counts over a W x H grid (max_iter iterations, explicit
// fmaf so every version does bit-identical arithmetic per pixel). One thread per
// pixel, 16x16 blocks on a 2-D grid.
#include <cuda_runtime.h>

#define BX 16
#define BY 16

// kforecast: W = 2048; H = 2048; x0 = -2.0; y0 = -1.25; dx = 0.00125; dy = 0.00125; max_iter = 256; out: i32[H, W]; rtol = 0; atol = 0
__global__ void mandelbrot(int* __restrict__ out, int W, int H, float x0, float y0, float dx, float dy, int max_iter)
{
    const int px = blockIdx.x * BX + threadIdx.x;
    const int py = blockIdx.y * BY + threadIdx.y;
    if (px >= W || py >= H) return;
    const float cx = fmaf((float)px, dx, x0);
    const float cy = fmaf((float)py, dy, y0);
    float x = 0.0f, y = 0.0f;
    int it = 0;
    while (it < max_iter) {
        const float yy = y * y;
        if (fmaf(x, x, yy) > 4.0f) break;
        const float xn = fmaf(x, x, fmaf(-y, y, cx));
        y = fmaf(x + x, y, cy);
        x = xn;
        ++it;
    }
    out[(size_t)py * W + px] = it;
}

extern "C" void launch_mandelbrot(int* out, int W, int H, float x0, float y0, float dx, float dy, int max_iter, cudaStream_t stream)
{
    dim3 block(BX, BY);
    dim3 grid((W + BX - 1) / BX, (H + BY - 1) / BY);
    mandelbrot<<<grid, block, 0, stream>>>(out, W, H, x0, y0, dx, dy, max_iter);
}
