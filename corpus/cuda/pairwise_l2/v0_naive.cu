// D[i][j] = sum_k (A[i][k] - B[j][k])^2 for DIM = 64. Naive: one thread per output on a
// 16x16 block, j along threadIdx.x (coalesced stores), both rows read from global memory.
#include <cuda_runtime.h>

#define DIM 64
#define BS  16

// kforecast: N = 4096; M = 4096; A: f32[N, 64] randn; B: f32[M, 64] randn; D: f32[N, M]; rtol = 1e-4; atol = 1e-3
__global__ void pairwise_l2(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ D, int N, int M)
{
    const int j = blockIdx.x * BS + threadIdx.x;
    const int i = blockIdx.y * BS + threadIdx.y;
    if (i >= N || j >= M) return;
    float acc = 0.0f;
    for (int k = 0; k < DIM; ++k) {
        const float d = A[(size_t)i * DIM + k] - B[(size_t)j * DIM + k];
        acc += d * d;
    }
    D[(size_t)i * M + j] = acc;
}

extern "C" void launch_pairwise_l2(const float* A, const float* B, float* D, int N, int M, cudaStream_t stream)
{
    dim3 block(BS, BS);
    dim3 grid((M + BS - 1) / BS, (N + BS - 1) / BS);
    pairwise_l2<<<grid, block, 0, stream>>>(A, B, D, N, M);
}
