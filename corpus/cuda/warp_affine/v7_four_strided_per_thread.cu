// Affine warp, bilinear, zero outside: each thread computes 4 pixels 32 columns apart (warp
// stores stay coalesced), the source point advancing by 32 * (a00, a10) between them.
#include <cuda_runtime.h>
#include <math.h>

#define BX 32
#define BY 8
#define PX 4

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
__global__ void __launch_bounds__(BX * BY)
warp_affine(const float* __restrict__ src, float* __restrict__ dst, int H, int W, float a00, float a01, float a02,
            float a10, float a11, float a12)
{
    const int x = blockIdx.x * BX * PX + threadIdx.x;
    const int y = blockIdx.y * BY + threadIdx.y;
    if (y >= H) return;
    const float step_x = a00 * BX, step_y = a10 * BX;
    float sx = fmaf(a00, (float)x, fmaf(a01, (float)y, a02));
    float sy = fmaf(a10, (float)x, fmaf(a11, (float)y, a12));
    float* o = dst + y * W;
#pragma unroll
    for (int k = 0; k < PX; ++k) {
        if (x + k * BX < W) o[x + k * BX] = bilinear(src, sx, sy, H, W);
        sx += step_x;
        sy += step_y;
    }
}

extern "C" void launch_warp_affine(const float* src, float* dst, int H, int W, float a00, float a01, float a02,
                                   float a10, float a11, float a12, cudaStream_t stream)
{
    dim3 block(BX, BY);
    dim3 grid((W + BX * PX - 1) / (BX * PX), (H + BY - 1) / BY);
    warp_affine<<<grid, block, 0, stream>>>(src, dst, H, W, a00, a01, a02, a10, a11, a12);
}
