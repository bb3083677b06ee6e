// SGEMM, C[M,N] = A[M,K] * B[K,N], all row-major. One thread per element of C.
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

__global__ void sgemm_naive(int M, int N, int K, const float* A, const float* B, float* C)
{
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < M && col < N) {
        float sum = 0.0f;
        for (int k = 0; k < K; k++)
            sum += A[row * K + k] * B[k * N + col];
        C[row * N + col] = sum;
    }
}

extern "C" int sgemm(const float* A, const float* B, float* C, int M, int N, int K)
{
    dim3 block(32, 32);
    dim3 grid((N + block.x - 1) / block.x, (M + block.y - 1) / block.y);
    sgemm_naive<<<grid, block>>>(M, N, K, A, B, C);
    CHECK(cudaGetLastError());
    return 0;
}
