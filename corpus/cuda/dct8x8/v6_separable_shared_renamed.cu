// Orthonormal 8x8 DCT-II of every 8x8 block: v3 rewritten (near-tie): same 32x8 block, strip in shared
// memory, row then column pass with a shared cosine table; renamed variables, the image load issued
// before the table is built, block-relative index arithmetic.
#include <cuda_runtime.h>
#include <math.h>

#define TW 32
#define TH 8
#define PI_F 3.14159265358979f

// kforecast: H = 4096; W = 4096; in: f32[H, W] randn; out: f32[H, W]; rtol = 1e-3; atol = 1e-3
__global__ void __launch_bounds__(TW * TH)
dct8x8(const float* __restrict__ in, float* __restrict__ out, int H, int W)
{
    __shared__ float basis[8][8];  // basis[n][freq] = c(freq) cos((2n+1) freq pi / 16)
    __shared__ float pix[TH][TW];
    __shared__ float rowc[TH][TW];
    const int col = threadIdx.x, row = threadIdx.y;
    const int px = blockIdx.x * TW + col;
    const int py = blockIdx.y * TH + row;
    const bool inside = py < H && px < W;
    pix[row][col] = inside ? in[(size_t)py * W + px] : 0.0f;
    const int lin = row * TW + col;
    if (lin < 64) {
        const int n = lin / 8, freq = lin % 8;
        basis[n][freq] = (freq == 0 ? 0.35355339f : 0.5f) * cosf((2 * n + 1) * freq * PI_F / 16.0f);
    }
    __syncthreads();
    const int freq_x = col % 8;
    const float* seg = &pix[row][col - freq_x];
    float h = 0.0f;
#pragma unroll
    for (int n = 0; n < 8; ++n) h += basis[n][freq_x] * seg[n];
    rowc[row][col] = h;
    __syncthreads();
    float coef = 0.0f;
#pragma unroll
    for (int n = 0; n < 8; ++n) coef += basis[n][row] * rowc[n][col];
    if (inside) out[(size_t)py * W + px] = coef;
}

extern "C" void launch_dct8x8(const float* in, float* out, int H, int W, cudaStream_t stream)
{
    dim3 block(TW, TH);
    dim3 grid((W + TW - 1) / TW, (H + TH - 1) / TH);
    dct8x8<<<grid, block, 0, stream>>>(in, out, H, W);
}
