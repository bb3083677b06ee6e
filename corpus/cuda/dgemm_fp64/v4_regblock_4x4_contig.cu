// C = A @ B in fp64, 2-D register blocking: a 64x64 C tile per 256-thread block, K steps of 16 staged in
// shared memory; each thread computes a contiguous 4x4 sub-tile (outer product of 4 A and 4 B values
// per k). The 16 lanes of a half-warp read B values 32 bytes apart: 4-way shared bank conflicts.
#include <cuda_runtime.h>

#define BM 64
#define BN 64
#define BK 16
#define TM 4
#define TN 4
#define NT ((BM / TM) * (BN / TN))

// kforecast: M = 1024; N = 1024; K = 1024; A: f64[M, K] randn; B: f64[K, N] randn; C: f64[M, N] zeros; rtol = 1e-9; atol = 1e-9
__global__ void __launch_bounds__(NT)
dgemm(int M, int N, int K, const double* __restrict__ A, const double* __restrict__ B, double* __restrict__ C)
{
    __shared__ double As[BM][BK];
    __shared__ double Bs[BK][BN];
    const int tid = threadIdx.x;
    const int tcol = tid % (BN / TN);
    const int trow = tid / (BN / TN);
    const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
    double acc[TM][TN];
#pragma unroll
    for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < TN; ++j) acc[i][j] = 0.0;
    for (int k0 = 0; k0 < K; k0 += BK) {
#pragma unroll
        for (int e = tid; e < BM * BK; e += NT) {
            const int r = e / BK, c = e % BK;
            As[r][c] = (row0 + r < M && k0 + c < K) ? A[(size_t)(row0 + r) * K + k0 + c] : 0.0;
            const int kb = e / BN, n = e % BN;
            Bs[kb][n] = (k0 + kb < K && col0 + n < N) ? B[(size_t)(k0 + kb) * N + col0 + n] : 0.0;
        }
        __syncthreads();
#pragma unroll
        for (int k = 0; k < BK; ++k) {
            double a[TM], b[TN];
#pragma unroll
            for (int i = 0; i < TM; ++i) a[i] = As[trow * TM + i][k];
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

extern "C" void launch_dgemm(int M, int N, int K, const double* A, const double* B, double* C, cudaStream_t stream)
{
    dim3 block(NT);
    dim3 grid((N + BN - 1) / BN, (M + BM - 1) / BM);
    dgemm<<<grid, block, 0, stream>>>(M, N, K, A, B, C);
}
