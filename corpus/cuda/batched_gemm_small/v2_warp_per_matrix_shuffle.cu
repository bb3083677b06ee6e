// Batched 32x32 GEMM: one warp per matrix, 4 warps per block. Lane j keeps column j
// of B in 32 registers; for each row i the lane loads A[i][lane] and broadcasts
// A[i][k] with warp shuffles. No shared memory.
#include <cuda_runtime.h>

#define D 32
#define WARPS 4

// kforecast: batch = 8192; A: f32[batch, 32, 32] randn; B: f32[batch, 32, 32] randn; C: f32[batch, 32, 32]; rtol = 1e-3; atol = 1e-3
__global__ void __launch_bounds__(WARPS * 32)
batched_gemm(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C, int batch)
{
    const int lane = threadIdx.x & 31;
    const int b = blockIdx.x * WARPS + (threadIdx.x >> 5);
    if (b >= batch) return;
    const size_t base = (size_t)b * D * D;
    float bcol[D];
#pragma unroll
    for (int k = 0; k < D; ++k) bcol[k] = B[base + k * D + lane];
    for (int i = 0; i < D; ++i) {
        const float a = A[base + i * D + lane];
        float acc = 0.0f;
#pragma unroll
        for (int k = 0; k < D; ++k) acc += __shfl_sync(0xffffffffu, a, k) * bcol[k];
        C[base + i * D + lane] = acc;
    }
}

extern "C" void launch_batched_gemm(const float* A, const float* B, float* C, int batch, cudaStream_t stream)
{
    batched_gemm<<<(batch + WARPS - 1) / WARPS, WARPS * 32, 0, stream>>>(A, B, C, batch);
}
