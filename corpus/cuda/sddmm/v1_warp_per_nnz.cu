// SDDMM: one warp per nonzero, lanes over k (two coalesced 128-byte loads of each row), shuffle sum.
#include <cuda_runtime.h>

#define K         64
#define NNZ_ROW   32
#define THREADS   256
#define WARPS     (THREADS / 32)
#define FULL_MASK 0xffffffffu

// kforecast: m = 32768; n = 32768; nnz = 32 * m; a: f32[m, 64] randn; b: f32[n, 64] randn; col: i32[nnz] randint(0,32768); out: f32[nnz]; rtol = 1e-3; atol = 1e-3
__global__ void sddmm(const float* __restrict__ a, const float* __restrict__ b, const int* __restrict__ col,
                      float* __restrict__ out, int m)
{
    const int lane = threadIdx.x & 31;
    const int e = blockIdx.x * WARPS + (threadIdx.x >> 5);
    if (e >= m * NNZ_ROW) return;
    const float* ar = a + (size_t)(e / NNZ_ROW) * K;
    const float* br = b + (size_t)col[e] * K;
    float s = ar[lane] * br[lane] + ar[lane + 32] * br[lane + 32];
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) s += __shfl_down_sync(FULL_MASK, s, o);
    if (lane == 0) out[e] = s;
}

extern "C" void launch_sddmm(const float* a, const float* b, const int* col, float* out, int m, cudaStream_t stream)
{
    const int nnz = m * NNZ_ROW;
    sddmm<<<(nnz + WARPS - 1) / WARPS, THREADS, 0, stream>>>(a, b, col, out, m);
}
