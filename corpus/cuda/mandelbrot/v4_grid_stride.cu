// Mandelbrot escape-time counts (same per-pixel fmaf arithmetic as v0). Fixed grid
// (8 blocks of 256 per SM) with a grid-stride loop over the flattened pixels.
#include <cuda_runtime.h>

#define THREADS 256
#define NUM_SMS 132

// kforecast: W = 2048; H = 2048; x0 = -2.0; y0 = -1.25; dx = 0.00125; dy = 0.00125; max_iter = 256; out: i32[H, W]; rtol = 0; atol = 0
__global__ void mandelbrot(int* __restrict__ out, int W, int H, float x0, float y0, float dx, float dy, int max_iter)
{
    const int total = W * H;
    for (int i = blockIdx.x * THREADS + threadIdx.x; i < total; i += gridDim.x * THREADS) {
        const int px = i % W;
        const int py = i / W;
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
        out[i] = it;
    }
}

extern "C" void launch_mandelbrot(int* out, int W, int H, float x0, float y0, float dx, float dy, int max_iter, cudaStream_t stream)
{
    mandelbrot<<<NUM_SMS * 8, THREADS, 0, stream>>>(out, W, H, x0, y0, dx, dy, max_iter);
}
