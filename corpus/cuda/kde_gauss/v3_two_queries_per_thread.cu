// Gaussian KDE, shared-memory tiles, __expf, two queries per thread (q and q + 256):
// each point read from shared memory feeds two independent exponentials.
#include <cuda_runtime.h>
#include <math.h>

#define THREADS 256

// kforecast: Q = 65536; N = 8192; h = 0.05; queries: f32[Q, 3] rand; points: f32[N, 3] rand; density: f32[Q]; rtol = 1e-3; atol = 1e-2
__global__ void kde_gauss(const float* __restrict__ queries, const float* __restrict__ points, float* __restrict__ density,
          int Q, int N, float h)
{
    __shared__ float sx[THREADS], sy[THREADS], sz[THREADS];
    const int q0 = blockIdx.x * (2 * THREADS) + threadIdx.x;
    const int q1 = q0 + THREADS;
    const float ax = q0 < Q ? queries[3 * q0] : 0.0f;
    const float ay = q0 < Q ? queries[3 * q0 + 1] : 0.0f;
    const float az = q0 < Q ? queries[3 * q0 + 2] : 0.0f;
    const float bx = q1 < Q ? queries[3 * q1] : 0.0f;
    const float by = q1 < Q ? queries[3 * q1 + 1] : 0.0f;
    const float bz = q1 < Q ? queries[3 * q1 + 2] : 0.0f;
    const float neg_inv_h = -1.0f / h;
    float sa = 0.0f, sb = 0.0f;
    for (int j0 = 0; j0 < N; j0 += THREADS) {
        const int j = j0 + threadIdx.x;
        if (j < N) {
            sx[threadIdx.x] = points[3 * j];
            sy[threadIdx.x] = points[3 * j + 1];
            sz[threadIdx.x] = points[3 * j + 2];
        }
        __syncthreads();
        const int m = N - j0 < THREADS ? N - j0 : THREADS;
        for (int k = 0; k < m; ++k) {
            const float px = sx[k], py = sy[k], pz = sz[k];
            const float dax = ax - px, day = ay - py, daz = az - pz;
            const float dbx = bx - px, dby = by - py, dbz = bz - pz;
            sa += __expf((dax * dax + day * day + daz * daz) * neg_inv_h);
            sb += __expf((dbx * dbx + dby * dby + dbz * dbz) * neg_inv_h);
        }
        __syncthreads();
    }
    if (q0 < Q) density[q0] = sa;
    if (q1 < Q) density[q1] = sb;
}

extern "C" void launch_kde_gauss(const float* queries, const float* points, float* density, int Q, int N, float h,
                                 cudaStream_t stream)
{
    kde_gauss<<<(Q + 2 * THREADS - 1) / (2 * THREADS), THREADS, 0, stream>>>(queries, points, density, Q, N, h);
}
