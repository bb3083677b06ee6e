// C = A @ B in fp64, register blocking 2x2: a 16x16 block computes a 32x32 C tile (K steps of 32 staged
// in shared memory, 4 loads per thread per operand); each thread owns rows ty, ty+16 and columns
// tx, tx+16, so 4 shared loads feed 4 FMAs.
#include <cuda_runtime.h>

#define TX 16
#define TY 16
#define BM 32
#define BN 32
#define BK 32
#define NT (TX * TY)

// kforecast: M = 1024; N = 1024; K = 1024; A: f64[M, K] randn; B: f64[K, N] randn; C: f64[M, N] zeros; rtol = 1e-9; atol = 1e-9
__global__ void __launch_bounds__(NT)
dgemm(int M, int N, int K, const double* __restrict__ A, const double* __restrict__ B, double* __restrict__ C)
{
    __shared__ double As[BM][BK];
    __shared__ double Bs[BK][BN];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int tid = ty * TX + tx;
    const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
    double c00 = 0.0, c01 = 0.0, c10 = 0.0, c11 = 0.0;
    for (int k0 = 0; k0 < K; k0 += BK) {
#pragma unroll
        for (int e = tid; e < BM * BK; e += NT) {
            const int r = e / BK, c = e % BK;
            As[r][c] = (row0 + r < M && k0 + c < K) ? A[(size_t)(row0 + r) * K + k0 + c] : 0.0;
            const int kb = e / BN, n = e % BN;
            Bs[kb][n] = (k0 + kb < K && col0 + n < N) ? B[(size_t)(k0 + kb) * N + col0 + n] : 0.0;
        }
        __syncthreads();
#pragma unroll 8
        for (int k = 0; k < BK; ++k) {
            const double a0 = As[ty][k], a1 = As[ty + TY][k];
            const double b0 = Bs[k][tx], b1 = Bs[k][tx + TX];
            c00 += a0 * b0;
            c01 += a0 * b1;
            c10 += a1 * b0;
            c11 += a1 * b1;
        }
        __syncthreads();
    }
    const int r0 = row0 + ty, r1 = row0 + ty + TY;
    const int n0 = col0 + tx, n1 = col0 + tx + TX;
    if (r0 < M) {
        if (n0 < N) C[(size_t)r0 * N + n0] = c00;
        if (n1 < N) C[(size_t)r0 * N + n1] = c01;
    }
    if (r1 < M) {
        if (n0 < N) C[(size_t)r1 * N + n0] = c10;
        if (n1 < N) C[(size_t)r1 * N + n1] = c11;
    }
}

extern "C" void launch_dgemm(int M, int N, int K, const double* A, const double* B, double* C, cudaStream_t stream)
{
    dim3 block(TX, TY);
    dim3 grid((N + BN - 1) / BN, (M + BM - 1) / BM);
    dgemm<<<grid, block, 0, stream>>>(M, N, K, A, B, C);
}
