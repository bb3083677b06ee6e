// Batched transpose out[b][k][j] = in[b][j][k]. A 32x32 block stages a 32x32
// tile in shared memory padded to 33 columns, so the column read is conflict-free.
#include <cuda_runtime.h>

#define TILE 32

// kforecast: B = 64; J = 512; K = 512; in: f32[B, J, K] randn; out: f32[B, K, J]; rtol = 0; atol = 0
__global__ void __launch_bounds__(TILE * TILE)
permute_021(const float* __restrict__ in, float* __restrict__ out, int B, int J, int K)
{
    __shared__ float tile[TILE][TILE + 1];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int b = blockIdx.z;
    const int k0 = blockIdx.x * TILE, j0 = blockIdx.y * TILE;
    const float* src = in + (size_t)b * J * K;
    float* dst = out + (size_t)b * K * J;
    if (j0 + ty < J && k0 + tx < K) tile[ty][tx] = src[(size_t)(j0 + ty) * K + k0 + tx];
    __syncthreads();
    if (k0 + ty < K && j0 + tx < J) dst[(size_t)(k0 + ty) * J + j0 + tx] = tile[tx][ty];
}

extern "C" void launch_permute_021(const float* in, float* out, int B, int J, int K, cudaStream_t stream)
{
    dim3 block(TILE, TILE);
    dim3 grid((K + TILE - 1) / TILE, (J + TILE - 1) / TILE, B);
    permute_021<<<grid, block, 0, stream>>>(in, out, B, J, K);
}
