// Gaussian KDE, one thread per query reading every point from global memory (no
// tiling) but with __expf and a multiply by -1/h instead of expf and a divide.
#include <cuda_runtime.h>
#include <math.h>

#define THREADS 256

// kforecast: Q = 65536; N = 8192; h = 0.05; queries: f32[Q, 3] rand; points: f32[N, 3] rand; density: f32[Q]; rtol = 1e-3; atol = 1e-2
__global__ void kde_gauss(const float* __restrict__ queries, const float* __restrict__ points, float* __restrict__ density,
          int Q, int N, float h)
{
    const int q = blockIdx.x * blockDim.x + threadIdx.x;
    if (q >= Q) return;
    const float qx = queries[3 * q], qy = queries[3 * q + 1], qz = queries[3 * q + 2];
    const float neg_inv_h = -1.0f / h;
    float sum = 0.0f;
    for (int j = 0; j < N; ++j) {
        const float dx = qx - __ldg(&points[3 * j]);
        const float dy = qy - __ldg(&points[3 * j + 1]);
        const float dz = qz - __ldg(&points[3 * j + 2]);
        sum += __expf((dx * dx + dy * dy + dz * dz) * neg_inv_h);
    }
    density[q] = sum;
}

extern "C" void launch_kde_gauss(const float* queries, const float* points, float* density, int Q, int N, float h,
                                 cudaStream_t stream)
{
    kde_gauss<<<(Q + THREADS - 1) / THREADS, THREADS, 0, stream>>>(queries, points, density, Q, N, h);
}
