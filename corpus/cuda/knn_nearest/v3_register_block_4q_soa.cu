// Nearest-neighbour squared distance in 4-D. Register blocking: 64-thread blocks, each
// thread keeps 4 queries (strided by the block size) in registers and reuses every
// reference read from shared memory 4 times; the tile is transposed to structure-of-
// arrays (x[], y[], z[], w[]) as it is staged.
#include <cuda_runtime.h>

#define THREADS 64
#define QPT 4
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
    __shared__ float sx[TILE], sy[TILE], sz[TILE], sw[TILE];
    const int tid = threadIdx.x;
    const int q0 = blockIdx.x * THREADS * QPT + tid;
    const float4* q4 = reinterpret_cast<const float4*>(queries);
    const float4* r4 = reinterpret_cast<const float4*>(refs);
    float4 p[QPT];
    float best[QPT];
#pragma unroll
    for (int k = 0; k < QPT; ++k) {
        p[k] = q4[min(q0 + k * THREADS, Q - 1)];
        best[k] = INFINITY;
    }
    for (int base = 0; base < N; base += TILE) {
        const int cnt = min(TILE, N - base);
        for (int j = tid; j < cnt; j += THREADS) {
            const float4 r = r4[base + j];
            sx[j] = r.x;
            sy[j] = r.y;
            sz[j] = r.z;
            sw[j] = r.w;
        }
        __syncthreads();
#pragma unroll 4
        for (int j = 0; j < cnt; ++j) {
            const float rx = sx[j], ry = sy[j], rz = sz[j], rw = sw[j];
#pragma unroll
            for (int k = 0; k < QPT; ++k) best[k] = fminf(best[k], sqdist(p[k].x, p[k].y, p[k].z, p[k].w, rx, ry, rz, rw));
        }
        __syncthreads();
    }
#pragma unroll
    for (int k = 0; k < QPT; ++k)
        if (q0 + k * THREADS < Q) out[q0 + k * THREADS] = best[k];
}

extern "C" void launch_knn_nearest(const float* queries, const float* refs, float* out, int Q, int N, cudaStream_t stream)
{
    knn_nearest<<<(Q + THREADS * QPT - 1) / (THREADS * QPT), THREADS, 0, stream>>>(queries, refs, out, Q, N);
}
