// Julia set escape-time counts, z <- z^2 + c from z0 = pixel, up to max_iter
// iterations (explicit __fmul_rn/__fadd_rn: no FMA contraction, so every version
// does bit-identical arithmetic per pixel).
// One thread per pixel on a flat 1-D grid of tiny 32-thread blocks (one warp per
// block, so the per-SM block limit caps occupancy at half).
#include <cuda_runtime.h>

#define THREADS 32

// kforecast: W = 2048; H = 2048; x0 = -1.6; y0 = -1.0; dx = 0.0015625; dy = 0.0009765625; cr = -0.8; ci = 0.156; max_iter = 256; out: i32[H, W]; rtol = 0; atol = 0
__global__ void julia_set(int* __restrict__ out, int W, int H, float x0, float y0, float dx, float dy, float cr, float ci, int max_iter)
{
    const int i = blockIdx.x * THREADS + threadIdx.x;
    if (i >= W * H) return;
    const int px = i % W;
    const int py = i / W;
    float x = __fadd_rn(x0, __fmul_rn((float)px, dx));
    float y = __fadd_rn(y0, __fmul_rn((float)py, dy));
    int it = 0;
    while (it < max_iter) {
        const float xx = __fmul_rn(x, x);
        const float yy = __fmul_rn(y, y);
        if (__fadd_rn(xx, yy) > 4.0f) break;
        const float xy = __fmul_rn(x, y);
        x = __fadd_rn(__fadd_rn(xx, -yy), cr);
        y = __fadd_rn(__fadd_rn(xy, xy), ci);
        ++it;
    }
    out[i] = it;
}

extern "C" void launch_julia_set(int* out, int W, int H, float x0, float y0, float dx, float dy, float cr, float ci, int max_iter, cudaStream_t stream)
{
    const int total = W * H;
    julia_set<<<(total + THREADS - 1) / THREADS, THREADS, 0, stream>>>(out, W, H, x0, y0, dx, dy, cr, ci, max_iter);
}
