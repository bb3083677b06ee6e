// 256-bin histogram: each block builds a private histogram in shared memory with
// shared atomics and merges it with 256 global atomics. One byte per thread, so
// there are n/256 blocks and as many global merges as inputs.
#include <cuda_runtime.h>

#define THREADS 256
#define BINS    256

// kforecast: n = 1 << 22; data: u8[n] randint(0,256); hist: u32[256] zeros; rtol = 0; atol = 0
__global__ void histogram256(const unsigned char* __restrict__ data, unsigned int* __restrict__ hist, int n)
{
    __shared__ unsigned int local[BINS];
    local[threadIdx.x] = 0;
    __syncthreads();
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(&local[data[i]], 1u);
    __syncthreads();
    const unsigned int c = local[threadIdx.x];
    if (c) atomicAdd(&hist[threadIdx.x], c);
}

extern "C" void launch_histogram256(const unsigned char* data, unsigned int* hist, int n, cudaStream_t stream)
{
    histogram256<<<(n + THREADS - 1) / THREADS, THREADS, 0, stream>>>(data, hist, n);
}
