// Batched small matrix products, register-blocked: a 64 x 64 tile of C per block of 256
// threads, each thread accumulating a 4 x 4 patch (rows ty + 16 i, columns tx + 16 j) in
// registers; A is staged transposed (k-major, padded) so a k step reads it as a broadcast.
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

template <int TM, int TN, int TK, int RM, int RN>
__global__ void __launch_bounds__((TM / RM) * (TN / RN))
bmm_regblock(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C,
             int M, int N, int K) {
    constexpr int TX = TN / RN;          // threads along n
    constexpr int TY = TM / RM;          // threads along m
    constexpr int NT = TX * TY;
    __shared__ float As[TK][TM + 1];     // transposed: As[k][m]
    __shared__ float Bs[TK][TN];
    const int tx = threadIdx.x % TX;
    const int ty = threadIdx.x / TX;
    const int m0 = blockIdx.y * TM;
    const int n0 = blockIdx.x * TN;
    const size_t b = blockIdx.z;
    const float* Ab = A + b * M * K;
    const float* Bb = B + b * K * N;

    float acc[RM][RN];
#pragma unroll
    for (int i = 0; i < RM; ++i)
#pragma unroll
        for (int j = 0; j < RN; ++j) acc[i][j] = 0.f;

    for (int k0 = 0; k0 < K; k0 += TK) {
#pragma unroll
        for (int t = threadIdx.x; t < TM * TK; t += NT) {
            int r = t / TK, c = t % TK;
            int gr = m0 + r, gc = k0 + c;
            As[c][r] = (gr < M && gc < K) ? Ab[(size_t)gr * K + gc] : 0.f;
        }
#pragma unroll
        for (int t = threadIdx.x; t < TK * TN; t += NT) {
            int r = t / TN, c = t % TN;
            int gr = k0 + r, gc = n0 + c;
            Bs[r][c] = (gr < K && gc < N) ? Bb[(size_t)gr * N + gc] : 0.f;
        }
        __syncthreads();
#pragma unroll
        for (int k = 0; k < TK; ++k) {
            float a[RM], bv[RN];
#pragma unroll
            for (int i = 0; i < RM; ++i) a[i] = As[k][ty + i * TY];
#pragma unroll
            for (int j = 0; j < RN; ++j) bv[j] = Bs[k][tx + j * TX];
#pragma unroll
            for (int i = 0; i < RM; ++i)
#pragma unroll
                for (int j = 0; j < RN; ++j) acc[i][j] += a[i] * bv[j];
        }
        __syncthreads();
    }

#pragma unroll
    for (int i = 0; i < RM; ++i) {
        int row = m0 + ty + i * TY;
        if (row >= M) continue;
#pragma unroll
        for (int j = 0; j < RN; ++j) {
            int col = n0 + tx + j * TX;
            if (col < N) C[b * M * N + (size_t)row * N + col] = acc[i][j];
        }
    }
}

template <int TM, int TN, int TK, int RM, int RN>
static int run_regblock(const float* A, const float* B, float* C, int batch, int M, int N,
                        int K) {
    dim3 grid((N + TN - 1) / TN, (M + TM - 1) / TM, batch);
    bmm_regblock<TM, TN, TK, RM, RN><<<grid, (TM / RM) * (TN / RN)>>>(A, B, C, M, N, K);
    CUDA_OK(cudaGetLastError());
    return 0;
}

extern "C" int bmm_batched(const float* A, const float* B, float* C, int batch, int M, int N,
                           int K) {
    if (batch <= 0 || M <= 0 || N <= 0) return 0;
    if (batch > 65535) return (int)cudaErrorInvalidConfiguration;
    return run_regblock<64, 64, 16, 4, 4>(A, B, C, batch, M, N, K);
}
