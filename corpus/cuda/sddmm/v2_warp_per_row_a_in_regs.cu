// SDDMM: one warp per sparse row: the a row is loaded once into registers (a float2 per lane) and
// reused for the row's 32 nonzeros; each b row is one coalesced 256-byte float2 load, butterfly
// sum, lane j keeps nonzero j's result and the warp stores its 32 results with one coalesced store.
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
    const int row = blockIdx.x * WARPS + (threadIdx.x >> 5);
    if (row >= m) return;
    const float2 av = reinterpret_cast<const float2*>(a + (size_t)row * K)[lane];
    const int my_col = col[(size_t)row * NNZ_ROW + lane];
    float mine = 0.0f;
    for (int j = 0; j < NNZ_ROW; ++j) {
        const int c = __shfl_sync(FULL_MASK, my_col, j);
        const float2 bv = reinterpret_cast<const float2*>(b + (size_t)c * K)[lane];
        float p = av.x * bv.x + av.y * bv.y;
#pragma unroll
        for (int o = 16; o > 0; o >>= 1) p += __shfl_xor_sync(FULL_MASK, p, o);
        if (lane == j) mine = p;
    }
    out[(size_t)row * NNZ_ROW + lane] = mine;
}

extern "C" void launch_sddmm(const float* a, const float* b, const int* col, float* out, int m, cudaStream_t stream)
{
    sddmm<<<(m + WARPS - 1) / WARPS, THREADS, 0, stream>>>(a, b, col, out, m);
}
