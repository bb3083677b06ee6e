// out[i][j] = sum_d |X[i][d] - Y[j][d]|: a 16x16 block computes a 64x64 tile, each thread 4x4
// outputs (rows ty + 16r, columns tx + 16c); D is walked in chunks of 16 staged in padded
// shared tiles, so every shared value loaded feeds 4 differences.
#include <cuda_runtime.h>

#define D    64
#define BS   16
#define TM   4
#define TILE (BS * TM)
#define KT   16

// kforecast: M = 4096; N = 4096; X: f32[M, 64] randn; Y: f32[N, 64] randn; out: f32[M, N]; rtol = 1e-4; atol = 1e-3
__global__ void __launch_bounds__(BS * BS)
cdist_l1(const float* __restrict__ X, const float* __restrict__ Y, float* __restrict__ out, int M, int N)
{
    __shared__ float sX[TILE][KT + 1];
    __shared__ float sY[TILE][KT + 1];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int tid = ty * BS + tx;
    const int i0 = blockIdx.y * TILE, j0 = blockIdx.x * TILE;
    float acc[TM][TM];
#pragma unroll
    for (int r = 0; r < TM; ++r)
#pragma unroll
        for (int c = 0; c < TM; ++c) acc[r][c] = 0.0f;
    for (int k0 = 0; k0 < D; k0 += KT) {
#pragma unroll
        for (int q = 0; q < (TILE * KT) / (BS * BS); ++q) {
            const int e = tid + q * BS * BS;
            const int r = e / KT, k = e % KT;
            sX[r][k] = (i0 + r < M) ? X[(size_t)(i0 + r) * D + k0 + k] : 0.0f;
            sY[r][k] = (j0 + r < N) ? Y[(size_t)(j0 + r) * D + k0 + k] : 0.0f;
        }
        __syncthreads();
#pragma unroll
        for (int k = 0; k < KT; ++k) {
            float a[TM], b[TM];
#pragma unroll
            for (int r = 0; r < TM; ++r) a[r] = sX[ty + BS * r][k];
#pragma unroll
            for (int c = 0; c < TM; ++c) b[c] = sY[tx + BS * c][k];
#pragma unroll
            for (int r = 0; r < TM; ++r)
#pragma unroll
                for (int c = 0; c < TM; ++c) acc[r][c] += fabsf(a[r] - b[c]);
        }
        __syncthreads();
    }
#pragma unroll
    for (int r = 0; r < TM; ++r) {
        const int i = i0 + ty + BS * r;
        if (i >= M) continue;
#pragma unroll
        for (int c = 0; c < TM; ++c) {
            const int j = j0 + tx + BS * c;
            if (j < N) out[(size_t)i * N + j] = acc[r][c];
        }
    }
}

extern "C" void launch_cdist_l1(const float* X, const float* Y, float* out, int M, int N, cudaStream_t stream)
{
    dim3 block(BS, BS);
    dim3 grid((N + TILE - 1) / TILE, (M + TILE - 1) / TILE);
    cdist_l1<<<grid, block, 0, stream>>>(X, Y, out, M, N);
}
