// D[i][j] = sum_k (A[i][k] - B[j][k])^2: a 16x16 block computes a 64x64 tile, each
// thread 4x4 outputs (rows ty + 16r, columns tx + 16c) from padded shared tiles, so
// every shared value loaded feeds 4 differences.
#include <cuda_runtime.h>

#define DIM  64
#define BS   16
#define TM   4
#define TILE (BS * TM)

// kforecast: N = 4096; M = 4096; A: f32[N, 64] randn; B: f32[M, 64] randn; D: f32[N, M]; rtol = 1e-4; atol = 1e-3
__global__ void __launch_bounds__(BS * BS)
pairwise_l2(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ D, int N, int M)
{
    __shared__ float sA[TILE][DIM + 1];
    __shared__ float sB[TILE][DIM + 1];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int i0 = blockIdx.y * TILE, j0 = blockIdx.x * TILE;
    const int tid = ty * BS + tx;
    for (int e = tid; e < TILE * DIM; e += BS * BS) {
        const int r = e / DIM, k = e % DIM;
        sA[r][k] = (i0 + r < N) ? A[(size_t)(i0 + r) * DIM + k] : 0.0f;
        sB[r][k] = (j0 + r < M) ? B[(size_t)(j0 + r) * DIM + k] : 0.0f;
    }
    __syncthreads();
    float acc[TM][TM];
#pragma unroll
    for (int r = 0; r < TM; ++r)
#pragma unroll
        for (int c = 0; c < TM; ++c) acc[r][c] = 0.0f;
#pragma unroll 8
    for (int k = 0; k < DIM; ++k) {
        float a[TM], b[TM];
#pragma unroll
        for (int r = 0; r < TM; ++r) a[r] = sA[ty + BS * r][k];
#pragma unroll
        for (int c = 0; c < TM; ++c) b[c] = sB[tx + BS * c][k];
#pragma unroll
        for (int r = 0; r < TM; ++r)
#pragma unroll
            for (int c = 0; c < TM; ++c) {
                const float d = a[r] - b[c];
                acc[r][c] = fmaf(d, d, acc[r][c]);
            }
    }
#pragma unroll
    for (int r = 0; r < TM; ++r) {
        const int i = i0 + ty + BS * r;
        if (i >= N) continue;
#pragma unroll
        for (int c = 0; c < TM; ++c) {
            const int j = j0 + tx + BS * c;
            if (j < M) D[(size_t)i * M + j] = acc[r][c];
        }
    }
}

extern "C" void launch_pairwise_l2(const float* A, const float* B, float* D, int N, int M, cudaStream_t stream)
{
    dim3 block(BS, BS);
    dim3 grid((M + TILE - 1) / TILE, (N + TILE - 1) / TILE);
    pairwise_l2<<<grid, block, 0, stream>>>(A, B, D, N, M);
}
