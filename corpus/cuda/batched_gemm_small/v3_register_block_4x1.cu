// Batched 32x32 GEMM: one 32x8 block per matrix, A and B in shared memory, each
// thread computes 4 rows of one column (register blocking 4x1): per k one B load
// feeds 4 FMAs.
#include <cuda_runtime.h>

#define D 32
#define BY 8
#define RM (D / BY)

// kforecast: batch = 8192; A: f32[batch, 32, 32] randn; B: f32[batch, 32, 32] randn; C: f32[batch, 32, 32]; rtol = 1e-3; atol = 1e-3
__global__ void __launch_bounds__(D * BY)
batched_gemm(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C, int batch)
{
    __shared__ float As[D][D];
    __shared__ float Bs[D][D];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const size_t base = (size_t)blockIdx.x * D * D;
#pragma unroll
    for (int r = 0; r < RM; ++r) {
        const int row = ty + r * BY;
        As[row][tx] = A[base + row * D + tx];
        Bs[row][tx] = B[base + row * D + tx];
    }
    __syncthreads();
    float acc[RM];
#pragma unroll
    for (int r = 0; r < RM; ++r) acc[r] = 0.0f;
#pragma unroll
    for (int k = 0; k < D; ++k) {
        const float bv = Bs[k][tx];
#pragma unroll
        for (int r = 0; r < RM; ++r) acc[r] += As[ty + r * BY][k] * bv;
    }
#pragma unroll
    for (int r = 0; r < RM; ++r) C[base + (ty + r * BY) * D + tx] = acc[r];
}

extern "C" void launch_batched_gemm(const float* A, const float* B, float* C, int batch, cudaStream_t stream)
{
    dim3 block(D, BY);
    batched_gemm<<<batch, block, 0, stream>>>(A, B, C, batch);
}
