// C = A @ B with half inputs and float output (A is M x K, B is K x N, row-major). Naive: one
// thread per C element on 16x16 blocks, threadIdx.x along the columns, half loads, float sums.
#include <cuda_runtime.h>
#include <cuda_fp16.h>

#define BS 16

// kforecast: M = 2048; N = 2048; K = 2048; A: f16[M, K] randn; B: f16[K, N] randn; C: f32[M, N] zeros; rtol = 1e-2; atol = 1e-1
__global__ void hgemm(int M, int N, int K, const __half* __restrict__ A, const __half* __restrict__ B,
                      float* __restrict__ C)
{
    const int col = blockIdx.x * BS + threadIdx.x;
    const int row = blockIdx.y * BS + threadIdx.y;
    if (row >= M || col >= N) return;
    float acc = 0.0f;
    for (int k = 0; k < K; ++k)
        acc += __half2float(A[(size_t)row * K + k]) * __half2float(B[(size_t)k * N + col]);
    C[(size_t)row * N + col] = acc;
}

extern "C" void launch_hgemm(int M, int N, int K, const __half* A, const __half* B, float* C, cudaStream_t stream)
{
    dim3 block(BS, BS);
    dim3 grid((N + BS - 1) / BS, (M + BS - 1) / BS);
    hgemm<<<grid, block, 0, stream>>>(M, N, K, A, B, C);
}
