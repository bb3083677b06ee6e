// Causal softmax over the last dimension of bh x t x t scores (row i keeps columns 0..i, the rest
// are 0): naive, one thread per row, three sequential loops (max, sum, write), expf.
#include <cuda_runtime.h>
#include <math.h>

#define THREADS 256

// kforecast: bh = 32; t = 1024; scores: f32[bh, t, t] randn; probs: f32[bh, t, t]; rtol = 1e-3; atol = 1e-6
__global__ void causal_softmax(const float* __restrict__ scores, float* __restrict__ probs, int bh, int t)
{
    const int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= bh * t) return;
    const int i = r % t;
    const float* x = scores + (size_t)r * t;
    float* y = probs + (size_t)r * t;
    float m = -INFINITY;
    for (int j = 0; j <= i; ++j) m = fmaxf(m, x[j]);
    float sum = 0.0f;
    for (int j = 0; j <= i; ++j) sum += expf(x[j] - m);
    for (int j = 0; j < t; ++j) y[j] = j <= i ? expf(x[j] - m) / sum : 0.0f;
}

extern "C" void launch_causal_softmax(const float* scores, float* probs, int bh, int t, cudaStream_t stream)
{
    const int rows = bh * t;
    causal_softmax<<<(rows + THREADS - 1) / THREADS, THREADS, 0, stream>>>(scores, probs, bh, t);
}
