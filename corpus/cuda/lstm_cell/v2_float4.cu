// LSTM cell pointwise step, one thread per 4 consecutive j (hidden % 4 == 0): float4 loads of
// the four gate slices and c_prev, float4 stores, accurate expf / tanhf.
#include <cuda_runtime.h>
#include <math.h>

#define THREADS 256

// Logistic sigmoid with the accurate expf.
__device__ __forceinline__ float sigmoid_acc(float v)
{
    return 1.0f / (1.0f + expf(-v));
}

// One LSTM element: returns c_new and writes h_new.
__device__ __forceinline__ float lstm_elem(float i, float f, float g, float o, float c_old, float* h)
{
    const float c = sigmoid_acc(f) * c_old + sigmoid_acc(i) * tanhf(g);
    *h = sigmoid_acc(o) * tanhf(c);
    return c;
}

// kforecast: batch = 4096; hidden = 1024; gates: f32[batch, 4 * hidden] randn; c_prev: f32[batch, hidden] randn; c_new: f32[batch, hidden]; h_new: f32[batch, hidden]; rtol = 1e-4; atol = 1e-5
__global__ void lstm_cell(const float* __restrict__ gates, const float* __restrict__ c_prev, float* __restrict__ c_new,
                          float* __restrict__ h_new, int batch, int hidden)
{
    const int q = blockIdx.x * blockDim.x + threadIdx.x;
    const int h4 = hidden >> 2;
    if (q >= batch * h4) return;
    const int b = q / h4;
    const int j4 = q - b * h4;
    const float4* g4 = reinterpret_cast<const float4*>(gates + (size_t)b * 4 * hidden);
    const float4 iv = g4[j4];
    const float4 fv = g4[h4 + j4];
    const float4 gv = g4[2 * h4 + j4];
    const float4 ov = g4[3 * h4 + j4];
    const float4 cv = reinterpret_cast<const float4*>(c_prev)[q];
    float4 c, h;
    c.x = lstm_elem(iv.x, fv.x, gv.x, ov.x, cv.x, &h.x);
    c.y = lstm_elem(iv.y, fv.y, gv.y, ov.y, cv.y, &h.y);
    c.z = lstm_elem(iv.z, fv.z, gv.z, ov.z, cv.z, &h.z);
    c.w = lstm_elem(iv.w, fv.w, gv.w, ov.w, cv.w, &h.w);
    reinterpret_cast<float4*>(c_new)[q] = c;
    reinterpret_cast<float4*>(h_new)[q] = h;
}

extern "C" void launch_lstm_cell(const float* gates, const float* c_prev, float* c_new, float* h_new, int batch,
                                 int hidden, cudaStream_t stream)
{
    const int n4 = batch * (hidden / 4);
    lstm_cell<<<(n4 + THREADS - 1) / THREADS, THREADS, 0, stream>>>(gates, c_prev, c_new, h_new, batch, hidden);
}
