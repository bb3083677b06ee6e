// Batched 32x32 matrix-vector, one thread per row with the flat index split the other way
// (batch fastest): neighbouring threads take row i of neighbouring matrices, 4 KB apart, and
// the x loads and y stores are strided too.
#include <cuda_runtime.h>

#define THREADS 256
#define DIM     32

// kforecast: batch = 65536; A: f32[batch, 32, 32] randn; x: f32[batch, 32] randn; y: f32[batch, 32]; rtol = 1e-3; atol = 1e-3
__global__ void batched_matvec(const float* __restrict__ A, const float* __restrict__ x, float* __restrict__ y, int batch)
{
    const int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= batch * DIM) return;
    const int i = t / batch;
    const int b = t % batch;
    const float* row = A + ((size_t)b * DIM + i) * DIM;
    const float* xb = x + (size_t)b * DIM;
    float acc = 0.0f;
    for (int j = 0; j < DIM; ++j) acc += row[j] * xb[j];
    y[(size_t)b * DIM + i] = acc;
}

extern "C" void launch_batched_matvec(const float* A, const float* x, float* y, int batch, cudaStream_t stream)
{
    const int total = batch * DIM;
    batched_matvec<<<(total + THREADS - 1) / THREADS, THREADS, 0, stream>>>(A, x, y, batch);
}
