// Sobel edge magnitude (zero padding): a 32 x 8 block stages a (32+2) x (32+2) tile and each thread
// produces 4 outputs down a column from 6 separable row terms (difference and smoothing) computed once.
#include <cuda_runtime.h>
#include <math.h>

#define BX   32
#define BY   8
#define ROWS 4
#define OTH  (BY * ROWS)
#define TW   (BX + 2)
#define TH   (OTH + 2)

// kforecast: H = 8192; W = 8192; in: f32[H, W] randn; out: f32[H, W]; rtol = 1e-4; atol = 1e-4
__global__ void __launch_bounds__(BX * BY)
sobel(const float* __restrict__ in, float* __restrict__ out, int H, int W)
{
    __shared__ float tile[TH][TW];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int tid = ty * BX + tx;
    const int x0 = blockIdx.x * BX - 1;
    const int y0 = blockIdx.y * OTH - 1;
    for (int e = tid; e < TH * TW; e += BX * BY) {
        const int r = e / TW;
        const int c = e - r * TW;
        const int yy = y0 + r, xx = x0 + c;
        tile[r][c] = (yy >= 0 && yy < H && xx >= 0 && xx < W) ? in[yy * W + xx] : 0.0f;
    }
    __syncthreads();
    const int x = blockIdx.x * BX + tx;
    if (x >= W) return;
    // Row terms: d = right - left (for gx), s = left + 2 centre + right (for gy).
    float d[ROWS + 2], s[ROWS + 2];
#pragma unroll
    for (int i = 0; i < ROWS + 2; ++i) {
        const float* t = &tile[ty * ROWS + i][tx];
        d[i] = t[2] - t[0];
        s[i] = t[0] + 2.0f * t[1] + t[2];
    }
    const int ybase = blockIdx.y * OTH + ty * ROWS;
#pragma unroll
    for (int j = 0; j < ROWS; ++j) {
        const int y = ybase + j;
        if (y >= H) break;
        const float gx = d[j] + 2.0f * d[j + 1] + d[j + 2];
        const float gy = s[j + 2] - s[j];
        out[y * W + x] = sqrtf(gx * gx + gy * gy);
    }
}

extern "C" void launch_sobel(const float* in, float* out, int H, int W, cudaStream_t stream)
{
    dim3 block(BX, BY);
    dim3 grid((W + BX - 1) / BX, (H + OTH - 1) / OTH);
    sobel<<<grid, block, 0, stream>>>(in, out, H, W);
}
