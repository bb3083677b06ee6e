// k-means update: global atomics, warp-aggregated: lanes with the same cluster (__match_any_sync) sum their points by shuffles and only the lowest peer issues the D + 1 atomics.
#include <cuda_runtime.h>

#define THREADS   256
#define K 64
#define D 8
#define FULL_MASK 0xffffffffu

// Sums v[0..D) over the lanes in peers; the totals are valid in the lowest lane of peers (all lanes call).
__device__ __forceinline__ void reduce_peers(unsigned peers, float v[D])
{
    const int lane = threadIdx.x & 31;
    int rank = __popc(peers & ((1u << lane) - 1u));
    unsigned rest = peers & ~((2u << lane) - 1u);
    while (__any_sync(FULL_MASK, rest != 0)) {
        const int next = __ffs(rest);
        const int src = next ? next - 1 : lane;
#pragma unroll
        for (int d = 0; d < D; ++d) {
            const float t = __shfl_sync(FULL_MASK, v[d], src);
            if (next) v[d] += t;
        }
        rest &= ~__ballot_sync(FULL_MASK, rank & 1);
        rank >>= 1;
    }
}

// kforecast: n = 1 << 22; points: f32[n, 8] randn; assign: i32[n] randint(0,64); sums: f32[64, 8] zeros; counts: i32[64] zeros; rtol = 1e-3; atol = 0.05
__global__ void __launch_bounds__(THREADS)
kmeans_update(const float* __restrict__ points, const int* __restrict__ assign,
              float* __restrict__ sums, int* __restrict__ counts, int n)
{
    const int i = blockIdx.x * THREADS + threadIdx.x;
    const bool active = i < n;
    const int k = active ? assign[i] : -1;
    float v[D];
#pragma unroll
    for (int d = 0; d < D; ++d) v[d] = active ? points[(size_t)i * D + d] : 0.0f;
    const unsigned peers = __match_any_sync(FULL_MASK, k);
    reduce_peers(peers, v);
    const int leader = __ffs(peers) - 1;
    if (active && (threadIdx.x & 31) == leader) {
#pragma unroll
        for (int d = 0; d < D; ++d) atomicAdd(&sums[k * D + d], v[d]);
        atomicAdd(&counts[k], __popc(peers));
    }
}

extern "C" void launch_kmeans_update(const float* points, const int* assign, float* sums, int* counts, int n,
                                     cudaStream_t stream)
{
    kmeans_update<<<(n + THREADS - 1) / THREADS, THREADS, 0, stream>>>(points, assign, sums, counts, n);
}
