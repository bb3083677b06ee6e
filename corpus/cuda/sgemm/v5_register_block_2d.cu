// C = A @ B with 2-D register blocking: a 64 x 64 C tile per block of 256 threads,
// K steps of 8 staged in shared memory (A stored transposed so a thread reads
// its 4 A values contiguously), each thread computes a 4 x 4 sub-tile from
// 4 + 4 shared loads per k (outer product).
#include <cuda_runtime.h>

#define BM 64
#define BN 64
#define BK 8
#define TM 4
#define TN 4
#define NTHREADS ((BM / TM) * (BN / TN))

// kforecast: M = 1024; N = 1024; K = 1024; A: f32[M, K] randn; B: f32[K, N] randn; C: f32[M, N] zeros; rtol = 1e-3; atol = 1e-3
__global__ void __launch_bounds__(NTHREADS)
sgemm(int M, int N, int K, const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C)
{
    __shared__ float As[BK][BM];  // As[k][m] = A[row0 + m][k0 + k]
    __shared__ float Bs[BK][BN];
    const int tid = threadIdx.x;
    const int tcol = tid % (BN / TN);   // 0..15
    const int trow = tid / (BN / TN);   // 0..15
    const int row0 = blockIdx.y * BM;
    const int col0 = blockIdx.x * BN;

    float acc[TM][TN];
#pragma unroll
    for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < TN; ++j) acc[i][j] = 0.0f;

    for (int k0 = 0; k0 < K; k0 += BK) {
        // 512 elements of A and of B per step: two each per thread.
#pragma unroll
        for (int e = tid; e < BM * BK; e += NTHREADS) {
            const int m = e / BK, k = e % BK;
            As[k][m] = (row0 + m < M && k0 + k < K) ? A[(size_t)(row0 + m) * K + k0 + k] : 0.0f;
            const int kb = e / BN, n = e % BN;
            Bs[kb][n] = (k0 + kb < K && col0 + n < N) ? B[(size_t)(k0 + kb) * N + col0 + n] : 0.0f;
        }
        __syncthreads();
#pragma unroll
        for (int k = 0; k < BK; ++k) {
            float a[TM], b[TN];
#pragma unroll
            for (int i = 0; i < TM; ++i) a[i] = As[k][trow * TM + i];
#pragma unroll
            for (int j = 0; j < TN; ++j) b[j] = Bs[k][tcol * TN + j];
#pragma unroll
            for (int i = 0; i < TM; ++i)
#pragma unroll
                for (int j = 0; j < TN; ++j) acc[i][j] += a[i] * b[j];
        }
        __syncthreads();
    }
#pragma unroll
    for (int i = 0; i < TM; ++i) {
        const int row = row0 + trow * TM + i;
        if (row >= M) continue;
#pragma unroll
        for (int j = 0; j < TN; ++j) {
            const int col = col0 + tcol * TN + j;
            if (col < N) C[(size_t)row * N + col] = acc[i][j];
        }
    }
}

extern "C" void launch_sgemm(int M, int N, int K, const float* A, const float* B, float* C, cudaStream_t stream)
{
    dim3 block(NTHREADS);
    dim3 grid((N + BN - 1) / BN, (M + BM - 1) / BM);
    sgemm<<<grid, block, 0, stream>>>(M, N, K, A, B, C);
}
