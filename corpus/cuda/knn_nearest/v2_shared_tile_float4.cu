// Nearest-neighbour squared distance in 4-D. One thread per query; query and reference
// points moved as float4 (one 16-byte load each), 256 references per shared-memory tile
// read back as float4 broadcasts, the scan over a full tile unrolled by 8.
#include <cuda_runtime.h>

#define THREADS 256
#define TILE 256

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
    const int q = blockIdx.x * THREADS + tid;
    const float4 p = reinterpret_cast<const float4*>(queries)[min(q, Q - 1)];
    const float4* r4 = reinterpret_cast<const float4*>(refs);
    float best = INFINITY;
    for (int base = 0; base < N; base += TILE) {
        const int cnt = min(TILE, N - base);
        if (tid < cnt) tile[tid] = r4[base + tid];
        __syncthreads();
        if (cnt == TILE) {
#pragma unroll 8
            for (int j = 0; j < TILE; ++j) {
                const float4 r = tile[j];
                best = fminf(best, sqdist(p.x, p.y, p.z, p.w, r.x, r.y, r.z, r.w));
            }
        } else {
            for (int j = 0; j < cnt; ++j) {
                const float4 r = tile[j];
                best = fminf(best, sqdist(p.x, p.y, p.z, p.w, r.x, r.y, r.z, r.w));
            }
        }
        __syncthreads();
    }
    if (q < Q) out[q] = best;
}

extern "C" void launch_knn_nearest(const float* queries, const float* refs, float* out, int Q, int N, cudaStream_t stream)
{
    knn_nearest<<<(Q + THREADS - 1) / THREADS, THREADS, 0, stream>>>(queries, refs, out, Q, N);
}
