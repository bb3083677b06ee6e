// Batched transpose out[b][k][j] = in[b][j][k], J % 4 == 0 and K % 4 == 0. 8x32
// threads per 32x32 tile: each thread reads one float4 along k, scatters it into a
// padded [k][j] shared tile, then gathers 4 consecutive j and writes one float4.
#include <cuda_runtime.h>

#define TILE 32
#define VX (TILE / 4)

// kforecast: B = 64; J = 512; K = 512; in: f32[B, J, K] randn; out: f32[B, K, J]; rtol = 0; atol = 0
__global__ void __launch_bounds__(VX * TILE)
permute_021(const float* __restrict__ in, float* __restrict__ out, int B, int J, int K)
{
    __shared__ float tile[TILE][TILE + 1];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int b = blockIdx.z;
    const int k0 = blockIdx.x * TILE, j0 = blockIdx.y * TILE;
    const float* src = in + (size_t)b * J * K;
    float* dst = out + (size_t)b * K * J;
    if (j0 + ty < J && k0 + 4 * tx < K) {
        const float4 v = *reinterpret_cast<const float4*>(src + (size_t)(j0 + ty) * K + k0 + 4 * tx);
        tile[4 * tx + 0][ty] = v.x;
        tile[4 * tx + 1][ty] = v.y;
        tile[4 * tx + 2][ty] = v.z;
        tile[4 * tx + 3][ty] = v.w;
    }
    __syncthreads();
    if (k0 + ty < K && j0 + 4 * tx < J) {
        const float4 v = make_float4(tile[ty][4 * tx + 0], tile[ty][4 * tx + 1], tile[ty][4 * tx + 2], tile[ty][4 * tx + 3]);
        *reinterpret_cast<float4*>(dst + (size_t)(k0 + ty) * J + j0 + 4 * tx) = v;
    }
}

extern "C" void launch_permute_021(const float* in, float* out, int B, int J, int K, cudaStream_t stream)
{
    dim3 block(VX, TILE);
    dim3 grid((K + TILE - 1) / TILE, (J + TILE - 1) / TILE, B);
    permute_021<<<grid, block, 0, stream>>>(in, out, B, J, K);
}
