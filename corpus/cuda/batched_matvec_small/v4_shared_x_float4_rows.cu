// Batched 32x32 matrix-vector: one thread per row; the block's 8 vectors x[b] are staged in
// shared memory with one coalesced load, rows of A are read as 8 float4s, two accumulators.
#include <cuda_runtime.h>

#define THREADS 256
#define DIM     32
#define MATS    (THREADS / DIM)

// kforecast: batch = 65536; A: f32[batch, 32, 32] randn; x: f32[batch, 32] randn; y: f32[batch, 32]; rtol = 1e-3; atol = 1e-3
__global__ void __launch_bounds__(THREADS)
batched_matvec(const float* __restrict__ A, const float* __restrict__ x, float* __restrict__ y, int batch)
{
    __shared__ float xs[MATS][DIM];
    const int t = blockIdx.x * THREADS + threadIdx.x;
    const int total = batch * DIM;
    if (t < total) xs[0][threadIdx.x] = x[t];
    __syncthreads();
    if (t >= total) return;
    const float* xb = xs[threadIdx.x / DIM];
    const float4* row = reinterpret_cast<const float4*>(A + (size_t)t * DIM);
    float acc0 = 0.0f, acc1 = 0.0f;
#pragma unroll
    for (int k = 0; k < DIM / 4; ++k) {
        const float4 a = row[k];
        acc0 = fmaf(a.x, xb[4 * k + 0], acc0);
        acc1 = fmaf(a.y, xb[4 * k + 1], acc1);
        acc0 = fmaf(a.z, xb[4 * k + 2], acc0);
        acc1 = fmaf(a.w, xb[4 * k + 3], acc1);
    }
    y[t] = acc0 + acc1;
}

extern "C" void launch_batched_matvec(const float* A, const float* x, float* y, int batch, cudaStream_t stream)
{
    const int total = batch * DIM;
    batched_matvec<<<(total + THREADS - 1) / THREADS, THREADS, 0, stream>>>(A, x, y, batch);
}
