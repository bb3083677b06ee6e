// SGEMM with 2D register blocking: a block computes a BM x BN tile of C, each thread
// a TM x TN micro-tile, staging BK-deep slices of A (transposed) and B in shared memory.
#include <cstdio>
#include <cuda_runtime.h>

#define CHECK(call)                                                              \
    {                                                                            \
        const cudaError_t error = call;                                          \
        if (error != cudaSuccess) {                                              \
            printf("Error: %s:%d, code: %d, reason: %s\n", __FILE__, __LINE__,   \
                   error, cudaGetErrorString(error));                            \
            return (int)error;                                                   \
        }                                                                        \
    }

template <int BM, int BN, int BK, int TM, int TN>
__global__ void __launch_bounds__((BM / TM) * (BN / TN))
sgemm_2d_blocktile(int M, int N, int K, const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C)
{
    constexpr int THREADS = (BM / TM) * (BN / TN);
    __shared__ float As[BK][BM];
    __shared__ float Bs[BK][BN];
    const int tid = threadIdx.x;
    const int trow = tid / (BN / TN), tcol = tid % (BN / TN);
    const int brow = blockIdx.y * BM, bcol = blockIdx.x * BN;
    float acc[TM][TN] = {};
    float a_frag[TM], b_frag[TN];
    for (int k0 = 0; k0 < K; k0 += BK) {
        for (int i = tid; i < BM * BK; i += THREADS) {
            const int r = i / BK, c = i % BK;
            As[c][r] = A[(size_t)(brow + r) * K + k0 + c];
        }
        for (int i = tid; i < BK * BN; i += THREADS) {
            const int r = i / BN, c = i % BN;
            Bs[r][c] = B[(size_t)(k0 + r) * N + bcol + c];
        }
        __syncthreads();
#pragma unroll
        for (int kk = 0; kk < BK; ++kk) {
#pragma unroll
            for (int m = 0; m < TM; ++m) a_frag[m] = As[kk][trow * TM + m];
#pragma unroll
            for (int n = 0; n < TN; ++n) b_frag[n] = Bs[kk][tcol * TN + n];
#pragma unroll
            for (int m = 0; m < TM; ++m)
#pragma unroll
                for (int n = 0; n < TN; ++n) acc[m][n] += a_frag[m] * b_frag[n];
        }
        __syncthreads();
    }
#pragma unroll
    for (int m = 0; m < TM; ++m)
#pragma unroll
        for (int n = 0; n < TN; ++n) C[(size_t)(brow + trow * TM + m) * N + bcol + tcol * TN + n] = acc[m][n];
}

template <int BM, int BN, int BK, int TM, int TN>
static int launch_blocktile(const float* A, const float* B, float* C, int M, int N, int K)
{
    if (M % BM || N % BN || K % BK) {
        fprintf(stderr, "sgemm: M, N, K must be multiples of %d, %d, %d\n", BM, BN, BK);
        return (int)cudaErrorInvalidValue;
    }
    dim3 grid(N / BN, M / BM);
    sgemm_2d_blocktile<BM, BN, BK, TM, TN><<<grid, (BM / TM) * (BN / TN)>>>(M, N, K, A, B, C);
    CHECK(cudaGetLastError());
    return 0;
}

extern "C" int sgemm(const float* A, const float* B, float* C, int M, int N, int K)
{
    return launch_blocktile<64, 64, 8, 4, 4>(A, B, C, M, N, K);
}
