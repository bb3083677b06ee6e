// Attention head reshape: one warp per input row (b, s, h) of D floats; the row index is decomposed once per warp and the lanes copy d = lane, lane + 32, ...
#include <cuda_runtime.h>

#define THREADS 256
#define WARPS   (THREADS / 32)

// kforecast: B = 8; S = 2048; H = 16; D = 64; x: f32[B, S, H, D] randn; out: f32[B, H, S, D]; rtol = 0; atol = 0
__global__ void __launch_bounds__(THREADS)
tensor_permute_0213(const float* __restrict__ x, float* __restrict__ out, int B, int S, int H, int D)
{
    const int lane = threadIdx.x & 31;
    const int row = blockIdx.x * WARPS + (threadIdx.x >> 5);
    if (row >= B * S * H) return;
    const int h = row % H;
    const int bs = row / H;
    const int s = bs % S;
    const int b = bs / S;
    const float* src = x + (size_t)row * D;
    float* dst = out + ((size_t)(b * H + h) * S + s) * D;
    for (int d = lane; d < D; d += 32) dst[d] = src[d];
}

extern "C" void launch_tensor_permute_0213(const float* x, float* out, int B, int S, int H, int D, cudaStream_t stream)
{
    const int rows = B * S * H;
    tensor_permute_0213<<<(rows + WARPS - 1) / WARPS, THREADS, 0, stream>>>(x, out, B, S, H, D);
}
