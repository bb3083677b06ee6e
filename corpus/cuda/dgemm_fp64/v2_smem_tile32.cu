// C = A @ B in fp64 with 32x32 shared-memory tiles: 1024-thread blocks stage a 32x32 tile of A and of B
// per K step (16 KB of shared memory) and do 32 FMAs per thread from shared memory.
#include <cuda_runtime.h>

#define TS 32

// kforecast: M = 1024; N = 1024; K = 1024; A: f64[M, K] randn; B: f64[K, N] randn; C: f64[M, N] zeros; rtol = 1e-9; atol = 1e-9
__global__ void __launch_bounds__(TS * TS)
dgemm(int M, int N, int K, const double* __restrict__ A, const double* __restrict__ B, double* __restrict__ C)
{
    __shared__ double As[TS][TS];
    __shared__ double Bs[TS][TS];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int col = blockIdx.x * TS + tx;
    const int row = blockIdx.y * TS + ty;
    double acc = 0.0;
    for (int k0 = 0; k0 < K; k0 += TS) {
        As[ty][tx] = (row < M && k0 + tx < K) ? A[(size_t)row * K + k0 + tx] : 0.0;
        Bs[ty][tx] = (k0 + ty < K && col < N) ? B[(size_t)(k0 + ty) * N + col] : 0.0;
        __syncthreads();
#pragma unroll
        for (int k = 0; k < TS; ++k) acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    if (row < M && col < N) C[(size_t)row * N + col] = acc;
}

extern "C" void launch_dgemm(int M, int N, int K, const double* A, const double* B, double* C, cudaStream_t stream)
{
    dim3 block(TS, TS);
    dim3 grid((N + TS - 1) / TS, (M + TS - 1) / TS);
    dgemm<<<grid, block, 0, stream>>>(M, N, K, A, B, C);
}
