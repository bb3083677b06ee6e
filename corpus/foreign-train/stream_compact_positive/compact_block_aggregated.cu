// Stream compaction of the positive values, block-aggregated: each block takes a tile of
// THREADS * ITEMS elements, ranks its kept elements with warp ballots and a shared-memory
// scan of the warp totals, and reserves the block's slots with one global atomicAdd.
#include <cstdio>
#include <cuda_runtime.h>

#define CUDA_OK(call)                                                                    \
    do {                                                                                 \
        cudaError_t e = (call);                                                          \
        if (e != cudaSuccess) {                                                          \
            fprintf(stderr, "cuda: %s at %s:%d\n", cudaGetErrorString(e), __FILE__, __LINE__); \
            return (int)e;                                                               \
        }                                                                                \
    } while (0)

#define THREADS 256
#define ITEMS 4
#define WARPS (THREADS / 32)

__global__ void __launch_bounds__(THREADS)
compact_block_agg(const float* __restrict__ in, float* __restrict__ out, int* __restrict__ counter,
                  long long n) {
    __shared__ int warp_base[ITEMS][WARPS];
    __shared__ int block_base;
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const long long tile = (long long)blockIdx.x * THREADS * ITEMS;

    float v[ITEMS];
    unsigned vote[ITEMS];
#pragma unroll
    for (int k = 0; k < ITEMS; ++k) {
        const long long i = tile + (long long)k * THREADS + threadIdx.x;  // coalesced per item
        v[k] = (i < n) ? in[i] : 0.0f;
        vote[k] = __ballot_sync(0xffffffffu, v[k] > 0.0f);
        if (lane == 0) warp_base[k][warp] = __popc(vote[k]);
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        int running = 0;
        for (int k = 0; k < ITEMS; ++k)
            for (int w = 0; w < WARPS; ++w) {
                const int c = warp_base[k][w];
                warp_base[k][w] = running;
                running += c;
            }
        block_base = running ? atomicAdd(counter, running) : 0;
    }
    __syncthreads();
    const unsigned below = (1u << lane) - 1u;
#pragma unroll
    for (int k = 0; k < ITEMS; ++k) {
        if (v[k] > 0.0f) out[block_base + warp_base[k][warp] + __popc(vote[k] & below)] = v[k];
    }
}

extern "C" int compact_positive(const float* in, float* out, int* d_count, long long n) {
    CUDA_OK(cudaMemsetAsync(d_count, 0, sizeof(int)));
    if (n <= 0) return 0;
    const long long per_block = (long long)THREADS * ITEMS;
    const long long blocks = (n + per_block - 1) / per_block;
    compact_block_agg<<<(unsigned)blocks, THREADS>>>(in, out, d_count, n);
    CUDA_OK(cudaGetLastError());
    return 0;
}
