// Batched transpose out[b][k][j] = in[b][j][k]. Padded 32x33 shared tile, 32x8
// threads: each thread moves 4 elements of the tile on the way in and 4 on the way out.
#include <cuda_runtime.h>

#define TILE 32
#define ROWS 8

// kforecast: B = 64; J = 512; K = 512; in: f32[B, J, K] randn; out: f32[B, K, J]; rtol = 0; atol = 0
__global__ void __launch_bounds__(TILE * ROWS)
permute_021(const float* __restrict__ in, float* __restrict__ out, int B, int J, int K)
{
    __shared__ float tile[TILE][TILE + 1];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int b = blockIdx.z;
    const int k0 = blockIdx.x * TILE, j0 = blockIdx.y * TILE;
    const float* src = in + (size_t)b * J * K;
    float* dst = out + (size_t)b * K * J;
#pragma unroll
    for (int r = ty; r < TILE; r += ROWS)
        if (j0 + r < J && k0 + tx < K) tile[r][tx] = src[(size_t)(j0 + r) * K + k0 + tx];
    __syncthreads();
#pragma unroll
    for (int r = ty; r < TILE; r += ROWS)
        if (k0 + r < K && j0 + tx < J) dst[(size_t)(k0 + r) * J + j0 + tx] = tile[tx][r];
}

extern "C" void launch_permute_021(const float* in, float* out, int B, int J, int K, cudaStream_t stream)
{
    dim3 block(TILE, ROWS);
    dim3 grid((K + TILE - 1) / TILE, (J + TILE - 1) / TILE, B);
    permute_021<<<grid, block, 0, stream>>>(in, out, B, J, K);
}
