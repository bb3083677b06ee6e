// Batched 32x32 matrix-vector: one warp per matrix, lane i computes row i; x[b] is loaded once
// (one element per lane, coalesced) and broadcast to the warp with __shfl_sync per column.
#include <cuda_runtime.h>

#define THREADS   256
#define WARPS     (THREADS / 32)
#define DIM       32
#define FULL_MASK 0xffffffffu

// kforecast: batch = 65536; A: f32[batch, 32, 32] randn; x: f32[batch, 32] randn; y: f32[batch, 32]; rtol = 1e-3; atol = 1e-3
__global__ void batched_matvec(const float* __restrict__ A, const float* __restrict__ x, float* __restrict__ y, int batch)
{
    const int lane = threadIdx.x & 31;
    const int b = blockIdx.x * WARPS + (threadIdx.x >> 5);
    if (b >= batch) return;
    const float xv = x[(size_t)b * DIM + lane];
    const float* row = A + ((size_t)b * DIM + lane) * DIM;
    float acc = 0.0f;
#pragma unroll
    for (int j = 0; j < DIM; ++j) acc = fmaf(row[j], __shfl_sync(FULL_MASK, xv, j), acc);
    y[(size_t)b * DIM + lane] = acc;
}

extern "C" void launch_batched_matvec(const float* A, const float* x, float* y, int batch, cudaStream_t stream)
{
    batched_matvec<<<(batch + WARPS - 1) / WARPS, THREADS, 0, stream>>>(A, x, y, batch);
}
