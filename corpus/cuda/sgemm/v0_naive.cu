// C = A @ B, row-major, A is M x K, B is K x N. Naive: one thread per C element,
// threadIdx.x along the columns of C (B reads coalesced, A reads broadcast).
#include <cuda_runtime.h>

#define BS 16

// kforecast: M = 1024; N = 1024; K = 1024; A: f32[M, K] randn; B: f32[K, N] randn; C: f32[M, N] zeros; rtol = 1e-3; atol = 1e-3
__global__ void sgemm(int M, int N, int K, const float* __restrict__ A, const float* __restrict__ B,
                      float* __restrict__ C)
{
    const int col = blockIdx.x * BS + threadIdx.x;
    const int row = blockIdx.y * BS + threadIdx.y;
    if (row >= M || col >= N) return;
    float acc = 0.0f;
    for (int k = 0; k < K; ++k) acc += A[(size_t)row * K + k] * B[(size_t)k * N + col];
    C[(size_t)row * N + col] = acc;
}

extern "C" void launch_sgemm(int M, int N, int K, const float* A, const float* B, float* C, cudaStream_t stream)
{
    dim3 block(BS, BS);
    dim3 grid((N + BS - 1) / BS, (M + BS - 1) / BS);
    sgemm<<<grid, block, 0, stream>>>(M, N, K, A, B, C);
}
