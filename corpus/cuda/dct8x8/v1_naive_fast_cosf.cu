// Orthonormal 8x8 DCT-II of every 8x8 block, naive as v0 (one thread per coefficient, 64 products from
// global memory) with the cosines computed by the __cosf fast intrinsic instead of cosf.
#include <cuda_runtime.h>
#include <math.h>

#define BX 16
#define BY 16
#define PI_F 3.14159265358979f

// kforecast: H = 4096; W = 4096; in: f32[H, W] randn; out: f32[H, W]; rtol = 1e-3; atol = 1e-3
__global__ void dct8x8(const float* __restrict__ in, float* __restrict__ out, int H, int W)
{
    const int gx = blockIdx.x * BX + threadIdx.x;
    const int gy = blockIdx.y * BY + threadIdx.y;
    if (gx >= W || gy >= H) return;
    const int v = gx & 7, u = gy & 7;
    const float* blk = in + (size_t)(gy - u) * W + (gx - v);
    float acc = 0.0f;
    for (int y = 0; y < 8; ++y)
        for (int x = 0; x < 8; ++x)
            acc += blk[(size_t)y * W + x] * __cosf((2 * y + 1) * u * PI_F / 16.0f) * __cosf((2 * x + 1) * v * PI_F / 16.0f);
    const float cu = u == 0 ? 0.35355339f : 0.5f;
    const float cv = v == 0 ? 0.35355339f : 0.5f;
    out[(size_t)gy * W + gx] = cu * cv * acc;
}

extern "C" void launch_dct8x8(const float* in, float* out, int H, int W, cudaStream_t stream)
{
    dim3 block(BX, BY);
    dim3 grid((W + BX - 1) / BX, (H + BY - 1) / BY);
    dct8x8<<<grid, block, 0, stream>>>(in, out, H, W);
}
