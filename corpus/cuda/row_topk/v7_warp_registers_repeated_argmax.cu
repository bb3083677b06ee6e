// Top-8 values of each row (descending): one warp per row holding the whole row in
// registers (32 values per lane, cols <= 1024), 8 rounds of lane max + warp shuffle max,
// the lowest winning lane removing one occurrence; lane j keeps value j.
#include <cuda_runtime.h>

#define THREADS   128
#define WARPS     (THREADS / 32)
#define TOPK      8
#define PER_LANE  32
#define FULL_MASK 0xffffffffu

// kforecast: rows = 16384; cols = 1024; x: f32[rows, cols] randn; out: f32[rows, 8]; rtol = 0; atol = 0
__global__ void __launch_bounds__(THREADS)
row_topk(const float* __restrict__ x, float* __restrict__ out, int rows, int cols)
{
    const int lane = threadIdx.x & 31;
    const int r = blockIdx.x * WARPS + (threadIdx.x >> 5);
    if (r >= rows) return;
    const float* xr = x + (size_t)r * cols;
    float v[PER_LANE];
#pragma unroll
    for (int k = 0; k < PER_LANE; ++k) {
        const int c = lane + 32 * k;
        v[k] = c < cols ? xr[c] : -INFINITY;
    }
    float mine = -INFINITY;
#pragma unroll 1
    for (int j = 0; j < TOPK; ++j) {
        float lm = v[0];
#pragma unroll
        for (int k = 1; k < PER_LANE; ++k) lm = fmaxf(lm, v[k]);
        float m = lm;
#pragma unroll
        for (int o = 16; o > 0; o >>= 1) m = fmaxf(m, __shfl_xor_sync(FULL_MASK, m, o));
        const int winner = __ffs(__ballot_sync(FULL_MASK, lm == m)) - 1;
        if (lane == j) mine = m;
        if (lane == winner) {
            bool hit = false;
#pragma unroll
            for (int k = 0; k < PER_LANE; ++k) {
                const bool e = !hit && v[k] == m;
                v[k] = e ? -INFINITY : v[k];
                hit = hit || e;
            }
        }
    }
    if (lane < TOPK) out[(size_t)r * TOPK + lane] = mine;
}

extern "C" void launch_row_topk(const float* x, float* out, int rows, int cols, cudaStream_t stream)
{
    row_topk<<<(rows + WARPS - 1) / WARPS, THREADS, 0, stream>>>(x, out, rows, cols);
}
