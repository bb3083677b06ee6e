// 3x3 average pooling, stride 2, padding 1 (divisor 9), NCHW float32. 32 x 8
// blocks over (ow, oh) with blockIdx.z = plane: no division, a warp covers 32
// outputs of one row, unrolled 3x3 window.
#include <cuda_runtime.h>

#define BX 32
#define BY 8
#define K 3
#define S 2
#define P 1

// kforecast: planes = 256; H = 512; W = 512; OH = 256; OW = 256; in: f32[planes, H, W] randn; out: f32[planes, OH, OW]; rtol = 1e-5; atol = 1e-6
__global__ void avg_pool2d(const float* __restrict__ in, float* __restrict__ out, int planes, int H, int W, int OH, int OW)
{
    const int ow = blockIdx.x * BX + threadIdx.x;
    const int oh = blockIdx.y * BY + threadIdx.y;
    if (ow >= OW || oh >= OH) return;
    const float* src = in + (size_t)blockIdx.z * H * W;
    float sum = 0.0f;
#pragma unroll
    for (int kh = 0; kh < K; ++kh) {
        const int h = oh * S - P + kh;
        if (h < 0 || h >= H) continue;
#pragma unroll
        for (int kw = 0; kw < K; ++kw) {
            const int w = ow * S - P + kw;
            if (w < 0 || w >= W) continue;
            sum += src[h * W + w];
        }
    }
    out[((size_t)blockIdx.z * OH + oh) * OW + ow] = sum * (1.0f / (K * K));
}

extern "C" void launch_avg_pool2d(const float* in, float* out, int planes, int H, int W, int OH, int OW, cudaStream_t stream)
{
    dim3 block(BX, BY);
    dim3 grid((OW + BX - 1) / BX, (OH + BY - 1) / BY, planes);
    avg_pool2d<<<grid, block, 0, stream>>>(in, out, planes, H, W, OH, OW);
}
