// LSTM cell pointwise step, one thread per (b, j) as v0 but with fast-math sigmoid and tanh
// (__expf, __fdividef; tanh from one exponential).
#include <cuda_runtime.h>
#include <math.h>

#define THREADS 256

// Logistic sigmoid with the fast-math exponential and division.
__device__ __forceinline__ float sigmoid_fast(float v)
{
    return __fdividef(1.0f, 1.0f + __expf(-v));
}

// tanh(v) = 1 - 2 / (1 + e^(2v)) with the fast-math exponential (saturates to +-1).
__device__ __forceinline__ float tanh_fast(float v)
{
    return 1.0f - __fdividef(2.0f, 1.0f + __expf(2.0f * v));
}

// kforecast: batch = 4096; hidden = 1024; gates: f32[batch, 4 * hidden] randn; c_prev: f32[batch, hidden] randn; c_new: f32[batch, hidden]; h_new: f32[batch, hidden]; rtol = 1e-4; atol = 1e-5
__global__ void lstm_cell(const float* __restrict__ gates, const float* __restrict__ c_prev, float* __restrict__ c_new,
                          float* __restrict__ h_new, int batch, int hidden)
{
    const int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx >= batch * hidden) return;
    const int b = idx / hidden;
    const int j = idx - b * hidden;
    const float* g = gates + (size_t)b * 4 * hidden;
    const float ig = sigmoid_fast(g[j]);
    const float fg = sigmoid_fast(g[hidden + j]);
    const float gg = tanh_fast(g[2 * hidden + j]);
    const float og = sigmoid_fast(g[3 * hidden + j]);
    const float c = fg * c_prev[idx] + ig * gg;
    c_new[idx] = c;
    h_new[idx] = og * tanh_fast(c);
}

extern "C" void launch_lstm_cell(const float* gates, const float* c_prev, float* c_new, float* h_new, int batch,
                                 int hidden, cudaStream_t stream)
{
    const int n = batch * hidden;
    lstm_cell<<<(n + THREADS - 1) / THREADS, THREADS, 0, stream>>>(gates, c_prev, c_new, h_new, batch, hidden);
}
