/* Weighted bincount, global atomics from a grid-stride loop (grid sized from the SM count). */
#include <cstdio>
#include <cuda_runtime.h>

#define CUDA_CHECK(stmt)                                                          \
    do {                                                                          \
        cudaError_t e__ = (stmt);                                                 \
        if (e__ != cudaSuccess) {                                                 \
            fprintf(stderr, "[bincount] %s failed: %s\n", #stmt, cudaGetErrorString(e__)); \
            return (int)e__;                                                      \
        }                                                                         \
    } while (0)
#define DIV_UP(a, b) (((a) + (b) - 1) / (b))
#define MIN(a, b) ((a) < (b) ? (a) : (b))
#define FOR_GRID_STRIDE(i, n)                                                    \
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < (n); \
         i += (long long)gridDim.x * blockDim.x)
#define THREADS 256
#define BLOCKS_PER_SM 8

__global__ void bincount_gs(const int* __restrict__ idx, const float* __restrict__ w,
                            float* __restrict__ bins, long long n) {
    FOR_GRID_STRIDE(i, n) atomicAdd(bins + idx[i], w[i]);
}

extern "C" int bincount_weighted(const int* idx, const float* w, float* out, long long n,
                                 int nbins) {
    static int num_sms = 0;
    if (nbins <= 0) return (int)cudaErrorInvalidValue;
    if (!num_sms) {
        int dev;
        CUDA_CHECK(cudaGetDevice(&dev));
        CUDA_CHECK(cudaDeviceGetAttribute(&num_sms, cudaDevAttrMultiProcessorCount, dev));
    }
    CUDA_CHECK(cudaMemsetAsync(out, 0, nbins * sizeof(float)));
    if (n <= 0) return 0;
    long long blocks = MIN(DIV_UP(n, THREADS), (long long)num_sms * BLOCKS_PER_SM);
    bincount_gs<<<(unsigned)blocks, THREADS>>>(idx, w, out, n);
    CUDA_CHECK(cudaGetLastError());
    return 0;
}
