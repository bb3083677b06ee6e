// k-means update: the float4 / padded grid-stride kernel with renamed variables, the count update first and equivalent index arithmetic (near-tie).
#include <cuda_runtime.h>

#define THREADS 256
#define NUM_SMS 132
#define K 64
#define D 8
#define STRIDE (D + 1)

// kforecast: n = 1 << 22; points: f32[n, 8] randn; assign: i32[n] randint(0,64); sums: f32[64, 8] zeros; counts: i32[64] zeros; rtol = 1e-3; atol = 0.05
__global__ void __launch_bounds__(THREADS)
kmeans_update(const float* __restrict__ points, const int* __restrict__ assign,
              float* __restrict__ sums, int* __restrict__ counts, int n)
{
    __shared__ int cnt[K];
    __shared__ float acc[K * STRIDE];
    for (int j = threadIdx.x; j < K; j += THREADS) cnt[j] = 0;
    for (int j = threadIdx.x; j < K * STRIDE; j += THREADS) acc[j] = 0.0f;
    __syncthreads();
    const int step = gridDim.x * THREADS;
    for (int p = blockIdx.x * THREADS + threadIdx.x; p < n; p += step) {
        const int c = assign[p];
        atomicAdd(cnt + c, 1);
        const float4 lo = reinterpret_cast<const float4*>(points + (size_t)p * D)[0];
        const float4 hi = reinterpret_cast<const float4*>(points + (size_t)p * D)[1];
        float* row = acc + c * STRIDE;
        atomicAdd(row, lo.x);
        atomicAdd(row + 1, lo.y);
        atomicAdd(row + 2, lo.z);
        atomicAdd(row + 3, lo.w);
        atomicAdd(row + 4, hi.x);
        atomicAdd(row + 5, hi.y);
        atomicAdd(row + 6, hi.z);
        atomicAdd(row + 7, hi.w);
    }
    __syncthreads();
    for (int j = threadIdx.x; j < K; j += THREADS)
        if (cnt[j]) atomicAdd(counts + j, cnt[j]);
    for (int j = threadIdx.x; j < K * D; j += THREADS) {
        const int c = j >> 3;
        if (cnt[c]) atomicAdd(sums + j, acc[c * STRIDE + (j & (D - 1))]);
    }
}

extern "C" void launch_kmeans_update(const float* points, const int* assign, float* sums, int* counts, int n,
                                     cudaStream_t stream)
{
    const int grid = min((n + THREADS - 1) / THREADS, NUM_SMS * 4);
    kmeans_update<<<grid, THREADS, 0, stream>>>(points, assign, sums, counts, n);
}
