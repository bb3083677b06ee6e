// Batched 32x32 matrix-vector: one thread per output row (b, i) on a flat grid; each thread
// walks its own 128-byte row, so a warp's loads are 32 floats apart; x[b] is re-read from global.
#include <cuda_runtime.h>

#define THREADS 256
#define DIM     32

// kforecast: batch = 65536; A: f32[batch, 32, 32] randn; x: f32[batch, 32] randn; y: f32[batch, 32]; rtol = 1e-3; atol = 1e-3
__global__ void batched_matvec(const float* __restrict__ A, const float* __restrict__ x, float* __restrict__ y, int batch)
{
    const int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= batch * DIM) return;
    const int b = t / DIM;
    const float* row = A + (size_t)t * DIM;
    const float* xb = x + (size_t)b * DIM;
    float acc = 0.0f;
    for (int j = 0; j < DIM; ++j) acc += row[j] * xb[j];
    y[t] = acc;
}

extern "C" void launch_batched_matvec(const float* A, const float* x, float* y, int batch, cudaStream_t stream)
{
    const int total = batch * DIM;
    batched_matvec<<<(total + THREADS - 1) / THREADS, THREADS, 0, stream>>>(A, x, y, batch);
}
