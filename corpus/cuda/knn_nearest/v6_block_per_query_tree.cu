// Nearest-neighbour squared distance in 4-D. One 128-thread block per query: the threads
// stride over all references read as float4 straight from global memory (every block
// re-reads the whole reference set), then a shared-memory tree reduction takes the min.
#include <cuda_runtime.h>

#define THREADS 128

__device__ __forceinline__ float sqdist(float qx, float qy, float qz, float qw, float rx, float ry, float rz, float rw)
{
    const float dx = qx - rx, dy = qy - ry, dz = qz - rz, dw = qw - rw;
    float d = dx * dx;
    d = fmaf(dy, dy, d);
    d = fmaf(dz, dz, d);
    d = fmaf(dw, dw, d);
    return d;
}

// kforecast: Q = 16384; N = 16384; queries: f32[Q, 4] randn; refs: f32[N, 4] randn; out: f32[Q]; rtol = 1e-3; atol = 1e-4
__global__ void __launch_bounds__(THREADS)
knn_nearest(const float* __restrict__ queries, const float* __restrict__ refs, float* __restrict__ out, int Q, int N)
{
    __shared__ float red[THREADS];
    const int tid = threadIdx.x;
    const int q = blockIdx.x;
    const float4 p = reinterpret_cast<const float4*>(queries)[q];
    const float4* r4 = reinterpret_cast<const float4*>(refs);
    float best = INFINITY;
    for (int j = tid; j < N; j += THREADS) {
        const float4 r = r4[j];
        best = fminf(best, sqdist(p.x, p.y, p.z, p.w, r.x, r.y, r.z, r.w));
    }
    red[tid] = best;
    __syncthreads();
    for (int s = THREADS / 2; s > 0; s >>= 1) {
        if (tid < s) red[tid] = fminf(red[tid], red[tid + s]);
        __syncthreads();
    }
    if (tid == 0) out[q] = red[0];
}

extern "C" void launch_knn_nearest(const float* queries, const float* refs, float* out, int Q, int N, cudaStream_t stream)
{
    knn_nearest<<<Q, THREADS, 0, stream>>>(queries, refs, out, Q, N);
}
