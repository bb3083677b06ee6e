// k-means update: grid-stride shared privatisation with each point read as two float4 and shared sums padded to D + 1 floats per cluster (fewer bank conflicts).
#include <cuda_runtime.h>

#define THREADS 256
#define NUM_SMS 132
#define K 64
#define D 8
#define PAD (D + 1)

// kforecast: n = 1 << 22; points: f32[n, 8] randn; assign: i32[n] randint(0,64); sums: f32[64, 8] zeros; counts: i32[64] zeros; rtol = 1e-3; atol = 0.05
__global__ void __launch_bounds__(THREADS)
kmeans_update(const float* __restrict__ points, const int* __restrict__ assign,
              float* __restrict__ sums, int* __restrict__ counts, int n)
{
    __shared__ float s_sums[K * PAD];
    __shared__ int s_counts[K];
    for (int b = threadIdx.x; b < K * PAD; b += THREADS) s_sums[b] = 0.0f;
    for (int b = threadIdx.x; b < K; b += THREADS) s_counts[b] = 0;
    __syncthreads();
    const float4* p4 = reinterpret_cast<const float4*>(points);
    for (int i = blockIdx.x * THREADS + threadIdx.x; i < n; i += gridDim.x * THREADS) {
        const int k = assign[i];
        const float4 a = p4[2 * (size_t)i];
        const float4 b = p4[2 * (size_t)i + 1];
        float* s = &s_sums[k * PAD];
        atomicAdd(s + 0, a.x);
        atomicAdd(s + 1, a.y);
        atomicAdd(s + 2, a.z);
        atomicAdd(s + 3, a.w);
        atomicAdd(s + 4, b.x);
        atomicAdd(s + 5, b.y);
        atomicAdd(s + 6, b.z);
        atomicAdd(s + 7, b.w);
        atomicAdd(&s_counts[k], 1);
    }
    __syncthreads();
    for (int b = threadIdx.x; b < K * D; b += THREADS) {
        const int k = b / D;
        if (s_counts[k] != 0) atomicAdd(&sums[b], s_sums[k * PAD + b % D]);
    }
    for (int b = threadIdx.x; b < K; b += THREADS)
        if (s_counts[b] != 0) atomicAdd(&counts[b], s_counts[b]);
}

extern "C" void launch_kmeans_update(const float* points, const int* assign, float* sums, int* counts, int n,
                                     cudaStream_t stream)
{
    const int blocks = min((n + THREADS - 1) / THREADS, NUM_SMS * 4);
    kmeans_update<<<blocks, THREADS, 0, stream>>>(points, assign, sums, counts, n);
}
