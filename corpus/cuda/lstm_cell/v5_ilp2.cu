// LSTM cell pointwise step, two elements per thread (idx and idx + THREADS within a block's
// span of 2 * THREADS): all ten loads issued before the math, accurate expf / tanhf.
#include <cuda_runtime.h>
#include <math.h>

#define THREADS 256
#define ILP     2

// Logistic sigmoid with the accurate expf.
__device__ __forceinline__ float sigmoid_acc(float v)
{
    return 1.0f / (1.0f + expf(-v));
}

// kforecast: batch = 4096; hidden = 1024; gates: f32[batch, 4 * hidden] randn; c_prev: f32[batch, hidden] randn; c_new: f32[batch, hidden]; h_new: f32[batch, hidden]; rtol = 1e-4; atol = 1e-5
__global__ void lstm_cell(const float* __restrict__ gates, const float* __restrict__ c_prev, float* __restrict__ c_new,
                          float* __restrict__ h_new, int batch, int hidden)
{
    const int n = batch * hidden;
    const int base = blockIdx.x * (THREADS * ILP) + threadIdx.x;
    float gi[ILP], gf[ILP], gg[ILP], go[ILP], cp[ILP];
#pragma unroll
    for (int u = 0; u < ILP; ++u) {
        const int idx = base + u * THREADS;
        if (idx < n) {
            const int b = idx / hidden;
            const int j = idx - b * hidden;
            const float* g = gates + (size_t)b * 4 * hidden;
            gi[u] = g[j];
            gf[u] = g[hidden + j];
            gg[u] = g[2 * hidden + j];
            go[u] = g[3 * hidden + j];
            cp[u] = c_prev[idx];
        }
    }
#pragma unroll
    for (int u = 0; u < ILP; ++u) {
        const int idx = base + u * THREADS;
        if (idx < n) {
            const float c = sigmoid_acc(gf[u]) * cp[u] + sigmoid_acc(gi[u]) * tanhf(gg[u]);
            c_new[idx] = c;
            h_new[idx] = sigmoid_acc(go[u]) * tanhf(c);
        }
    }
}

extern "C" void launch_lstm_cell(const float* gates, const float* c_prev, float* c_new, float* h_new, int batch,
                                 int hidden, cudaStream_t stream)
{
    const int n = batch * hidden;
    lstm_cell<<<(n + THREADS * ILP - 1) / (THREADS * ILP), THREADS, 0, stream>>>(gates, c_prev, c_new, h_new, batch,
                                                                                 hidden);
}
