// logsumexp of each row, one block of 256 threads per row, but each thread walks
// its own contiguous chunk of cols/256 columns (online max+sum): a warp's loads
// are strided by the chunk length, so every load instruction touches 32 lines.
#include <cuda_runtime.h>
#include <math.h>

#define THREADS 256

// kforecast: rows = 16384; cols = 4096; x: f32[rows, cols] randn; out: f32[rows]; rtol = 1e-3; atol = 1e-4
__global__ void logsumexp_rows(const float* __restrict__ x, float* __restrict__ out, int rows, int cols)
{
    __shared__ float bm[THREADS];
    __shared__ float bs[THREADS];
    const float* xr = x + (size_t)blockIdx.x * cols;
    const int t = threadIdx.x;
    const int chunk = (cols + THREADS - 1) / THREADS;
    const int c0 = t * chunk;
    const int c1 = min(c0 + chunk, cols);

    float m = -INFINITY, s = 0.0f;
    for (int c = c0; c < c1; ++c) {
        const float v = xr[c];
        if (v > m) {
            s = s * expf(m - v) + 1.0f;
            m = v;
        } else {
            s += expf(v - m);
        }
    }
    bm[t] = m;
    bs[t] = s;
    __syncthreads();
    for (int h = THREADS / 2; h > 0; h >>= 1) {
        if (t < h) {
            const float m1 = bm[t], m2 = bm[t + h];
            const float mx = fmaxf(m1, m2);
            const float a = m1 == -INFINITY ? 0.0f : bs[t] * expf(m1 - mx);
            const float b = m2 == -INFINITY ? 0.0f : bs[t + h] * expf(m2 - mx);
            bm[t] = mx;
            bs[t] = a + b;
        }
        __syncthreads();
    }
    if (t == 0) out[blockIdx.x] = bm[0] + logf(bs[0]);
}

extern "C" void launch_logsumexp_rows(const float* x, float* out, int rows, int cols, cudaStream_t stream)
{
    logsumexp_rows<<<rows, THREADS, 0, stream>>>(x, out, rows, cols);
}
