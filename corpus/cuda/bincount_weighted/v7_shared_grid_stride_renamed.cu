// Weighted bincount: the shared grid-stride version with renamed variables, the weight loaded
// before the bin index and the stride hoisted; same 4 x 132 blocks of 512 threads.
#include <cuda_runtime.h>

#define BLOCK    512
#define NBINS    1024
#define SM_COUNT 132

// kforecast: n = 1 << 24; values: i32[n] randint(0,1024); weights: f32[n] rand; out: f32[1024] zeros; rtol = 1e-3; atol = 1e-2
__global__ void __launch_bounds__(BLOCK)
bincount_weighted(const int* __restrict__ values, const float* __restrict__ weights, float* __restrict__ out, int n)
{
    __shared__ float hist_s[NBINS];
    const int step = BLOCK * gridDim.x;
    for (int k = threadIdx.x; k < NBINS; k += BLOCK) hist_s[k] = 0.0f;
    __syncthreads();
    for (int e = threadIdx.x + BLOCK * blockIdx.x; e < n; e += step) {
        const float wt = weights[e];
        const int bin = values[e];
        atomicAdd(hist_s + bin, wt);
    }
    __syncthreads();
    for (int k = threadIdx.x; k < NBINS; k += BLOCK) {
        const float s = hist_s[k];
        if (s != 0.0f) atomicAdd(out + k, s);
    }
}

extern "C" void launch_bincount_weighted(const int* values, const float* weights, float* out, int n, cudaStream_t stream)
{
    bincount_weighted<<<4 * SM_COUNT, BLOCK, 0, stream>>>(values, weights, out, n);
}
