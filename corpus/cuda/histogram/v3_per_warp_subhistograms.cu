// 256-bin histogram: every warp has its own sub-histogram in shared memory (less
// contention between warps on the same bin), grid-stride loop, the sub-histograms
// are summed per bin and merged with one global atomic per bin per block.
#include <cuda_runtime.h>

#define THREADS 256
#define WARPS   (THREADS / 32)
#define BINS    256
#define NUM_SMS 132

// kforecast: n = 1 << 22; data: u8[n] randint(0,256); hist: u32[256] zeros; rtol = 0; atol = 0
__global__ void __launch_bounds__(THREADS)
histogram256(const unsigned char* __restrict__ data, unsigned int* __restrict__ hist, int n)
{
    __shared__ unsigned int sub[WARPS][BINS];
    for (int e = threadIdx.x; e < WARPS * BINS; e += THREADS) (&sub[0][0])[e] = 0;
    __syncthreads();
    unsigned int* mine = sub[threadIdx.x >> 5];
    for (int i = blockIdx.x * THREADS + threadIdx.x; i < n; i += gridDim.x * THREADS)
        atomicAdd(&mine[data[i]], 1u);
    __syncthreads();
    for (int b = threadIdx.x; b < BINS; b += THREADS) {
        unsigned int total = 0;
#pragma unroll
        for (int w = 0; w < WARPS; ++w) total += sub[w][b];
        if (total) atomicAdd(&hist[b], total);
    }
}

extern "C" void launch_histogram256(const unsigned char* data, unsigned int* hist, int n, cudaStream_t stream)
{
    histogram256<<<NUM_SMS * 2, THREADS, 0, stream>>>(data, hist, n);
}
