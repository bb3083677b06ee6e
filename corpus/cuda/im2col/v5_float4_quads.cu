// im2col 3x3 (pad 1, stride 1), NCHW float32 (W a multiple of 4). Each thread produces 4 consecutive outputs along w: per input row one aligned float4 load plus the two neighbours, and one float4 store per tap; 32 x 4 blocks over (w/4, h).
#include <cuda_runtime.h>

#define BX 32
#define BY 4
#define KS 3
#define PAD 1

// kforecast: N = 8; C = 64; H = 128; W = 128; in: f32[N, C, H, W] randn; cols: f32[N, C * 9, H * W]; rtol = 0; atol = 0
__global__ void __launch_bounds__(BX * BY)
im2col(const float* __restrict__ in, float* __restrict__ cols, int N, int C, int H, int W)
{
    const int w0 = (blockIdx.x * BX + threadIdx.x) * 4;
    const int h = blockIdx.y * BY + threadIdx.y;
    const int nc = blockIdx.z;
    if (w0 >= W || h >= H) return;
    const int HW = H * W;
    const float* src = in + (size_t)nc * HW;
    float* dst = cols + (size_t)nc * KS * KS * HW + h * W + w0;
#pragma unroll
    for (int kh = 0; kh < KS; ++kh) {
        const int ih = h + kh - PAD;
        float a[6];
        if (ih >= 0 && ih < H) {
            const float* row = src + ih * W;
            const float4 m = *reinterpret_cast<const float4*>(row + w0);
            a[0] = w0 > 0 ? row[w0 - 1] : 0.0f;
            a[1] = m.x; a[2] = m.y; a[3] = m.z; a[4] = m.w;
            a[5] = w0 + 4 < W ? row[w0 + 4] : 0.0f;
        } else {
#pragma unroll
            for (int j = 0; j < 6; ++j) a[j] = 0.0f;
        }
#pragma unroll
        for (int kw = 0; kw < KS; ++kw)
            *reinterpret_cast<float4*>(dst + (kh * KS + kw) * HW) = make_float4(a[kw], a[kw + 1], a[kw + 2], a[kw + 3]);
    }
}

extern "C" void launch_im2col(const float* in, float* cols, int N, int C, int H, int W, cudaStream_t stream)
{
    dim3 block(BX, BY);
    dim3 grid((W / 4 + BX - 1) / BX, (H + BY - 1) / BY, N * C);
    im2col<<<grid, block, 0, stream>>>(in, cols, N, C, H, W);
}
