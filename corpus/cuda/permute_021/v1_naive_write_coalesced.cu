// Batched transpose out[b][k][j] = in[b][j][k]. Naive: threadIdx.x runs along j,
// so writes are coalesced and reads are strided by K floats.
#include <cuda_runtime.h>

#define BX 32
#define BY 8

// kforecast: B = 64; J = 512; K = 512; in: f32[B, J, K] randn; out: f32[B, K, J]; rtol = 0; atol = 0
__global__ void permute_021(const float* __restrict__ in, float* __restrict__ out, int B, int J, int K)
{
    const int j = blockIdx.x * BX + threadIdx.x;
    const int k = blockIdx.y * BY + threadIdx.y;
    const int b = blockIdx.z;
    if (j < J && k < K) out[((size_t)b * K + k) * J + j] = in[((size_t)b * J + j) * K + k];
}

extern "C" void launch_permute_021(const float* in, float* out, int B, int J, int K, cudaStream_t stream)
{
    dim3 block(BX, BY);
    dim3 grid((J + BX - 1) / BX, (K + BY - 1) / BY, B);
    permute_021<<<grid, block, 0, stream>>>(in, out, B, J, K);
}
