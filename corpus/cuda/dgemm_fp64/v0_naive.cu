// C = A @ B in fp64, row-major (A is M x K, B is K x N). Naive: one thread per C element, 16x16 blocks,
// threadIdx.x along the columns of C (B reads coalesced, A reads broadcast), K loads of each from global.
#include <cuda_runtime.h>

#define BS 16

// kforecast: M = 1024; N = 1024; K = 1024; A: f64[M, K] randn; B: f64[K, N] randn; C: f64[M, N] zeros; rtol = 1e-9; atol = 1e-9
__global__ void dgemm(int M, int N, int K, const double* __restrict__ A, const double* __restrict__ B, double* __restrict__ C)
{
    const int col = blockIdx.x * BS + threadIdx.x;
    const int row = blockIdx.y * BS + threadIdx.y;
    if (row >= M || col >= N) return;
    double acc = 0.0;
    for (int k = 0; k < K; ++k) acc += A[(size_t)row * K + k] * B[(size_t)k * N + col];
    C[(size_t)row * N + col] = acc;
}

extern "C" void launch_dgemm(int M, int N, int K, const double* A, const double* B, double* C, cudaStream_t stream)
{
    dim3 block(BS, BS);
    dim3 grid((N + BS - 1) / BS, (M + BS - 1) / BS);
    dgemm<<<grid, block, 0, stream>>>(M, N, K, A, B, C);
}
