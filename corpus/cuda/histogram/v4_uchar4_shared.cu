// 256-bin histogram: 32-bit loads of 4 bytes (uchar4) in a grid-stride loop,
// shared-memory privatisation, scalar tail for n % 4, one merge per block.
#include <cuda_runtime.h>

#define THREADS 512
#define BINS    256
#define NUM_SMS 132

// kforecast: n = 1 << 22; data: u8[n] randint(0,256); hist: u32[256] zeros; rtol = 0; atol = 0
__global__ void __launch_bounds__(THREADS)
histogram256(const unsigned char* __restrict__ data, unsigned int* __restrict__ hist, int n)
{
    __shared__ unsigned int local[BINS];
    for (int b = threadIdx.x; b < BINS; b += THREADS) local[b] = 0;
    __syncthreads();
    const uchar4* d4 = reinterpret_cast<const uchar4*>(data);
    const int n4 = n / 4;
    const int tid = blockIdx.x * THREADS + threadIdx.x;
    const int stride = gridDim.x * THREADS;
    for (int i = tid; i < n4; i += stride) {
        const uchar4 v = d4[i];
        atomicAdd(&local[v.x], 1u);
        atomicAdd(&local[v.y], 1u);
        atomicAdd(&local[v.z], 1u);
        atomicAdd(&local[v.w], 1u);
    }
    for (int i = n4 * 4 + tid; i < n; i += stride) atomicAdd(&local[data[i]], 1u);
    __syncthreads();
    for (int b = threadIdx.x; b < BINS; b += THREADS)
        if (local[b]) atomicAdd(&hist[b], local[b]);
}

extern "C" void launch_histogram256(const unsigned char* data, unsigned int* hist, int n, cudaStream_t stream)
{
    histogram256<<<NUM_SMS * 2, THREADS, 0, stream>>>(data, hist, n);
}
