// Causal softmax (row i keeps columns 0..i): one block of 256 threads per row, the whole row read
// and masked in every pass, shared-memory tree reductions for the max and the sum, then the write.
#include <cuda_runtime.h>
#include <math.h>

#define THREADS 256

// kforecast: bh = 32; t = 1024; scores: f32[bh, t, t] randn; probs: f32[bh, t, t]; rtol = 1e-3; atol = 1e-6
__global__ void __launch_bounds__(THREADS)
causal_softmax(const float* __restrict__ scores, float* __restrict__ probs, int bh, int t)
{
    __shared__ float red[THREADS];
    const int r = blockIdx.x;
    const int i = r % t;
    const int tid = threadIdx.x;
    const float* x = scores + (size_t)r * t;
    float* y = probs + (size_t)r * t;

    float m = -INFINITY;
    for (int j = tid; j < t; j += THREADS) {
        const float v = x[j];
        m = fmaxf(m, j <= i ? v : -INFINITY);
    }
    red[tid] = m;
    __syncthreads();
    for (int s = THREADS / 2; s > 0; s >>= 1) {
        if (tid < s) red[tid] = fmaxf(red[tid], red[tid + s]);
        __syncthreads();
    }
    m = red[0];
    __syncthreads();

    float sum = 0.0f;
    for (int j = tid; j < t; j += THREADS) {
        const float v = x[j];
        sum += j <= i ? expf(v - m) : 0.0f;
    }
    red[tid] = sum;
    __syncthreads();
    for (int s = THREADS / 2; s > 0; s >>= 1) {
        if (tid < s) red[tid] += red[tid + s];
        __syncthreads();
    }
    const float inv = 1.0f / red[0];

    for (int j = tid; j < t; j += THREADS) {
        const float v = x[j];
        y[j] = j <= i ? expf(v - m) * inv : 0.0f;
    }
}

extern "C" void launch_causal_softmax(const float* scores, float* probs, int bh, int t, cudaStream_t stream)
{
    causal_softmax<<<bh * t, THREADS, 0, stream>>>(scores, probs, bh, t);
}
