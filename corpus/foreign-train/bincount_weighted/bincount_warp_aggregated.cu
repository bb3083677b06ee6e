/* Weighted bincount with warp-aggregated atomics: the warp takes its distinct bins one at a
 * time (ballot on "same bin as the lowest pending lane"), sums that group's weights with
 * shuffles and lets one lane issue the global atomicAdd. Pays off when neighbouring
 * elements share a bin. */
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
#define WARP_SIZE 32
#define FULL_MASK 0xffffffffu
#define LANE_ID (threadIdx.x & (WARP_SIZE - 1))
#define LOWEST_LANE(mask) (__ffs(mask) - 1)
#define NO_BIN (-1)
#define THREADS 256

__global__ void bincount_warp_agg(const int* __restrict__ idx, const float* __restrict__ w,
                                  float* __restrict__ bins, long long n) {
    // every lane stays for the shuffles: lanes past the end carry NO_BIN and weight 0
    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    int bin = i < n ? idx[i] : NO_BIN;
    float v = i < n ? w[i] : 0.f;

    unsigned todo = __ballot_sync(FULL_MASK, bin != NO_BIN);  // warp-uniform
    while (todo) {
        int leader = LOWEST_LANE(todo);
        int group_bin = __shfl_sync(FULL_MASK, bin, leader);
        bool mine = (bin == group_bin);
        unsigned group = __ballot_sync(FULL_MASK, mine);
        float part = mine ? v : 0.f;
#pragma unroll
        for (int off = WARP_SIZE / 2; off > 0; off >>= 1)
            part += __shfl_xor_sync(FULL_MASK, part, off);
        if (LANE_ID == leader) atomicAdd(&bins[group_bin], part);
        todo &= ~group;
    }
}

extern "C" int bincount_weighted(const int* idx, const float* w, float* out, long long n,
                                 int nbins) {
    if (nbins <= 0) return (int)cudaErrorInvalidValue;
    CUDA_CHECK(cudaMemsetAsync(out, 0, nbins * sizeof(float)));
    if (n <= 0) return 0;
    bincount_warp_agg<<<(unsigned)DIV_UP(n, THREADS), THREADS>>>(idx, w, out, n);
    CUDA_CHECK(cudaGetLastError());
    return 0;
}
