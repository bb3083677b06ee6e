// Nearest-neighbour squared distance in 4-D. One thread per query; the block stages
// 256 reference points at a time in shared memory (interleaved x,y,z,w, scalar loads)
// and every thread scans the tile from there.
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
    __shared__ float tile[TILE * 4];
    const int tid = threadIdx.x;
    const int q = blockIdx.x * THREADS + tid;
    const int qc = min(q, Q - 1);
    const float qx = queries[qc * 4 + 0];
    const float qy = queries[qc * 4 + 1];
    const float qz = queries[qc * 4 + 2];
    const float qw = queries[qc * 4 + 3];
    float best = INFINITY;
    for (int base = 0; base < N; base += TILE) {
        const int cnt = min(TILE, N - base);
        for (int e = tid; e < TILE * 4; e += THREADS)
            tile[e] = e < cnt * 4 ? refs[base * 4 + e] : 0.0f;
        __syncthreads();
        for (int j = 0; j < cnt; ++j)
            best = fminf(best, sqdist(qx, qy, qz, qw, tile[j * 4 + 0], tile[j * 4 + 1], tile[j * 4 + 2], tile[j * 4 + 3]));
        __syncthreads();
    }
    if (q < Q) out[q] = best;
}

extern "C" void launch_knn_nearest(const float* queries, const float* refs, float* out, int Q, int N, cudaStream_t stream)
{
    knn_nearest<<<(Q + THREADS - 1) / THREADS, THREADS, 0, stream>>>(queries, refs, out, Q, N);
}
