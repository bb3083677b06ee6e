// Byte histogram with a private 256-bin histogram per block in shared memory;
// blocks merge into the global bins at the end.
#include <cstdio>
#include <cuda_runtime.h>

#define NBINS 256
#define THREADS 256
#define BLOCKS_PER_SM 8
#define GRID_STRIDE_LOOP(i, n) \
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < (n); i += (long long)gridDim.x * blockDim.x)
#define FOR_BINS(b) for (int b = threadIdx.x; b < NBINS; b += blockDim.x)
#define CUDA_CHECK(x)                                                                          \
    do {                                                                                       \
        cudaError_t err_ = (x);                                                                \
        if (err_ != cudaSuccess) {                                                             \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(err_)); \
            return (int)err_;                                                                  \
        }                                                                                      \
    } while (0)

__global__ void histo_smem_private(const unsigned char* __restrict__ data, unsigned int* bins, long long n)
{
    __shared__ unsigned int local[NBINS];
    FOR_BINS(b) local[b] = 0;
    __syncthreads();
    GRID_STRIDE_LOOP(i, n)
        atomicAdd(&local[data[i]], 1u);
    __syncthreads();
    FOR_BINS(b)
    {
        if (local[b]) atomicAdd(&bins[b], local[b]);
    }
}

extern "C" int histogram_u8(const unsigned char* data, unsigned int* bins, long long n)
{
    int dev = 0, sms = 0;
    CUDA_CHECK(cudaGetDevice(&dev));
    CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    CUDA_CHECK(cudaMemset(bins, 0, NBINS * sizeof(unsigned int)));
    histo_smem_private<<<sms * BLOCKS_PER_SM, THREADS>>>(data, bins, n);
    CUDA_CHECK(cudaGetLastError());
    return 0;
}
