// k-means assignment (K = 64, D = 16, ties to the lowest index). One thread per
// point: the point is loaded with four float4 loads into registers, centroids are
// staged in shared memory as float4 and read as 128-bit broadcasts, k unrolled by 4.
#include <cuda_runtime.h>

#define THREADS 256
#define D 16
#define K 64

// kforecast: n = 1 << 20; pts: f32[n, 16] randn; cent: f32[64, 16] randn; labels: i32[n]; rtol = 0; atol = 0
__global__ void __launch_bounds__(THREADS)
kmeans_assign(const float* __restrict__ pts, const float* __restrict__ cent, int* __restrict__ labels, int n)
{
    __shared__ float4 csh[K * D / 4];
    const float4* cent4 = reinterpret_cast<const float4*>(cent);
    for (int e = threadIdx.x; e < K * D / 4; e += THREADS) csh[e] = cent4[e];
    __syncthreads();
    const int i = blockIdx.x * THREADS + threadIdx.x;
    if (i >= n) return;
    const float4* p4 = reinterpret_cast<const float4*>(pts) + (size_t)i * (D / 4);
    float p[D];
#pragma unroll
    for (int q = 0; q < D / 4; ++q) {
        const float4 v = p4[q];
        p[4 * q + 0] = v.x;
        p[4 * q + 1] = v.y;
        p[4 * q + 2] = v.z;
        p[4 * q + 3] = v.w;
    }
    float best = INFINITY;
    int best_k = 0;
#pragma unroll 4
    for (int k = 0; k < K; ++k) {
        float d = 0.0f;
#pragma unroll
        for (int q = 0; q < D / 4; ++q) {
            const float4 c = csh[k * (D / 4) + q];
            float t = p[4 * q + 0] - c.x;
            d = fmaf(t, t, d);
            t = p[4 * q + 1] - c.y;
            d = fmaf(t, t, d);
            t = p[4 * q + 2] - c.z;
            d = fmaf(t, t, d);
            t = p[4 * q + 3] - c.w;
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
