// Batched 32x32 GEMM: one 32x32 block per matrix, A and B staged in shared memory
// with coalesced loads, each thread computes one C element from shared memory.
#include <cuda_runtime.h>

#define D 32

// kforecast: batch = 8192; A: f32[batch, 32, 32] randn; B: f32[batch, 32, 32] randn; C: f32[batch, 32, 32]; rtol = 1e-3; atol = 1e-3
__global__ void __launch_bounds__(D * D)
batched_gemm(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C, int batch)
{
    __shared__ float As[D][D];
    __shared__ float Bs[D][D];
    const int b = blockIdx.x;
    const int tx = threadIdx.x, ty = threadIdx.y;
    const size_t base = (size_t)b * D * D;
    As[ty][tx] = A[base + ty * D + tx];
    Bs[ty][tx] = B[base + ty * D + tx];
    __syncthreads();
    float acc = 0.0f;
#pragma unroll
    for (int k = 0; k < D; ++k) acc += As[ty][k] * Bs[k][tx];
    C[base + ty * D + tx] = acc;
}

extern "C" void launch_batched_gemm(const float* A, const float* B, float* C, int batch, cudaStream_t stream)
{
    dim3 block(D, D);
    batched_gemm<<<batch, block, 0, stream>>>(A, B, C, batch);
}
