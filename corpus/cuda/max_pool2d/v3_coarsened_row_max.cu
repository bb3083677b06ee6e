// 3x3 max pooling, stride 2, padding 1, NCHW float32. Thread coarsening: each
// thread computes 4 outputs down a column; it walks the input rows once taking
// the 3-wide row maximum, and the row shared by two vertically adjacent windows
// is kept in a register instead of being loaded twice.
#include <cuda_runtime.h>

#define BX 32
#define BY 8
#define RPT 4
#define S 2
#define P 1

// Maximum of in_row[w0 .. w0 + 2] clipped to [0, W); the centre w0 + 1 is always inside.
__device__ __forceinline__ float row_max3(const float* in_row, int w0, int W)
{
    float m = in_row[w0 + 1];
    if (w0 >= 0) m = fmaxf(m, in_row[w0]);
    if (w0 + 2 < W) m = fmaxf(m, in_row[w0 + 2]);
    return m;
}

// kforecast: N = 32; C = 64; H = 112; W = 112; OH = 56; OW = 56; in: f32[N, C, H, W] randn; out: f32[N, C, OH, OW]; rtol = 0; atol = 0
__global__ void max_pool2d(const float* __restrict__ in, float* __restrict__ out, int N, int C, int H, int W, int OH, int OW)
{
    const int ow = blockIdx.x * BX + threadIdx.x;
    const int oh0 = (blockIdx.y * BY + threadIdx.y) * RPT;
    if (ow >= OW || oh0 >= OH) return;
    const float* src = in + (size_t)blockIdx.z * H * W;
    float* dst = out + (size_t)blockIdx.z * OH * OW;
    const int w0 = ow * S - P;
    const int htop = oh0 * S - P;
    float prev = htop >= 0 ? row_max3(src + htop * W, w0, W) : -INFINITY;
#pragma unroll
    for (int j = 0; j < RPT; ++j) {
        const int oh = oh0 + j;
        if (oh >= OH) break;
        const int h = oh * S;
        const float mid = row_max3(src + h * W, w0, W);
        const float next = h + 1 < H ? row_max3(src + (h + 1) * W, w0, W) : -INFINITY;
        dst[oh * OW + ow] = fmaxf(prev, fmaxf(mid, next));
        prev = next;
    }
}

extern "C" void launch_max_pool2d(const float* in, float* out, int N, int C, int H, int W, int OH, int OW, cudaStream_t stream)
{
    dim3 block(BX, BY);
    dim3 grid((OW + BX - 1) / BX, (OH + BY * RPT - 1) / (BY * RPT), N * C);
    max_pool2d<<<grid, block, 0, stream>>>(in, out, N, C, H, W, OH, OW);
}
