// Batched 32x32 matrix-vector y[b] = A[b] @ x[b], naive: one thread per matrix loops over the
// 32 rows and 32 columns; neighbouring threads read addresses 4 KB apart (uncoalesced).
#include <cuda_runtime.h>

#define THREADS 256
#define DIM     32

// kforecast: batch = 65536; A: f32[batch, 32, 32] randn; x: f32[batch, 32] randn; y: f32[batch, 32]; rtol = 1e-3; atol = 1e-3
__global__ void batched_matvec(const float* __restrict__ A, const float* __restrict__ x, float* __restrict__ y, int batch)
{
    const int b = blockIdx.x * blockDim.x + threadIdx.x;
    if (b >= batch) return;
    const float* a = A + (size_t)b * DIM * DIM;
    const float* xb = x + (size_t)b * DIM;
    float* yb = y + (size_t)b * DIM;
    for (int i = 0; i < DIM; ++i) {
        float acc = 0.0f;
        for (int j = 0; j < DIM; ++j) acc += a[i * DIM + j] * xb[j];
        yb[i] = acc;
    }
}

extern "C" void launch_batched_matvec(const float* A, const float* x, float* y, int batch, cudaStream_t stream)
{
    batched_matvec<<<(batch + THREADS - 1) / THREADS, THREADS, 0, stream>>>(A, x, y, batch);
}
