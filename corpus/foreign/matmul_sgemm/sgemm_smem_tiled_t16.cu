// SGEMM with square shared-memory tiles (16x16 here); the tile size is a template parameter.
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

template <int TILE>
__global__ void sgemm_smem_tiled(int M, int N, int K, const float* __restrict__ A, const float* __restrict__ B,
                                 float* __restrict__ C)
{
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int row = blockIdx.y * TILE + ty;
    const int col = blockIdx.x * TILE + tx;
    float acc = 0.f;
    for (int t = 0; t < K; t += TILE) {
        As[ty][tx] = (row < M && t + tx < K) ? A[(size_t)row * K + t + tx] : 0.f;
        Bs[ty][tx] = (t + ty < K && col < N) ? B[(size_t)(t + ty) * N + col] : 0.f;
        __syncthreads();
#pragma unroll
        for (int k = 0; k < TILE; ++k) acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    if (row < M && col < N) C[(size_t)row * N + col] = acc;
}

template <int TILE>
static int launch(const float* A, const float* B, float* C, int M, int N, int K)
{
    dim3 block(TILE, TILE);
    dim3 grid((N + TILE - 1) / TILE, (M + TILE - 1) / TILE);
    sgemm_smem_tiled<TILE><<<grid, block>>>(M, N, K, A, B, C);
    CHECK(cudaGetLastError());
    return 0;
}

extern "C" int sgemm(const float* A, const float* B, float* C, int M, int N, int K)
{
    return launch<16>(A, B, C, M, N, K);
}
