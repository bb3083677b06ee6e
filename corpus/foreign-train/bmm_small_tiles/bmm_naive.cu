// Batched small matrix products C[b] = A[b] @ B[b], one thread per element of C,
// operands read straight from global memory. The block shape is a template parameter.
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

template <int BX, int BY>
__global__ void bmm_elementwise(const float* __restrict__ A, const float* __restrict__ B,
                                float* __restrict__ C, int M, int N, int K) {
    int col = blockIdx.x * BX + threadIdx.x;
    int row = blockIdx.y * BY + threadIdx.y;
    size_t b = blockIdx.z;
    if (row >= M || col >= N) return;
    const float* a = A + b * M * K + (size_t)row * K;
    const float* bb = B + b * K * N + col;
    float acc = 0.f;
    for (int k = 0; k < K; ++k) acc += a[k] * bb[(size_t)k * N];
    C[b * M * N + (size_t)row * N + col] = acc;
}

template <int BX, int BY>
static int launch(const float* A, const float* B, float* C, int batch, int M, int N, int K) {
    dim3 block(BX, BY);
    dim3 grid((N + BX - 1) / BX, (M + BY - 1) / BY, batch);
    bmm_elementwise<BX, BY><<<grid, block>>>(A, B, C, M, N, K);
    CUDA_OK(cudaGetLastError());
    return 0;
}

extern "C" int bmm_batched(const float* A, const float* B, float* C, int batch, int M, int N,
                           int K) {
    if (batch <= 0 || M <= 0 || N <= 0) return 0;
    if (batch > 65535) return (int)cudaErrorInvalidConfiguration;
    return launch<16, 16>(A, B, C, batch, M, N, K);
}
