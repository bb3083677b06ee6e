// Per-row population variance in one pass, as v3 (warp per row, float4 loads, sum and sum of squares) with 128-thread blocks, renamed variables and the squares accumulated before the sum.
#include <cuda_runtime.h>

#define BLOCK     128
#define ROWS_PB   (BLOCK / 32)
#define FULL_MASK 0xffffffffu

// kforecast: rows = 16384; cols = 4096; x: f32[rows, cols] randn; out: f32[rows]; rtol = 1e-3; atol = 1e-4
__global__ void __launch_bounds__(BLOCK)
welford_var_rows(const float* __restrict__ x, float* __restrict__ out, int rows, int cols)
{
    const int row = blockIdx.x * ROWS_PB + threadIdx.x / 32;
    const int ln = threadIdx.x % 32;
    if (row < rows) {
        const float4* src = reinterpret_cast<const float4*>(x) + (size_t)row * (cols / 4);
        float sq = 0.0f, sm = 0.0f;
        for (int k = ln; k < cols / 4; k += 32) {
            const float4 e = src[k];
            sq = fmaf(e.x, e.x, sq);
            sq = fmaf(e.y, e.y, sq);
            sq = fmaf(e.z, e.z, sq);
            sq = fmaf(e.w, e.w, sq);
            sm += (e.x + e.y) + (e.z + e.w);
        }
#pragma unroll
        for (int off = 16; off >= 1; off /= 2) {
            sq += __shfl_xor_sync(FULL_MASK, sq, off);
            sm += __shfl_xor_sync(FULL_MASK, sm, off);
        }
        if (ln == 0) {
            const float mu = sm / cols;
            out[row] = fmaxf(sq / cols - mu * mu, 0.0f);
        }
    }
}

extern "C" void launch_welford_var_rows(const float* x, float* out, int rows, int cols, cudaStream_t stream)
{
    welford_var_rows<<<(rows + ROWS_PB - 1) / ROWS_PB, BLOCK, 0, stream>>>(x, out, rows, cols);
}
