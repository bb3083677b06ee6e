/* Weighted bincount with block-private bins in shared memory: every block accumulates its
 * share of the input with shared-memory atomics, then adds its non-zero bins to the
 * global result. Needs nbins * 4 bytes of shared memory (up to 48 KiB). */
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
#define FOR_BLOCK_STRIDE(b, nb) for (int b = threadIdx.x; b < (nb); b += blockDim.x)
#define THREADS 512
#define BLOCKS_PER_SM 4
#define MAX_SMEM_BINS (48 * 1024 / 4)

__global__ void bincount_smem_priv(const int* __restrict__ idx, const float* __restrict__ w,
                                   float* __restrict__ bins, long long n, int nbins) {
    extern __shared__ float s_bins[];
    FOR_BLOCK_STRIDE(b, nbins) s_bins[b] = 0.f;
    __syncthreads();
    FOR_GRID_STRIDE(i, n) atomicAdd(&s_bins[idx[i]], w[i]);
    __syncthreads();
    FOR_BLOCK_STRIDE(b, nbins) {
        float v = s_bins[b];
        if (v != 0.f) atomicAdd(&bins[b], v);
    }
}

extern "C" int bincount_weighted(const int* idx, const float* w, float* out, long long n,
                                 int nbins) {
    static int num_sms = 0;
    if (nbins <= 0 || nbins > MAX_SMEM_BINS) return (int)cudaErrorInvalidValue;
    if (!num_sms) {
        int dev;
        CUDA_CHECK(cudaGetDevice(&dev));
        CUDA_CHECK(cudaDeviceGetAttribute(&num_sms, cudaDevAttrMultiProcessorCount, dev));
    }
    CUDA_CHECK(cudaMemsetAsync(out, 0, nbins * sizeof(float)));
    if (n <= 0) return 0;
    long long blocks = MIN(DIV_UP(n, THREADS), (long long)num_sms * BLOCKS_PER_SM);
    bincount_smem_priv<<<(unsigned)blocks, THREADS, nbins * sizeof(float)>>>(idx, w, out, n,
                                                                             nbins);
    CUDA_CHECK(cudaGetLastError());
    return 0;
}
