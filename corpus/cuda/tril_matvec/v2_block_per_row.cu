// y = L x, lower-triangular L stored dense: one block of 256 threads per row, strided
// partial sums, warp shuffles then a shared-memory step across the 8 warps.
#include <cuda_runtime.h>

#define THREADS   256
#define WARPS     (THREADS / 32)
#define FULL_MASK 0xffffffffu

// kforecast: n = 8192; L: f32[n, n] randn; x: f32[n] randn; y: f32[n]; rtol = 1e-3; atol = 1e-2
__global__ void tril_matvec(const float* __restrict__ L, const float* __restrict__ x, float* __restrict__ y, int n)
{
    __shared__ float partial[WARPS];
    const int i = blockIdx.x;
    const int t = threadIdx.x;
    const float* row = L + (size_t)i * n;
    float acc = 0.0f;
    for (int j = t; j <= i; j += THREADS) acc += row[j] * x[j];
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) acc += __shfl_xor_sync(FULL_MASK, acc, o);
    if ((t & 31) == 0) partial[t >> 5] = acc;
    __syncthreads();
    if (t < 32) {
        acc = t < WARPS ? partial[t] : 0.0f;
#pragma unroll
        for (int o = 16; o > 0; o >>= 1) acc += __shfl_xor_sync(FULL_MASK, acc, o);
        if (t == 0) y[i] = acc;
    }
}

extern "C" void launch_tril_matvec(const float* L, const float* x, float* y, int n, cudaStream_t stream)
{
    tril_matvec<<<n, THREADS, 0, stream>>>(L, x, y, n);
}
