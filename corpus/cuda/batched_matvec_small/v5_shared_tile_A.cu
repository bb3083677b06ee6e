// Batched 32x32 matrix-vector: a block of 256 threads stages its 8 matrices (32 KB) in shared
// memory with fully coalesced float4 loads into rows padded to 33 floats (no bank conflicts),
// then one thread per row computes its dot product from shared memory.
#include <cuda_runtime.h>

#define THREADS 256
#define DIM     32
#define MATS    (THREADS / DIM)
#define PAD     (DIM + 1)

// kforecast: batch = 65536; A: f32[batch, 32, 32] randn; x: f32[batch, 32] randn; y: f32[batch, 32]; rtol = 1e-3; atol = 1e-3
__global__ void __launch_bounds__(THREADS)
batched_matvec(const float* __restrict__ A, const float* __restrict__ x, float* __restrict__ y, int batch)
{
    __shared__ float tile[MATS * DIM][PAD];
    __shared__ float xs[MATS][DIM];
    const int b0 = blockIdx.x * MATS;
    const int nmat = min(MATS, batch - b0);
    const float4* src = reinterpret_cast<const float4*>(A + (size_t)b0 * DIM * DIM);
    for (int e = threadIdx.x; e < nmat * DIM * DIM / 4; e += THREADS) {
        const float4 v = src[e];
        const int r = e / (DIM / 4);
        const int c = (e % (DIM / 4)) * 4;
        tile[r][c + 0] = v.x;
        tile[r][c + 1] = v.y;
        tile[r][c + 2] = v.z;
        tile[r][c + 3] = v.w;
    }
    const int m = threadIdx.x / DIM;
    const int t = blockIdx.x * THREADS + threadIdx.x;
    if (m < nmat) xs[0][threadIdx.x] = x[t];
    __syncthreads();
    if (m >= nmat) return;
    const float* xb = xs[m];
    const float* a = tile[threadIdx.x];
    float acc = 0.0f;
#pragma unroll
    for (int j = 0; j < DIM; ++j) acc = fmaf(a[j], xb[j], acc);
    y[t] = acc;
}

extern "C" void launch_batched_matvec(const float* A, const float* x, float* y, int batch, cudaStream_t stream)
{
    batched_matvec<<<(batch + MATS - 1) / MATS, THREADS, 0, stream>>>(A, x, y, batch);
}
