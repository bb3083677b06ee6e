// Batched small matrix products, shared-memory tiles with a deeper K step (TK = 32):
// a TM x TN block of C per thread block (one element per thread), A and B staged TK
// columns/rows at a time.
#include <cstdio>
#include <cuda_runtime.h>

#define CUDA_OK(x)                                                                 \
    do {                                                                           \
        cudaError_t rc_ = (x);                                                     \
        if (rc_ != cudaSuccess) {                                                  \
            fprintf(stderr, "bmm: %s (%s:%d)\n", cudaGetErrorString(rc_), __FILE__, __LINE__); \
            return (int)rc_;                                                       \
        }                                                                          \
    } while (0)

template <int TM, int TN, int TK>
__global__ void __launch_bounds__(TM * TN)
bmm_smem_k32(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C,
          int M, int N, int K) {
    __shared__ float As[TM][TK];
    __shared__ float Bs[TK][TN];
    const int tx = threadIdx.x;  // column inside the tile, 0..TN-1
    const int ty = threadIdx.y;  // row inside the tile, 0..TM-1
    const int tid = ty * TN + tx;
    const int m0 = blockIdx.y * TM;
    const int n0 = blockIdx.x * TN;
    const size_t b = blockIdx.z;
    const float* Ab = A + b * M * K;
    const float* Bb = B + b * K * N;

    float acc = 0.f;
    for (int k0 = 0; k0 < K; k0 += TK) {
        for (int t = tid; t < TM * TK; t += TM * TN) {
            int r = t / TK, c = t % TK;
            int gr = m0 + r, gc = k0 + c;
            As[r][c] = (gr < M && gc < K) ? Ab[(size_t)gr * K + gc] : 0.f;
        }
        for (int t = tid; t < TK * TN; t += TM * TN) {
            int r = t / TN, c = t % TN;
            int gr = k0 + r, gc = n0 + c;
            Bs[r][c] = (gr < K && gc < N) ? Bb[(size_t)gr * N + gc] : 0.f;
        }
        __syncthreads();
#pragma unroll
        for (int k = 0; k < TK; ++k) acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    int row = m0 + ty, col = n0 + tx;
    if (row < M && col < N) C[b * M * N + (size_t)row * N + col] = acc;
}

template <int TM, int TN, int TK>
static int run_tiled(const float* A, const float* B, float* C, int batch, int M, int N, int K) {
    dim3 block(TN, TM);
    dim3 grid((N + TN - 1) / TN, (M + TM - 1) / TM, batch);
    bmm_smem_k32<TM, TN, TK><<<grid, block>>>(A, B, C, M, N, K);
    CUDA_OK(cudaGetLastError());
    return 0;
}

extern "C" int bmm_batched(const float* A, const float* B, float* C, int batch, int M, int N,
                           int K) {
    if (batch <= 0 || M <= 0 || N <= 0) return 0;
    if (batch > 65535) return (int)cudaErrorInvalidConfiguration;
    return run_tiled<16, 16, 32>(A, B, C, batch, M, N, K);
}
