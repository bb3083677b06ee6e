// k-means assignment: label of the nearest of K = 64 centroids (D = 16, squared
// Euclidean distance, ties to the lowest index) for each point. Naive: one thread
// per point, point and centroid coordinates read from global memory in the loops.
#include <cuda_runtime.h>

#define THREADS 256
#define D 16
#define K 64

// kforecast: n = 1 << 20; pts: f32[n, 16] randn; cent: f32[64, 16] randn; labels: i32[n]; rtol = 0; atol = 0
__global__ void kmeans_assign(const float* __restrict__ pts, const float* __restrict__ cent, int* __restrict__ labels, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float best = INFINITY;
    int best_k = 0;
    for (int k = 0; k < K; ++k) {
        float d = 0.0f;
        for (int j = 0; j < D; ++j) {
            const float t = pts[(size_t)i * D + j] - cent[k * D + j];
            d = fmaf(t, t, d);
        }
        if (d < best) {
            best = d;
            best_k = k;
        }
    }
    labels[i] = best_k;
}

extern "C" void launch_kmeans_assign(const float* pts, const float* cent, int* labels, int n, cudaStream_t stream)
{
    kmeans_assign<<<(n + THREADS - 1) / THREADS, THREADS, 0, stream>>>(pts, cent, labels, n);
}
