// Stream compaction of the positive values with warp-aggregated atomics: the warp votes
// (__ballot_sync), its first active lane reserves popc(ballot) slots with one atomicAdd and
// broadcasts the base, every lane writes at base + its rank among the voters.
#include <cstdio>
#include <cuda_runtime.h>

#define CHECK_CUDA(x)                                                                  \
    do {                                                                               \
        cudaError_t s_ = (x);                                                          \
        if (s_ != cudaSuccess) {                                                       \
            fprintf(stderr, "%s:%d CUDA error: %s\n", __FILE__, __LINE__, cudaGetErrorString(s_)); \
            return (int)s_;                                                            \
        }                                                                              \
    } while (0)

#define FULL_MASK 0xffffffffu

__device__ __forceinline__ unsigned lane_id() { return threadIdx.x & 31u; }

__global__ void select_positive_warp_agg(const float* __restrict__ src, float* __restrict__ dst,
                                         int* __restrict__ n_out, long long n) {
    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    const float v = (i < n) ? src[i] : 0.0f;
    const bool keep = v > 0.0f;
    const unsigned vote = __ballot_sync(FULL_MASK, keep);
    if (vote == 0u) return;
    const unsigned lane = lane_id();
    const int leader = __ffs(vote) - 1;
    int base = 0;
    if ((int)lane == leader) base = atomicAdd(n_out, __popc(vote));
    base = __shfl_sync(FULL_MASK, base, leader);
    if (keep) {
        const int rank = __popc(vote & ((1u << lane) - 1u));
        dst[base + rank] = v;
    }
}

extern "C" int compact_positive(const float* in, float* out, int* d_count, long long n) {
    CHECK_CUDA(cudaMemsetAsync(d_count, 0, sizeof(int)));
    if (n <= 0) return 0;
    const int block = 256;  // a multiple of 32: every warp is full, the tail lanes vote false
    const long long grid = (n + block - 1) / block;
    select_positive_warp_agg<<<(unsigned)grid, block>>>(in, out, d_count, n);
    CHECK_CUDA(cudaGetLastError());
    return 0;
}
