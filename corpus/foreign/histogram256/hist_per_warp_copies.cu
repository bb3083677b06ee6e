// Byte histogram with one 256-bin copy per warp in shared memory (fewer threads
// contend for a bin), 4 bytes per load; the copies are summed per block at the end.
#include <cstdio>
#include <cuda_runtime.h>

#define NBINS 256
#define WARPS 8
#define THREADS (WARPS * 32)
#define BLOCKS_PER_SM 8
#define CUDA_CHECK(x)                                                                          \
    do {                                                                                       \
        cudaError_t err_ = (x);                                                                \
        if (err_ != cudaSuccess) {                                                             \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(err_)); \
            return (int)err_;                                                                  \
        }                                                                                      \
    } while (0)
#define BYTE(w, k) (((w) >> (8 * (k))) & 0xFFu)

__global__ void histo_per_warp_copies(const unsigned int* __restrict__ words, const unsigned char* __restrict__ tail,
                                      long long n4, int n_tail, unsigned int* bins)
{
    __shared__ unsigned int copies[WARPS][NBINS];
    for (int i = threadIdx.x; i < WARPS * NBINS; i += THREADS) (&copies[0][0])[i] = 0;
    __syncthreads();
    unsigned int* mine = copies[threadIdx.x / 32];
    for (long long i = (long long)blockIdx.x * THREADS + threadIdx.x; i < n4; i += (long long)gridDim.x * THREADS) {
        unsigned int w = words[i];
        atomicAdd(&mine[BYTE(w, 0)], 1u);
        atomicAdd(&mine[BYTE(w, 1)], 1u);
        atomicAdd(&mine[BYTE(w, 2)], 1u);
        atomicAdd(&mine[BYTE(w, 3)], 1u);
    }
    if (blockIdx.x == 0 && threadIdx.x < n_tail) atomicAdd(&mine[tail[threadIdx.x]], 1u);
    __syncthreads();
    for (int b = threadIdx.x; b < NBINS; b += THREADS) {
        unsigned int s = 0;
#pragma unroll
        for (int w = 0; w < WARPS; ++w) s += copies[w][b];
        if (s) atomicAdd(&bins[b], s);
    }
}

extern "C" int histogram_u8(const unsigned char* data, unsigned int* bins, long long n)
{
    if ((reinterpret_cast<size_t>(data) & 3) != 0) return (int)cudaErrorMisalignedAddress;
    int dev = 0, sms = 0;
    CUDA_CHECK(cudaGetDevice(&dev));
    CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    CUDA_CHECK(cudaMemset(bins, 0, NBINS * sizeof(unsigned int)));
    const long long n4 = n / 4;
    histo_per_warp_copies<<<sms * BLOCKS_PER_SM, THREADS>>>(reinterpret_cast<const unsigned int*>(data),
                                                            data + n4 * 4, n4, (int)(n % 4), bins);
    CUDA_CHECK(cudaGetLastError());
    return 0;
}
