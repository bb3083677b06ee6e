// Julia set escape-time counts, z <- z^2 + c from z0 = pixel, up to max_iter
// iterations (explicit __fmul_rn/__fadd_rn: no FMA contraction, so every version
// does bit-identical arithmetic per pixel).
// 32x4 blocks, each thread iterates two pixels of its row 32 columns apart
// (interleaved) in one loop: two independent dependency chains per thread.
#include <cuda_runtime.h>

#define BX 32
#define BY 4

// kforecast: W = 2048; H = 2048; x0 = -1.6; y0 = -1.0; dx = 0.0015625; dy = 0.0009765625; cr = -0.8; ci = 0.156; max_iter = 256; out: i32[H, W]; rtol = 0; atol = 0
__global__ void julia_set(int* __restrict__ out, int W, int H, float x0, float y0, float dx, float dy, float cr, float ci, int max_iter)
{
    const int pxa = blockIdx.x * (2 * BX) + threadIdx.x;
    const int pxb = pxa + BX;
    const int py = blockIdx.y * BY + threadIdx.y;
    if (pxa >= W || py >= H) return;
    const float y_0 = __fadd_rn(y0, __fmul_rn((float)py, dy));
    float xa = __fadd_rn(x0, __fmul_rn((float)pxa, dx)), ya = y_0;
    float xb = __fadd_rn(x0, __fmul_rn((float)pxb, dx)), yb = y_0;
    int ita = 0, itb = 0;
    bool runa = true, runb = pxb < W;
    for (int k = 0; k < max_iter && (runa || runb); ++k) {
        if (runa) {
            const float xx = __fmul_rn(xa, xa);
            const float yy = __fmul_rn(ya, ya);
            if (__fadd_rn(xx, yy) > 4.0f) {
                runa = false;
            } else {
                const float xy = __fmul_rn(xa, ya);
                xa = __fadd_rn(__fadd_rn(xx, -yy), cr);
                ya = __fadd_rn(__fadd_rn(xy, xy), ci);
                ++ita;
            }
        }
        if (runb) {
            const float xx = __fmul_rn(xb, xb);
            const float yy = __fmul_rn(yb, yb);
            if (__fadd_rn(xx, yy) > 4.0f) {
                runb = false;
            } else {
                const float xy = __fmul_rn(xb, yb);
                xb = __fadd_rn(__fadd_rn(xx, -yy), cr);
                yb = __fadd_rn(__fadd_rn(xy, xy), ci);
                ++itb;
            }
        }
    }
    out[(size_t)py * W + pxa] = ita;
    if (pxb < W) out[(size_t)py * W + pxb] = itb;
}

extern "C" void launch_julia_set(int* out, int W, int H, float x0, float y0, float dx, float dy, float cr, float ci, int max_iter, cudaStream_t stream)
{
    dim3 block(BX, BY);
    dim3 grid((W + 2 * BX - 1) / (2 * BX), (H + BY - 1) / BY);
    julia_set<<<grid, block, 0, stream>>>(out, W, H, x0, y0, dx, dy, cr, ci, max_iter);
}
