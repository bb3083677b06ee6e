// 256-bin histogram of bytes: one global atomicAdd per input byte.
#include <cuda_runtime.h>

#define THREADS 256

// kforecast: n = 1 << 22; data: u8[n] randint(0,256); hist: u32[256] zeros; rtol = 0; atol = 0
__global__ void histogram256(const unsigned char* __restrict__ data, unsigned int* __restrict__ hist, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(&hist[data[i]], 1u);
}

extern "C" void launch_histogram256(const unsigned char* data, unsigned int* hist, int n, cudaStream_t stream)
{
    histogram256<<<(n + THREADS - 1) / THREADS, THREADS, 0, stream>>>(data, hist, n);
}
