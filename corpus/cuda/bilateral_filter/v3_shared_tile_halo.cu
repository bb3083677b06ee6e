// 5x5 bilateral filter: a 32 x 8 block stages its (8+4) x (32+4) input tile with a 2-pixel
// clamped halo in shared memory, then reads the 25 taps from shared; spatial table, __expf.
#include <cuda_runtime.h>

#define BX 32
#define BY 8
#define R  2
#define K  (2 * R + 1)
#define TW (BX + 2 * R)
#define TH (BY + 2 * R)

// kforecast: H = 4096; W = 4096; sigma_s = 2.0; sigma_r = 0.1; in: f32[H, W] rand; out: f32[H, W]; rtol = 1e-4; atol = 1e-5
__global__ void __launch_bounds__(BX * BY)
bilateral_filter(const float* __restrict__ in, float* __restrict__ out, int H, int W, float sigma_s, float sigma_r)
{
    __shared__ float tile[TH][TW];
    __shared__ float ws[K * K];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int tid = ty * BX + tx;
    if (tid < K * K) {
        const int dy = tid / K - R, dx = tid % K - R;
        ws[tid] = expf(-(float)(dx * dx + dy * dy) / (2.0f * sigma_s * sigma_s));
    }
    const int x0 = blockIdx.x * BX - R;
    const int y0 = blockIdx.y * BY - R;
    for (int e = tid; e < TH * TW; e += BX * BY) {
        const int r = e / TW;
        const int c = e - r * TW;
        const int yy = min(max(y0 + r, 0), H - 1);
        const int xx = min(max(x0 + c, 0), W - 1);
        tile[r][c] = in[yy * W + xx];
    }
    __syncthreads();
    const int x = blockIdx.x * BX + tx;
    const int y = blockIdx.y * BY + ty;
    if (x >= W || y >= H) return;
    const float inv_r = 1.0f / (2.0f * sigma_r * sigma_r);
    const float center = tile[ty + R][tx + R];
    float num = 0.0f, den = 0.0f;
#pragma unroll
    for (int i = 0; i < K; ++i) {
#pragma unroll
        for (int j = 0; j < K; ++j) {
            const float v = tile[ty + i][tx + j];
            const float d = v - center;
            const float w = ws[i * K + j] * __expf(-d * d * inv_r);
            num += w * v;
            den += w;
        }
    }
    out[y * W + x] = __fdividef(num, den);
}

extern "C" void launch_bilateral_filter(const float* in, float* out, int H, int W, float sigma_s, float sigma_r,
                                        cudaStream_t stream)
{
    dim3 block(BX, BY);
    dim3 grid((W + BX - 1) / BX, (H + BY - 1) / BY);
    bilateral_filter<<<grid, block, 0, stream>>>(in, out, H, W, sigma_s, sigma_r);
}
