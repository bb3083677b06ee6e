// Batched transpose out[b][k][j] = in[b][j][k]. Same as v4 (padded 32x33 tile,
// 32x8 threads, 4 elements per thread each way) with renamed variables, the batch
// offset folded into the indices, and a counted loop instead of a strided one.
#include <cuda_runtime.h>

#define TDIM 32
#define BLOCK_ROWS 8

// kforecast: B = 64; J = 512; K = 512; in: f32[B, J, K] randn; out: f32[B, K, J]; rtol = 0; atol = 0
__global__ void __launch_bounds__(TDIM * BLOCK_ROWS)
permute_021(const float* __restrict__ in, float* __restrict__ out, int B, int J, int K)
{
    __shared__ float buf[TDIM][TDIM + 1];
    const int kin = blockIdx.x * TDIM + threadIdx.x;
    const int jout = blockIdx.y * TDIM + threadIdx.x;
    const size_t in_base = (size_t)blockIdx.z * J * K;
    const size_t out_base = (size_t)blockIdx.z * K * J;
#pragma unroll
    for (int i = 0; i < TDIM / BLOCK_ROWS; ++i) {
        const int row = threadIdx.y + i * BLOCK_ROWS;
        const int j = blockIdx.y * TDIM + row;
        if (kin < K && j < J) buf[row][threadIdx.x] = in[in_base + (size_t)j * K + kin];
    }
    __syncthreads();
#pragma unroll
    for (int i = 0; i < TDIM / BLOCK_ROWS; ++i) {
        const int row = threadIdx.y + i * BLOCK_ROWS;
        const int k = blockIdx.x * TDIM + row;
        if (jout < J && k < K) out[out_base + (size_t)k * J + jout] = buf[threadIdx.x][row];
    }
}

extern "C" void launch_permute_021(const float* in, float* out, int B, int J, int K, cudaStream_t stream)
{
    dim3 threads(TDIM, BLOCK_ROWS);
    dim3 blocks((K + TDIM - 1) / TDIM, (J + TDIM - 1) / TDIM, B);
    permute_021<<<blocks, threads, 0, stream>>>(in, out, B, J, K);
}
