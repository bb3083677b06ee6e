// Byte histogram, shared-memory bins per block, 16 bytes per load (uint4), the
// tail (n % 16 bytes) by the first block.
#include <cstdio>
#include <cuda_runtime.h>

#define NBINS 256
#define THREADS 512
#define BLOCKS_PER_SM 4
#define CUDA_CHECK(x)                                                                          \
    do {                                                                                       \
        cudaError_t err_ = (x);                                                                \
        if (err_ != cudaSuccess) {                                                             \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(err_)); \
            return (int)err_;                                                                  \
        }                                                                                      \
    } while (0)
#define COUNT_BYTE(w, k) atomicAdd(&local[((w) >> (8 * (k))) & 0xFFu], 1u)
#define COUNT_WORD(w) \
    do { COUNT_BYTE(w, 0); COUNT_BYTE(w, 1); COUNT_BYTE(w, 2); COUNT_BYTE(w, 3); } while (0)

__global__ void histo_smem_vec16(const uint4* __restrict__ data16, const unsigned char* __restrict__ tail,
                                 long long n16, int n_tail, unsigned int* bins)
{
    __shared__ unsigned int local[NBINS];
    for (int b = threadIdx.x; b < NBINS; b += blockDim.x) local[b] = 0;
    __syncthreads();
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n16; i += (long long)gridDim.x * blockDim.x) {
        uint4 v = data16[i];
        COUNT_WORD(v.x);
        COUNT_WORD(v.y);
        COUNT_WORD(v.z);
        COUNT_WORD(v.w);
    }
    if (blockIdx.x == 0 && threadIdx.x < n_tail) atomicAdd(&local[tail[threadIdx.x]], 1u);
    __syncthreads();
    for (int b = threadIdx.x; b < NBINS; b += blockDim.x)
        if (local[b]) atomicAdd(&bins[b], local[b]);
}

extern "C" int histogram_u8(const unsigned char* data, unsigned int* bins, long long n)
{
    if ((reinterpret_cast<size_t>(data) & 15) != 0) return (int)cudaErrorMisalignedAddress;
    int dev = 0, sms = 0;
    CUDA_CHECK(cudaGetDevice(&dev));
    CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    CUDA_CHECK(cudaMemset(bins, 0, NBINS * sizeof(unsigned int)));
    const long long n16 = n / 16;
    const int n_tail = (int)(n % 16);
    histo_smem_vec16<<<sms * BLOCKS_PER_SM, THREADS>>>(reinterpret_cast<const uint4*>(data), data + n16 * 16, n16,
                                                       n_tail, bins);
    CUDA_CHECK(cudaGetLastError());
    return 0;
}
