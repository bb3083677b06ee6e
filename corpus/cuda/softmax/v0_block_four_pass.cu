// Row-wise softmax, one block of 256 threads per row, written as four passes:
// max, sum of exp, y = exp(x - max), y *= 1/sum.
#include <cuda_runtime.h>
#include <math.h>

#define THREADS 256

// kforecast: rows = 16384; cols = 1024; in: f32[rows, cols] randn; out: f32[rows, cols]; rtol = 1e-3; atol = 1e-6
__global__ void softmax_rows(const float* __restrict__ in, float* __restrict__ out, int rows, int cols)
{
    __shared__ float red[THREADS];
    const float* x = in + (size_t)blockIdx.x * cols;
    float* y = out + (size_t)blockIdx.x * cols;
    const int t = threadIdx.x;

    float m = -INFINITY;
    for (int i = t; i < cols; i += THREADS) m = fmaxf(m, x[i]);
    red[t] = m;
    __syncthreads();
    for (int s = THREADS / 2; s > 0; s >>= 1) {
        if (t < s) red[t] = fmaxf(red[t], red[t + s]);
        __syncthreads();
    }
    m = red[0];
    __syncthreads();

    float sum = 0.0f;
    for (int i = t; i < cols; i += THREADS) sum += expf(x[i] - m);
    red[t] = sum;
    __syncthreads();
    for (int s = THREADS / 2; s > 0; s >>= 1) {
        if (t < s) red[t] += red[t + s];
        __syncthreads();
    }
    sum = red[0];

    for (int i = t; i < cols; i += THREADS) y[i] = expf(x[i] - m);
    for (int i = t; i < cols; i += THREADS) y[i] = y[i] / sum;
}

extern "C" void launch_softmax(const float* in, float* out, int rows, int cols, cudaStream_t stream)
{
    softmax_rows<<<rows, THREADS, 0, stream>>>(in, out, rows, cols);
}
