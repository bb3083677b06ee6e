// 3x3 max pooling, stride 2, padding 1, NCHW float32 (W even). Coarsened like
// the row-maximum version (4 outputs per thread down a column) and each input
// row is read with one aligned float2 per lane (columns 2*ow, 2*ow + 1); the
// left column 2*ow - 1 comes from the neighbouring lane by a shuffle.
#include <cuda_runtime.h>

#define BX 32
#define BY 8
#define RPT 4
#define S 2
#define P 1
#define FULL_MASK 0xffffffffu

// Maximum of columns 2*owc - 1 .. 2*owc + 1 of a row; the whole warp must call it.
__device__ __forceinline__ float row_max3_f2(const float* in_row, int owc, int lane)
{
    const float2 v = *reinterpret_cast<const float2*>(in_row + 2 * owc);
    float left = __shfl_up_sync(FULL_MASK, v.y, 1);
    if (lane == 0) left = owc > 0 ? in_row[2 * owc - 1] : -INFINITY;
    return fmaxf(left, fmaxf(v.x, v.y));
}

// kforecast: N = 32; C = 64; H = 112; W = 112; OH = 56; OW = 56; in: f32[N, C, H, W] randn; out: f32[N, C, OH, OW]; rtol = 0; atol = 0
__global__ void __launch_bounds__(BX * BY)
max_pool2d(const float* __restrict__ in, float* __restrict__ out, int N, int C, int H, int W, int OH, int OW)
{
    const int lane = threadIdx.x;
    const int ow = blockIdx.x * BX + lane;
    const int owc = min(ow, OW - 1);
    const int oh0 = (blockIdx.y * BY + threadIdx.y) * RPT;
    if (oh0 >= OH) return;
    const float* src = in + (size_t)blockIdx.z * H * W;
    float* dst = out + (size_t)blockIdx.z * OH * OW;
    const int htop = oh0 * S - P;
    float prev = htop >= 0 ? row_max3_f2(src + htop * W, owc, lane) : -INFINITY;
#pragma unroll
    for (int j = 0; j < RPT; ++j) {
        const int oh = oh0 + j;
        if (oh >= OH) break;
        const int h = oh * S;
        const float mid = row_max3_f2(src + h * W, owc, lane);
        const float next = h + 1 < H ? row_max3_f2(src + (h + 1) * W, owc, lane) : -INFINITY;
        if (ow < OW) dst[oh * OW + ow] = fmaxf(prev, fmaxf(mid, next));
        prev = next;
    }
}

extern "C" void launch_max_pool2d(const float* in, float* out, int N, int C, int H, int W, int OH, int OW, cudaStream_t stream)
{
    dim3 block(BX, BY);
    dim3 grid((OW + BX - 1) / BX, (OH + BY * RPT - 1) / (BY * RPT), N * C);
    max_pool2d<<<grid, block, 0, stream>>>(in, out, N, C, H, W, OH, OW);
}
