// 7x7 Gaussian blur (sigma 1.5, clamped edges), separable in shared memory with 4 outputs per
// thread along x: a 32x8 block covers 128 x 8 pixels, stages the clamped 14 x 134 tile, writes
// 14 x 128 horizontal sums, and each thread does the vertical pass for x = tx + 32p, p < 4.
#include <cuda_runtime.h>

#define BX 32
#define BY 8
#define PX 4
#define OW (BX * PX)
#define R  3
#define K  (2 * R + 1)
#define TW (OW + 2 * R)
#define TH (BY + 2 * R)

__constant__ float c_g[7] = {0.036632847f, 0.111280762f, 0.216745317f, 0.270682156f, 0.216745317f, 0.111280762f, 0.036632847f};
// kforecast: C = 3; H = 4096; W = 4096; in: f32[C, H, W] randn; out: f32[C, H, W]; rtol = 1e-4; atol = 1e-5
__global__ void __launch_bounds__(BX * BY)
gaussian_blur7x7(const float* __restrict__ in, float* __restrict__ out, int C, int H, int W)
{
    __shared__ float tile[TH][TW];
    __shared__ float hsum[TH][OW];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int tid = ty * BX + tx;
    const float* src = in + (size_t)blockIdx.z * H * W;
    const int x0 = blockIdx.x * OW - R;
    const int y0 = blockIdx.y * BY - R;
    for (int e = tid; e < TH * TW; e += BX * BY) {
        const int r = e / TW;
        const int c = e - r * TW;
        const int yy = min(max(y0 + r, 0), H - 1);
        const int xx = min(max(x0 + c, 0), W - 1);
        tile[r][c] = src[yy * W + xx];
    }
    __syncthreads();
    for (int e = tid; e < TH * OW; e += BX * BY) {
        const int r = e / OW;
        const int c = e % OW;
        float h = 0.0f;
#pragma unroll
        for (int k = 0; k < K; ++k) h += c_g[k] * tile[r][c + k];
        hsum[r][c] = h;
    }
    __syncthreads();
    const int y = blockIdx.y * BY + ty;
    if (y >= H) return;
    float* dst = out + (size_t)blockIdx.z * H * W + (size_t)y * W;
#pragma unroll
    for (int p = 0; p < PX; ++p) {
        const int c = tx + p * BX;
        const int x = blockIdx.x * OW + c;
        float s = 0.0f;
#pragma unroll
        for (int k = 0; k < K; ++k) s += c_g[k] * hsum[ty + k][c];
        if (x < W) dst[x] = s;
    }
}

extern "C" void launch_gaussian_blur7x7(const float* in, float* out, int C, int H, int W, cudaStream_t stream)
{
    dim3 block(BX, BY);
    dim3 grid((W + OW - 1) / OW, (H + BY - 1) / BY, C);
    gaussian_blur7x7<<<grid, block, 0, stream>>>(in, out, C, H, W);
}
