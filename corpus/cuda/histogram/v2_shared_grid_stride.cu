// 256-bin histogram: shared-memory privatisation over a grid-stride loop on a
// fixed grid (4 blocks of 256 per SM), so each block merges 256 counts once.
#include <cuda_runtime.h>

#define THREADS 256
#define BINS    256
#define NUM_SMS 132

// kforecast: n = 1 << 22; data: u8[n] randint(0,256); hist: u32[256] zeros; rtol = 0; atol = 0
__global__ void histogram256(const unsigned char* __restrict__ data, unsigned int* __restrict__ hist, int n)
{
    __shared__ unsigned int local[BINS];
    for (int b = threadIdx.x; b < BINS; b += blockDim.x) local[b] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        atomicAdd(&local[data[i]], 1u);
    __syncthreads();
    for (int b = threadIdx.x; b < BINS; b += blockDim.x)
        if (local[b]) atomicAdd(&hist[b], local[b]);
}

extern "C" void launch_histogram256(const unsigned char* data, unsigned int* hist, int n, cudaStream_t stream)
{
    histogram256<<<NUM_SMS * 4, THREADS, 0, stream>>>(data, hist, n);
}
