// Orthonormal 8x8 DCT-II of every 8x8 block: one thread per output coefficient (16x16 blocks); the 64
// scaled cosines c(u) cos((2x+1)u pi/16) are computed once per block into a shared table, then
// 64 products with two table reads each, image read from global memory.
#include <cuda_runtime.h>
#include <math.h>

#define BX 16
#define BY 16
#define PI_F 3.14159265358979f

// kforecast: H = 4096; W = 4096; in: f32[H, W] randn; out: f32[H, W]; rtol = 1e-3; atol = 1e-3
__global__ void __launch_bounds__(BX * BY)
dct8x8(const float* __restrict__ in, float* __restrict__ out, int H, int W)
{
    __shared__ float ctab[8][8];  // ctab[k][x] = c(k) cos((2x+1) k pi / 16)
    const int tid = threadIdx.y * BX + threadIdx.x;
    if (tid < 64) {
        const int k = tid >> 3, x = tid & 7;
        ctab[k][x] = (k == 0 ? 0.35355339f : 0.5f) * cosf((2 * x + 1) * k * PI_F / 16.0f);
    }
    __syncthreads();
    const int gx = blockIdx.x * BX + threadIdx.x;
    const int gy = blockIdx.y * BY + threadIdx.y;
    if (gx >= W || gy >= H) return;
    const int v = gx & 7, u = gy & 7;
    const float* blk = in + (size_t)(gy - u) * W + (gx - v);
    float acc = 0.0f;
    for (int y = 0; y < 8; ++y)
        for (int x = 0; x < 8; ++x) acc += blk[(size_t)y * W + x] * ctab[u][y] * ctab[v][x];
    out[(size_t)gy * W + gx] = acc;
}

extern "C" void launch_dct8x8(const float* in, float* out, int H, int W, cudaStream_t stream)
{
    dim3 block(BX, BY);
    dim3 grid((W + BX - 1) / BX, (H + BY - 1) / BY);
    dct8x8<<<grid, block, 0, stream>>>(in, out, H, W);
}
