// C = A @ B: 32 x 32 shared tiles, block 32 x 8, each thread accumulates 4 C
// values of one column in registers (register blocking along M).
#include <cuda_runtime.h>

#define TILE        32
#define BLOCK_ROWS  8
#define THREAD_ROWS (TILE / BLOCK_ROWS)

// kforecast: M = 1024; N = 1024; K = 1024; A: f32[M, K] randn; B: f32[K, N] randn; C: f32[M, N] zeros; rtol = 1e-3; atol = 1e-3
__global__ void __launch_bounds__(TILE * BLOCK_ROWS)
sgemm(int M, int N, int K, const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C)
{
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int row0 = blockIdx.y * TILE;
    const int col = blockIdx.x * TILE + tx;
    float acc[THREAD_ROWS];
#pragma unroll
    for (int r = 0; r < THREAD_ROWS; ++r) acc[r] = 0.0f;
    for (int k0 = 0; k0 < K; k0 += TILE) {
#pragma unroll
        for (int r = 0; r < THREAD_ROWS; ++r) {
            const int tr = ty + r * BLOCK_ROWS;
            As[tr][tx] = (row0 + tr < M && k0 + tx < K) ? A[(size_t)(row0 + tr) * K + k0 + tx] : 0.0f;
            Bs[tr][tx] = (k0 + tr < K && col < N) ? B[(size_t)(k0 + tr) * N + col] : 0.0f;
        }
        __syncthreads();
#pragma unroll
        for (int k = 0; k < TILE; ++k) {
            const float b = Bs[k][tx];
#pragma unroll
            for (int r = 0; r < THREAD_ROWS; ++r) acc[r] += As[ty + r * BLOCK_ROWS][k] * b;
        }
        __syncthreads();
    }
    if (col >= N) return;
#pragma unroll
    for (int r = 0; r < THREAD_ROWS; ++r) {
        const int row = row0 + ty + r * BLOCK_ROWS;
        if (row < M) C[(size_t)row * N + col] = acc[r];
    }
}

extern "C" void launch_sgemm(int M, int N, int K, const float* A, const float* B, float* C, cudaStream_t stream)
{
    dim3 block(TILE, BLOCK_ROWS);
    dim3 grid((N + TILE - 1) / TILE, (M + TILE - 1) / TILE);
    sgemm<<<grid, block, 0, stream>>>(M, N, K, A, B, C);
}
