// Mandelbrot escape-time counts (same per-pixel fmaf arithmetic as v0). 32x8 blocks,
// each thread iterates two pixels of its row 32 columns apart in one interleaved
// loop (two independent dependency chains), until both have escaped or finished.
#include <cuda_runtime.h>

#define BX 32
#define BY 8

// kforecast: W = 2048; H = 2048; x0 = -2.0; y0 = -1.25; dx = 0.00125; dy = 0.00125; max_iter = 256; out: i32[H, W]; rtol = 0; atol = 0
__global__ void mandelbrot(int* __restrict__ out, int W, int H, float x0, float y0, float dx, float dy, int max_iter)
{
    const int pxa = blockIdx.x * (2 * BX) + threadIdx.x;
    const int pxb = pxa + BX;
    const int py = blockIdx.y * BY + threadIdx.y;
    if (py >= H || pxa >= W) return;
    const float cxa = fmaf((float)pxa, dx, x0);
    const float cxb = fmaf((float)pxb, dx, x0);
    const float cy = fmaf((float)py, dy, y0);
    float xa = 0.0f, ya = 0.0f, xb = 0.0f, yb = 0.0f;
    int ita = 0, itb = 0;
    bool runa = true, runb = pxb < W;
    while (runa || runb) {
        if (runa) {
            const float yy = ya * ya;
            if (ita >= max_iter || fmaf(xa, xa, yy) > 4.0f) {
                runa = false;
            } else {
                const float xn = fmaf(xa, xa, fmaf(-ya, ya, cxa));
                ya = fmaf(xa + xa, ya, cy);
                xa = xn;
                ++ita;
            }
        }
        if (runb) {
            const float yy = yb * yb;
            if (itb >= max_iter || fmaf(xb, xb, yy) > 4.0f) {
                runb = false;
            } else {
                const float xn = fmaf(xb, xb, fmaf(-yb, yb, cxb));
                yb = fmaf(xb + xb, yb, cy);
                xb = xn;
                ++itb;
            }
        }
    }
    out[(size_t)py * W + pxa] = ita;
    if (pxb < W) out[(size_t)py * W + pxb] = itb;
}

extern "C" void launch_mandelbrot(int* out, int W, int H, float x0, float y0, float dx, float dy, int max_iter, cudaStream_t stream)
{
    dim3 block(BX, BY);
    dim3 grid((W + 2 * BX - 1) / (2 * BX), (H + BY - 1) / BY);
    mandelbrot<<<grid, block, 0, stream>>>(out, W, H, x0, y0, dx, dy, max_iter);
}
