// 3x3 max pooling, stride 2, padding 1, NCHW float32, 2-D grid with threadIdx.x
// mapped to the output row: a warp reads 32 input rows 896 bytes apart per
// access and writes 32 output rows (uncoalesced).
#include <cuda_runtime.h>

#define BX 32
#define BY 8
#define K 3
#define S 2
#define P 1

// kforecast: N = 32; C = 64; H = 112; W = 112; OH = 56; OW = 56; in: f32[N, C, H, W] randn; out: f32[N, C, OH, OW]; rtol = 0; atol = 0
__global__ void max_pool2d(const float* __restrict__ in, float* __restrict__ out, int N, int C, int H, int W, int OH, int OW)
{
    const int oh = blockIdx.x * BX + threadIdx.x;
    const int ow = blockIdx.y * BY + threadIdx.y;
    if (ow >= OW || oh >= OH) return;
    const float* src = in + (size_t)blockIdx.z * H * W;
    const int h0 = oh * S - P;
    const int w0 = ow * S - P;
    float m = -INFINITY;
#pragma unroll
    for (int kh = 0; kh < K; ++kh) {
        const int h = h0 + kh;
        if (h < 0 || h >= H) continue;
#pragma unroll
        for (int kw = 0; kw < K; ++kw) {
            const int w = w0 + kw;
            if (w < 0 || w >= W) continue;
            m = fmaxf(m, src[h * W + w]);
        }
    }
    out[((size_t)blockIdx.z * OH + oh) * OW + ow] = m;
}

extern "C" void launch_max_pool2d(const float* in, float* out, int N, int C, int H, int W, int OH, int OW, cudaStream_t stream)
{
    dim3 block(BX, BY);
    dim3 grid((OH + BX - 1) / BX, (OW + BY - 1) / BY, N * C);
    max_pool2d<<<grid, block, 0, stream>>>(in, out, N, C, H, W, OH, OW);
}
