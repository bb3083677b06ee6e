// logsumexp of each row, one thread per row, two passes (row max, then sum of
// exp(x - max)); uncoalesced: a warp's 32 loads fall in 32 different rows.
#include <cuda_runtime.h>
#include <math.h>

#define THREADS 128

// kforecast: rows = 16384; cols = 4096; x: f32[rows, cols] randn; out: f32[rows]; rtol = 1e-3; atol = 1e-4
__global__ void logsumexp_rows(const float* __restrict__ x, float* __restrict__ out, int rows, int cols)
{
    const int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= rows) return;
    const float* xr = x + (size_t)r * cols;
    float m = -INFINITY;
    for (int c = 0; c < cols; ++c) m = fmaxf(m, xr[c]);
    float s = 0.0f;
    for (int c = 0; c < cols; ++c) s += expf(xr[c] - m);
    out[r] = m + logf(s);
}

extern "C" void launch_logsumexp_rows(const float* x, float* out, int rows, int cols, cudaStream_t stream)
{
    const int blocks = (rows + THREADS - 1) / THREADS;
    logsumexp_rows<<<blocks, THREADS, 0, stream>>>(x, out, rows, cols);
}
