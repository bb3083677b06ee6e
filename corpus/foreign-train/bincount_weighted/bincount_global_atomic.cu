/* Weighted bincount, one element per thread, atomicAdd straight into the global bins. */
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
#define GLOBAL_TID ((long long)blockIdx.x * blockDim.x + threadIdx.x)
#define THREADS 256

__global__ void bincount_atomic_global(const int* __restrict__ idx, const float* __restrict__ w,
                                       float* __restrict__ bins, long long n) {
    long long i = GLOBAL_TID;
    if (i < n) atomicAdd(&bins[idx[i]], w[i]);
}

extern "C" int bincount_weighted(const int* idx, const float* w, float* out, long long n,
                                 int nbins) {
    if (nbins <= 0) return (int)cudaErrorInvalidValue;
    CUDA_CHECK(cudaMemsetAsync(out, 0, nbins * sizeof(float)));
    if (n <= 0) return 0;
    bincount_atomic_global<<<(unsigned)DIV_UP(n, THREADS), THREADS>>>(idx, w, out, n);
    CUDA_CHECK(cudaGetLastError());
    return 0;
}
