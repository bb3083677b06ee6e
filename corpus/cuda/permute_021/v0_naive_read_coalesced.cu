// Batched transpose out[b][k][j] = in[b][j][k] (permute(0, 2, 1)). Naive:
// threadIdx.x runs along k, so reads are coalesced and writes are strided by J floats.
#include <cuda_runtime.h>

#define BX 32
#define BY 8

// kforecast: B = 64; J = 512; K = 512; in: f32[B, J, K] randn; out: f32[B, K, J]; rtol = 0; atol = 0
__global__ void permute_021(const float* __restrict__ in, float* __restrict__ out, int B, int J, int K)
{
    const int k = blockIdx.x * BX + threadIdx.x;
    const int j = blockIdx.y * BY + threadIdx.y;
    const int b = blockIdx.z;
    if (j < J && k < K) out[((size_t)b * K + k) * J + j] = in[((size_t)b * J + j) * K + k];
}

extern "C" void launch_permute_021(const float* in, float* out, int B, int J, int K, cudaStream_t stream)
{
    dim3 block(BX, BY);
    dim3 grid((K + BX - 1) / BX, (J + BY - 1) / BY, B);
    permute_021<<<grid, block, 0, stream>>>(in, out, B, J, K);
}
