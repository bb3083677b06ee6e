// im2col 3x3 (pad 1, stride 1), NCHW float32. A 128 x 4 block stages the 6 input rows (with the zero halo) its 4 output rows need in shared memory, then every thread writes its 9 taps from shared memory with coalesced stores.
#include <cuda_runtime.h>

#define BX 128
#define ROWS 4
#define KS 3
#define PAD 1
#define TH (ROWS + KS - 1)
#define TW (BX + KS - 1)

// kforecast: N = 8; C = 64; H = 128; W = 128; in: f32[N, C, H, W] randn; cols: f32[N, C * 9, H * W]; rtol = 0; atol = 0
__global__ void __launch_bounds__(BX * ROWS)
im2col(const float* __restrict__ in, float* __restrict__ cols, int N, int C, int H, int W)
{
    __shared__ float tile[TH][TW];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int nc = blockIdx.z;
    const int w0 = blockIdx.x * BX;
    const int h0 = blockIdx.y * ROWS;
    const int HW = H * W;
    const float* src = in + (size_t)nc * HW;
    for (int e = ty * BX + tx; e < TH * TW; e += BX * ROWS) {
        const int r = e / TW;
        const int q = e - r * TW;
        const int ih = h0 + r - PAD;
        const int iw = w0 + q - PAD;
        tile[r][q] = (ih >= 0 && ih < H && iw >= 0 && iw < W) ? src[ih * W + iw] : 0.0f;
    }
    __syncthreads();
    const int w = w0 + tx;
    const int h = h0 + ty;
    if (w >= W || h >= H) return;
    float* dst = cols + (size_t)nc * KS * KS * HW + h * W + w;
#pragma unroll
    for (int kh = 0; kh < KS; ++kh)
#pragma unroll
        for (int kw = 0; kw < KS; ++kw) dst[(kh * KS + kw) * HW] = tile[ty + kh][tx + kw];
}

extern "C" void launch_im2col(const float* in, float* cols, int N, int C, int H, int W, cudaStream_t stream)
{
    dim3 block(BX, ROWS);
    dim3 grid((W + BX - 1) / BX, (H + ROWS - 1) / ROWS, N * C);
    im2col<<<grid, block, 0, stream>>>(in, cols, N, C, H, W);
}
