// k-means update step (K = 64 clusters, D = 8): per-cluster coordinate sums and point counts; naive, one thread per point, D + 1 global atomicAdds.
#include <cuda_runtime.h>

#define THREADS 256
#define K 64
#define D 8

// kforecast: n = 1 << 22; points: f32[n, 8] randn; assign: i32[n] randint(0,64); sums: f32[64, 8] zeros; counts: i32[64] zeros; rtol = 1e-3; atol = 0.05
__global__ void kmeans_update(const float* __restrict__ points, const int* __restrict__ assign,
                              float* __restrict__ sums, int* __restrict__ counts, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const int k = assign[i];
    for (int d = 0; d < D; ++d)
        atomicAdd(&sums[k * D + d], points[(size_t)i * D + d]);
    atomicAdd(&counts[k], 1);
}

extern "C" void launch_kmeans_update(const float* points, const int* assign, float* sums, int* counts, int n,
                                     cudaStream_t stream)
{
    kmeans_update<<<(n + THREADS - 1) / THREADS, THREADS, 0, stream>>>(points, assign, sums, counts, n);
}
