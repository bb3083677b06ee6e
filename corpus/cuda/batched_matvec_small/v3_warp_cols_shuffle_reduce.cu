// Batched 32x32 matrix-vector: one warp per matrix with lanes over columns, so every row is
// one coalesced 128-byte load; each row's dot product is summed by 5 xor shuffles and lane i
// keeps row i's result for one coalesced store.
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
    const float* a = A + (size_t)b * DIM * DIM + lane;
    float mine = 0.0f;
#pragma unroll 4
    for (int i = 0; i < DIM; ++i) {
        float p = a[i * DIM] * xv;
#pragma unroll
        for (int o = 16; o > 0; o >>= 1) p += __shfl_xor_sync(FULL_MASK, p, o);
        if (lane == i) mine = p;
    }
    y[(size_t)b * DIM + lane] = mine;
}

extern "C" void launch_batched_matvec(const float* A, const float* x, float* y, int batch, cudaStream_t stream)
{
    batched_matvec<<<(batch + WARPS - 1) / WARPS, THREADS, 0, stream>>>(A, x, y, batch);
}
