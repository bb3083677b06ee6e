// y = L x, lower-triangular L stored dense: one warp per row (v1 with renamed variables,
// the warp index from the global thread index, and a shuffle-down sum).
#include <cuda_runtime.h>

#define THREADS   256
#define FULL_MASK 0xffffffffu

// kforecast: n = 8192; L: f32[n, n] randn; x: f32[n] randn; y: f32[n]; rtol = 1e-3; atol = 1e-2
__global__ void tril_matvec(const float* __restrict__ L, const float* __restrict__ x, float* __restrict__ y, int n)
{
    const int gtid = blockIdx.x * blockDim.x + threadIdx.x;
    const int r = gtid >> 5;
    const int l = gtid & 31;
    if (r >= n) return;
    float sum = 0.0f;
    const float* Lr = &L[(size_t)r * n];
    for (int c = l; c < r + 1; c += 32) sum += Lr[c] * x[c];
    for (int d = 16; d >= 1; d /= 2) sum += __shfl_down_sync(FULL_MASK, sum, d);
    if (l == 0) y[r] = sum;
}

extern "C" void launch_tril_matvec(const float* L, const float* x, float* y, int n, cudaStream_t stream)
{
    const int threads = n * 32;
    tril_matvec<<<(threads + THREADS - 1) / THREADS, THREADS, 0, stream>>>(L, x, y, n);
}
