// Nearest-neighbour squared distance in 4-D. Eight adjacent lanes share a query and
// split every shared-memory tile of references between them (j = sub, sub + 8, ...),
// so the grid has 8x more threads (512 blocks instead of 64); the 8 partial minima are
// combined with three xor shuffles.
#include <cuda_runtime.h>

#define THREADS 256
#define LANES 8
#define QPB (THREADS / LANES)
#define TILE 256
#define FULL_MASK 0xffffffffu

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
    __shared__ float4 tile[TILE];
    const int tid = threadIdx.x;
    const int sub = tid % LANES;
    const int q = blockIdx.x * QPB + tid / LANES;
    const float4 p = reinterpret_cast<const float4*>(queries)[min(q, Q - 1)];
    const float4* r4 = reinterpret_cast<const float4*>(refs);
    float best = INFINITY;
    for (int base = 0; base < N; base += TILE) {
        const int cnt = min(TILE, N - base);
        if (tid < cnt) tile[tid] = r4[base + tid];
        __syncthreads();
#pragma unroll 8
        for (int j = sub; j < cnt; j += LANES) {
            const float4 r = tile[j];
            best = fminf(best, sqdist(p.x, p.y, p.z, p.w, r.x, r.y, r.z, r.w));
        }
        __syncthreads();
    }
#pragma unroll
    for (int m = LANES / 2; m > 0; m >>= 1) best = fminf(best, __shfl_xor_sync(FULL_MASK, best, m));
    if (sub == 0 && q < Q) out[q] = best;
}

extern "C" void launch_knn_nearest(const float* queries, const float* refs, float* out, int Q, int N, cudaStream_t stream)
{
    knn_nearest<<<(Q + QPB - 1) / QPB, THREADS, 0, stream>>>(queries, refs, out, Q, N);
}
