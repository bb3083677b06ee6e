// y = L x for a lower-triangular L stored dense (row-major n x n, only j <= i read): one
// thread per row; row i does i+1 steps (load imbalance) and a warp reads 32 rows (uncoalesced).
#include <cuda_runtime.h>

#define THREADS 256

// kforecast: n = 8192; L: f32[n, n] randn; x: f32[n] randn; y: f32[n]; rtol = 1e-3; atol = 1e-2
__global__ void tril_matvec(const float* __restrict__ L, const float* __restrict__ x, float* __restrict__ y, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const float* row = L + (size_t)i * n;
    float acc = 0.0f;
    for (int j = 0; j <= i; ++j) acc += row[j] * x[j];
    y[i] = acc;
}

extern "C" void launch_tril_matvec(const float* L, const float* x, float* y, int n, cudaStream_t stream)
{
    tril_matvec<<<(n + THREADS - 1) / THREADS, THREADS, 0, stream>>>(L, x, y, n);
}
