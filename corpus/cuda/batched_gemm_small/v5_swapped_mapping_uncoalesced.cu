// Batched 32x32 GEMM, naive with the index mapping swapped (row i fastest across
// threads): each warp reads A and writes C with a 128-byte stride (uncoalesced)
// while B[k][j] becomes a broadcast.
#include <cuda_runtime.h>

#define THREADS 256
#define D 32

// kforecast: batch = 8192; A: f32[batch, 32, 32] randn; B: f32[batch, 32, 32] randn; C: f32[batch, 32, 32]; rtol = 1e-3; atol = 1e-3
__global__ void batched_gemm(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C, int batch)
{
    const int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx >= batch * D * D) return;
    const int i = idx % D;
    const int j = (idx / D) % D;
    const int b = idx / (D * D);
    const float* a = A + (size_t)b * D * D + i * D;
    const float* bm = B + (size_t)b * D * D + j;
    float acc = 0.0f;
    for (int k = 0; k < D; ++k) acc += a[k] * bm[k * D];
    C[(size_t)b * D * D + i * D + j] = acc;
}

extern "C" void launch_batched_gemm(const float* A, const float* B, float* C, int batch, cudaStream_t stream)
{
    const int total = batch * D * D;
    batched_gemm<<<(total + THREADS - 1) / THREADS, THREADS, 0, stream>>>(A, B, C, batch);
}
