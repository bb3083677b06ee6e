// 3x3 average pooling, stride 2, padding 1 (divisor 9), NCHW float32. A 32 x 8
// block stages its (8*2+1) x (32*2+1) input tile, halo included, in shared
// memory (padding as zeros), then sums each 3x3 window from shared memory.
#include <cuda_runtime.h>

#define BX 32
#define BY 8
#define K 3
#define S 2
#define P 1
#define TH (BY * S + K - S)
#define TW (BX * S + K - S)

// kforecast: planes = 256; H = 512; W = 512; OH = 256; OW = 256; in: f32[planes, H, W] randn; out: f32[planes, OH, OW]; rtol = 1e-5; atol = 1e-6
__global__ void __launch_bounds__(BX * BY)
avg_pool2d(const float* __restrict__ in, float* __restrict__ out, int planes, int H, int W, int OH, int OW)
{
    __shared__ float tile[TH][TW];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const float* src = in + (size_t)blockIdx.z * H * W;
    const int h_base = blockIdx.y * BY * S - P;
    const int w_base = blockIdx.x * BX * S - P;
    for (int e = ty * BX + tx; e < TH * TW; e += BX * BY) {
        const int r = e / TW;
        const int c = e - r * TW;
        const int h = h_base + r, w = w_base + c;
        tile[r][c] = (h >= 0 && h < H && w >= 0 && w < W) ? src[h * W + w] : 0.0f;
    }
    __syncthreads();
    const int ow = blockIdx.x * BX + tx;
    const int oh = blockIdx.y * BY + ty;
    if (ow >= OW || oh >= OH) return;
    float sum = 0.0f;
#pragma unroll
    for (int kh = 0; kh < K; ++kh)
#pragma unroll
        for (int kw = 0; kw < K; ++kw) sum += tile[ty * S + kh][tx * S + kw];
    out[((size_t)blockIdx.z * OH + oh) * OW + ow] = sum * (1.0f / (K * K));
}

extern "C" void launch_avg_pool2d(const float* in, float* out, int planes, int H, int W, int OH, int OW, cudaStream_t stream)
{
    dim3 block(BX, BY);
    dim3 grid((OW + BX - 1) / BX, (OH + BY - 1) / BY, planes);
    avg_pool2d<<<grid, block, 0, stream>>>(in, out, planes, H, W, OH, OW);
}
