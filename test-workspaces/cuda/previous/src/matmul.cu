// SGEMM, row-major: C = alpha * A @ B + beta * C
// A is M x K, B is K x N, C is M x N.
#include <cuda_runtime.h>

#define BLOCK_DIM 16

// One output element per thread; every operand comes straight from global
// memory (each A row and B column is re-read by many threads).
// kforecast: M = 2048; N = 2048; K = 2048; alpha = 1.0; beta = 0.0; A: f32[M, K]; B: f32[K, N]; C: f32[M, N] zeros; rtol = 1e-3; atol = 1e-2
__global__ void __launch_bounds__(BLOCK_DIM * BLOCK_DIM)
sgemm(int M, int N, int K, float alpha,
      const float* __restrict__ A, const float* __restrict__ B,
      float beta, float* __restrict__ C)
{
    const int col = blockIdx.x * BLOCK_DIM + threadIdx.x;
    const int row = blockIdx.y * BLOCK_DIM + threadIdx.y;
    if (row >= M || col >= N) return;

    float acc = 0.0f;
    for (int k = 0; k < K; ++k)
        acc = fmaf(A[(size_t)row * K + k], B[(size_t)k * N + col], acc);

    float* c = C + (size_t)row * N + col;
    // beta == 0 must not read C (it may be uninitialised).
    *c = beta == 0.0f ? alpha * acc : fmaf(alpha, acc, beta * *c);
}

static inline int ceil_div(int a, int b) { return (a + b - 1) / b; }

extern "C" void launch_sgemm(int M, int N, int K, float alpha, const float* A, const float* B,
                             float beta, float* C, cudaStream_t stream)
{
    if (M <= 0 || N <= 0) return;
    dim3 block(BLOCK_DIM, BLOCK_DIM);
    dim3 grid(ceil_div(N, BLOCK_DIM), ceil_div(M, BLOCK_DIM));
    sgemm<<<grid, block, 0, stream>>>(M, N, K, alpha, A, B, beta, C);
}
