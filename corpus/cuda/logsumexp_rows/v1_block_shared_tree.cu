// logsumexp of each row, one block of 256 threads per row: coalesced strided
// loops, row max and sum of exp reduced with shared-memory trees (two passes).
#include <cuda_runtime.h>
#include <math.h>

#define THREADS 256

// kforecast: rows = 16384; cols = 4096; x: f32[rows, cols] randn; out: f32[rows]; rtol = 1e-3; atol = 1e-4
__global__ void logsumexp_rows(const float* __restrict__ x, float* __restrict__ out, int rows, int cols)
{
    __shared__ float buf[THREADS];
    const float* xr = x + (size_t)blockIdx.x * cols;
    const int t = threadIdx.x;

    float m = -INFINITY;
    for (int c = t; c < cols; c += THREADS) m = fmaxf(m, xr[c]);
    buf[t] = m;
    __syncthreads();
    for (int s = THREADS / 2; s > 0; s >>= 1) {
        if (t < s) buf[t] = fmaxf(buf[t], buf[t + s]);
        __syncthreads();
    }
    m = buf[0];
    __syncthreads();

    float sum = 0.0f;
    for (int c = t; c < cols; c += THREADS) sum += expf(xr[c] - m);
    buf[t] = sum;
    __syncthreads();
    for (int s = THREADS / 2; s > 0; s >>= 1) {
        if (t < s) buf[t] += buf[t + s];
        __syncthreads();
    }
    if (t == 0) out[blockIdx.x] = m + logf(buf[0]);
}

extern "C" void launch_logsumexp_rows(const float* x, float* out, int rows, int cols, cudaStream_t stream)
{
    logsumexp_rows<<<rows, THREADS, 0, stream>>>(x, out, rows, cols);
}
