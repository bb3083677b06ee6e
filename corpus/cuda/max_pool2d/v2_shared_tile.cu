// 3x3 max pooling, stride 2, padding 1, NCHW float32. A 32 x 8 block stages the
// (8*2+1) x (32*2+1) input tile it needs in shared memory (padding as -inf),
// then every thread takes its 3x3 maximum from shared memory.
#include <cuda_runtime.h>

#define BX 32
#define BY 8
#define K 3
#define S 2
#define P 1
#define TH (BY * S + K - S)
#define TW (BX * S + K - S)

// kforecast: N = 32; C = 64; H = 112; W = 112; OH = 56; OW = 56; in: f32[N, C, H, W] randn; out: f32[N, C, OH, OW]; rtol = 0; atol = 0
__global__ void __launch_bounds__(BX * BY)
max_pool2d(const float* __restrict__ in, float* __restrict__ out, int N, int C, int H, int W, int OH, int OW)
{
    __shared__ float tile[TH][TW];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int tid = ty * BX + tx;
    const float* src = in + (size_t)blockIdx.z * H * W;
    const int hb = blockIdx.y * BY * S - P;
    const int wb = blockIdx.x * BX * S - P;
    for (int e = tid; e < TH * TW; e += BX * BY) {
        const int r = e / TW;
        const int c = e - r * TW;
        const int h = hb + r, w = wb + c;
        tile[r][c] = (h >= 0 && h < H && w >= 0 && w < W) ? src[h * W + w] : -INFINITY;
    }
    __syncthreads();
    const int ow = blockIdx.x * BX + tx;
    const int oh = blockIdx.y * BY + ty;
    if (ow >= OW || oh >= OH) return;
    float m = -INFINITY;
#pragma unroll
    for (int kh = 0; kh < K; ++kh)
#pragma unroll
        for (int kw = 0; kw < K; ++kw) m = fmaxf(m, tile[ty * S + kh][tx * S + kw]);
    out[((size_t)blockIdx.z * OH + oh) * OW + ow] = m;
}

extern "C" void launch_max_pool2d(const float* in, float* out, int N, int C, int H, int W, int OH, int OW, cudaStream_t stream)
{
    dim3 block(BX, BY);
    dim3 grid((OW + BX - 1) / BX, (OH + BY - 1) / BY, N * C);
    max_pool2d<<<grid, block, 0, stream>>>(in, out, N, C, H, W, OH, OW);
}
