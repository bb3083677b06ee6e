// Nearest-neighbour squared distance in 4-D: for every query, the minimum over all
// reference points of the squared Euclidean distance. Naive: one thread per query,
// every reference coordinate read from global memory inside the loop.
#include <cuda_runtime.h>

#define THREADS 256

// Squared distance, always accumulated in the same order (x, y, z, w).
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
__global__ void knn_nearest(const float* __restrict__ queries, const float* __restrict__ refs, float* __restrict__ out, int Q, int N)
{
    const int q = blockIdx.x * blockDim.x + threadIdx.x;
    if (q >= Q) return;
    const float qx = queries[q * 4 + 0];
    const float qy = queries[q * 4 + 1];
    const float qz = queries[q * 4 + 2];
    const float qw = queries[q * 4 + 3];
    float best = INFINITY;
    for (int j = 0; j < N; ++j) {
        const float d = sqdist(qx, qy, qz, qw, refs[j * 4 + 0], refs[j * 4 + 1], refs[j * 4 + 2], refs[j * 4 + 3]);
        best = fminf(best, d);
    }
    out[q] = best;
}

extern "C" void launch_knn_nearest(const float* queries, const float* refs, float* out, int Q, int N, cudaStream_t stream)
{
    knn_nearest<<<(Q + THREADS - 1) / THREADS, THREADS, 0, stream>>>(queries, refs, out, Q, N);
}
