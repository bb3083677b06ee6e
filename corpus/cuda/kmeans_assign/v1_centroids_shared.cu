// k-means assignment (K = 64, D = 16, ties to the lowest index). One thread per
// point; the 64 x 16 centroids are staged in shared memory once per block (read
// as broadcasts), the point is still read from global memory in the loop.
#include <cuda_runtime.h>

#define THREADS 256
#define D 16
#define K 64

// kforecast: n = 1 << 20; pts: f32[n, 16] randn; cent: f32[64, 16] randn; labels: i32[n]; rtol = 0; atol = 0
__global__ void __launch_bounds__(THREADS)
kmeans_assign(const float* __restrict__ pts, const float* __restrict__ cent, int* __restrict__ labels, int n)
{
    __shared__ float csh[K * D];
    for (int e = threadIdx.x; e < K * D; e += THREADS) csh[e] = cent[e];
    __syncthreads();
    const int i = blockIdx.x * THREADS + threadIdx.x;
    if (i >= n) return;
    float best = INFINITY;
    int best_k = 0;
    for (int k = 0; k < K; ++k) {
        float d = 0.0f;
        for (int j = 0; j < D; ++j) {
            const float t = pts[(size_t)i * D + j] - csh[k * D + j];
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
