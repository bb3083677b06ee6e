// Affine warp (2x3 matrix maps output pixel to source point), bilinear, zero outside. Naive:
// flat 1-D grid, one thread per pixel, x and y by modulo and division, full transform per pixel.
#include <cuda_runtime.h>
#include <math.h>

#define THREADS 256

// Source pixel (y, x), zero outside the image.
__device__ __forceinline__ float tap(const float* src, int y, int x, int H, int W)
{
    return (x >= 0 && x < W && y >= 0 && y < H) ? src[y * W + x] : 0.0f;
}

// Bilinear sample of the source at (sy, sx), pixels outside the image count as zero.
__device__ __forceinline__ float bilinear(const float* src, float sx, float sy, int H, int W)
{
    const float fx0 = floorf(sx), fy0 = floorf(sy);
    const int x0 = (int)fx0, y0 = (int)fy0;
    const float fx = sx - fx0, fy = sy - fy0;
    const float v00 = tap(src, y0, x0, H, W), v01 = tap(src, y0, x0 + 1, H, W);
    const float v10 = tap(src, y0 + 1, x0, H, W), v11 = tap(src, y0 + 1, x0 + 1, H, W);
    return (1.0f - fy) * ((1.0f - fx) * v00 + fx * v01) + fy * ((1.0f - fx) * v10 + fx * v11);
}

// kforecast: H = 4096; W = 4096; a00 = 0.9; a01 = -0.15; a02 = 512.0; a10 = 0.15; a11 = 0.9; a12 = -102.4; src: f32[H, W] randn; dst: f32[H, W]; rtol = 1e-3; atol = 2e-2
__global__ void warp_affine(const float* __restrict__ src, float* __restrict__ dst, int H, int W, float a00, float a01,
                            float a02, float a10, float a11, float a12)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= H * W) return;
    const int x = i % W;
    const int y = i / W;
    const float sx = a00 * x + a01 * y + a02;
    const float sy = a10 * x + a11 * y + a12;
    dst[i] = bilinear(src, sx, sy, H, W);
}

extern "C" void launch_warp_affine(const float* src, float* dst, int H, int W, float a00, float a01, float a02,
                                   float a10, float a11, float a12, cudaStream_t stream)
{
    warp_affine<<<(H * W + THREADS - 1) / THREADS, THREADS, 0, stream>>>(src, dst, H, W, a00, a01, a02, a10, a11, a12);
}
