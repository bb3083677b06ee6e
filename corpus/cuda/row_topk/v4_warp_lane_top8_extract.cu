// Top-8 values of each row (descending): one warp per row, each lane keeps the top-8 of
// its strided elements in registers (coalesced loads), then 8 rounds of warp max over
// the lanes' heads, the winning lane popping its head; lane j writes value j.
#include <cuda_runtime.h>

#define THREADS   128
#define WARPS     (THREADS / 32)
#define TOPK      8
#define FULL_MASK 0xffffffffu

// Inserts v into t (sorted descending, register-resident: compile-time indices only).
__device__ __forceinline__ void insert_top(float (&t)[TOPK], float v)
{
    if (v > t[TOPK - 1]) {
        t[TOPK - 1] = v;
#pragma unroll
        for (int j = TOPK - 1; j > 0; --j) {
            const float hi = fmaxf(t[j - 1], t[j]), lo = fminf(t[j - 1], t[j]);
            t[j - 1] = hi;
            t[j] = lo;
        }
    }
}

// kforecast: rows = 16384; cols = 1024; x: f32[rows, cols] randn; out: f32[rows, 8]; rtol = 0; atol = 0
__global__ void __launch_bounds__(THREADS)
row_topk(const float* __restrict__ x, float* __restrict__ out, int rows, int cols)
{
    const int lane = threadIdx.x & 31;
    const int r = blockIdx.x * WARPS + (threadIdx.x >> 5);
    if (r >= rows) return;
    const float* xr = x + (size_t)r * cols;
    float t[TOPK];
#pragma unroll
    for (int j = 0; j < TOPK; ++j) t[j] = -INFINITY;
    for (int c = lane; c < cols; c += 32) insert_top(t, xr[c]);
    float mine = -INFINITY;
#pragma unroll
    for (int j = 0; j < TOPK; ++j) {
        float m = t[0];
#pragma unroll
        for (int o = 16; o > 0; o >>= 1) m = fmaxf(m, __shfl_xor_sync(FULL_MASK, m, o));
        const int winner = __ffs(__ballot_sync(FULL_MASK, t[0] == m)) - 1;
        if (lane == j) mine = m;
        if (lane == winner) {
#pragma unroll
            for (int k = 0; k < TOPK - 1; ++k) t[k] = t[k + 1];
            t[TOPK - 1] = -INFINITY;
        }
    }
    if (lane < TOPK) out[(size_t)r * TOPK + lane] = mine;
}

extern "C" void launch_row_topk(const float* x, float* out, int rows, int cols, cudaStream_t stream)
{
    row_topk<<<(rows + WARPS - 1) / WARPS, THREADS, 0, stream>>>(x, out, rows, cols);
}
