// k-means assignment (K = 64, D = 16, ties to the lowest index). One warp per point
// (lane k scores centroids k and k + 32, shuffle arg-min) with the centroids stored
// transposed in shared memory, [j][k]: lanes read consecutive words, no bank conflicts.
#include <cuda_runtime.h>

#define WARPS 8
#define D 16
#define K 64

// kforecast: n = 1 << 20; pts: f32[n, 16] randn; cent: f32[64, 16] randn; labels: i32[n]; rtol = 0; atol = 0
__global__ void __launch_bounds__(WARPS * 32)
kmeans_assign(const float* __restrict__ pts, const float* __restrict__ cent, int* __restrict__ labels, int n)
{
    __shared__ float csh[K * D];
    for (int e = threadIdx.x; e < K * D; e += WARPS * 32) csh[(e % D) * K + e / D] = cent[e];
    __syncthreads();
    const int lane = threadIdx.x & 31;
    const int i = blockIdx.x * WARPS + (threadIdx.x >> 5);
    if (i >= n) return;
    float p[D];
#pragma unroll
    for (int j = 0; j < D; ++j) p[j] = pts[(size_t)i * D + j];
    // Lane k scores centroids k and k + 32.
    const int k = lane;
    float d0 = 0.0f, d1 = 0.0f;
#pragma unroll
    for (int j = 0; j < D; ++j) {
        const float t0 = p[j] - csh[j * K + k];
        d0 = fmaf(t0, t0, d0);
        const float t1 = p[j] - csh[j * K + k + 32];
        d1 = fmaf(t1, t1, d1);
    }
    float best = d0;
    int best_k = k;
    if (d1 < best) {
        best = d1;
        best_k = k + 32;
    }
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) {
        const float od = __shfl_xor_sync(0xffffffffu, best, o);
        const int ok = __shfl_xor_sync(0xffffffffu, best_k, o);
        if (od < best || (od == best && ok < best_k)) {
            best = od;
            best_k = ok;
        }
    }
    if (lane == 0) labels[i] = best_k;
}

extern "C" void launch_kmeans_assign(const float* pts, const float* cent, int* labels, int n, cudaStream_t stream)
{
    kmeans_assign<<<(n + WARPS - 1) / WARPS, WARPS * 32, 0, stream>>>(pts, cent, labels, n);
}
