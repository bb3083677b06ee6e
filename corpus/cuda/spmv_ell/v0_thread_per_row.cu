// y = A x for an ELLPACK matrix with K slots per row stored row-major (cols[r*K + k]).
// Naive: one thread per row, scalar loop over its K slots (a warp's loads are 64 bytes apart).
#include <cuda_runtime.h>

#define THREADS 256

// kforecast: rows = 1 << 20; K = 16; n = 1 << 20; cols: i32[rows, K] randint(0, 1048576); vals: f32[rows, K] randn; x: f32[n] randn; y: f32[rows]; rtol = 1e-3; atol = 1e-4
__global__ void spmv_ell(const int* __restrict__ cols, const float* __restrict__ vals, const float* __restrict__ x,
                         float* __restrict__ y, int rows, int K)
{
    const int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= rows) return;
    const int* c = cols + (size_t)r * K;
    const float* v = vals + (size_t)r * K;
    float acc = 0.0f;
    for (int k = 0; k < K; ++k) acc += v[k] * x[c[k]];
    y[r] = acc;
}

extern "C" void launch_spmv_ell(const int* cols, const float* vals, const float* x, float* y, int rows, int K,
                                cudaStream_t stream)
{
    spmv_ell<<<(rows + THREADS - 1) / THREADS, THREADS, 0, stream>>>(cols, vals, x, y, rows, K);
}
