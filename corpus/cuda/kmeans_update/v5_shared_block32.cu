// k-means update: per-block shared privatisation, one point per thread, in tiny 32-thread blocks (8x as many blocks, each zeroing and flushing its bins).
#include <cuda_runtime.h>

#define THREADS 32
#define K 64
#define D 8

// kforecast: n = 1 << 22; points: f32[n, 8] randn; assign: i32[n] randint(0,64); sums: f32[64, 8] zeros; counts: i32[64] zeros; rtol = 1e-3; atol = 0.05
__global__ void __launch_bounds__(THREADS)
kmeans_update(const float* __restrict__ points, const int* __restrict__ assign,
              float* __restrict__ sums, int* __restrict__ counts, int n)
{
    __shared__ float s_sums[K * D];
    __shared__ int s_counts[K];
    for (int b = threadIdx.x; b < K * D; b += THREADS) s_sums[b] = 0.0f;
    for (int b = threadIdx.x; b < K; b += THREADS) s_counts[b] = 0;
    __syncthreads();
    const int i = blockIdx.x * THREADS + threadIdx.x;
    if (i < n) {
        const int k = assign[i];
        for (int d = 0; d < D; ++d)
            atomicAdd(&s_sums[k * D + d], points[(size_t)i * D + d]);
        atomicAdd(&s_counts[k], 1);
    }
    __syncthreads();
    for (int b = threadIdx.x; b < K * D; b += THREADS)
        if (s_counts[b / D] != 0) atomicAdd(&sums[b], s_sums[b]);
    for (int b = threadIdx.x; b < K; b += THREADS)
        if (s_counts[b] != 0) atomicAdd(&counts[b], s_counts[b]);
}

extern "C" void launch_kmeans_update(const float* points, const int* assign, float* sums, int* counts, int n,
                                     cudaStream_t stream)
{
    kmeans_update<<<(n + THREADS - 1) / THREADS, THREADS, 0, stream>>>(points, assign, sums, counts, n);
}
