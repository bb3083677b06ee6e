// Gaussian KDE density[q] = sum_j exp(-|q - p_j|^2 / h) over 3-D points: one thread
// per query streams every point from global memory (broadcast loads), expf and a divide.
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
    float sum = 0.0f;
    for (int j = 0; j < N; ++j) {
        const float dx = qx - points[3 * j];
        const float dy = qy - points[3 * j + 1];
        const float dz = qz - points[3 * j + 2];
        sum += expf(-(dx * dx + dy * dy + dz * dz) / h);
    }
    density[q] = sum;
}

extern "C" void launch_kde_gauss(const float* queries, const float* points, float* density, int Q, int N, float h,
                                 cudaStream_t stream)
{
    kde_gauss<<<(Q + THREADS - 1) / THREADS, THREADS, 0, stream>>>(queries, points, density, Q, N, h);
}
