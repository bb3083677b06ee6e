// Attention head reshape (D % 4 == 0): 16 lanes per (b, s, h) row copying float4s, as before but with 128-thread blocks instead of 256 (block-size near-tie).
#include <cuda_runtime.h>

#define THREADS 128
#define LANES   16
#define ROWS_PER_BLOCK (THREADS / LANES)

// kforecast: B = 8; S = 2048; H = 16; D = 64; x: f32[B, S, H, D] randn; out: f32[B, H, S, D]; rtol = 0; atol = 0
__global__ void __launch_bounds__(THREADS)
tensor_permute_0213(const float* __restrict__ x, float* __restrict__ out, int B, int S, int H, int D)
{
    const int sub = threadIdx.x % LANES;
    const int row = blockIdx.x * ROWS_PER_BLOCK + threadIdx.x / LANES;
    if (row >= B * S * H) return;
    const int h = row % H;
    const int bs = row / H;
    const int s = bs % S;
    const int b = bs / S;
    const int D4 = D >> 2;
    const float4* src = reinterpret_cast<const float4*>(x) + (size_t)row * D4;
    float4* dst = reinterpret_cast<float4*>(out) + ((size_t)(b * H + h) * S + s) * D4;
    for (int d4 = sub; d4 < D4; d4 += LANES) dst[d4] = src[d4];
}

extern "C" void launch_tensor_permute_0213(const float* x, float* out, int B, int S, int H, int D, cudaStream_t stream)
{
    const int rows = B * S * H;
    tensor_permute_0213<<<(rows + ROWS_PER_BLOCK - 1) / ROWS_PER_BLOCK, THREADS, 0, stream>>>(x, out, B, S, H, D);
}
