// Attention scores: the naive kernel with the query index on threadIdx.x, so
// consecutive threads write scores seq floats apart and read Q rows d floats apart.
#include <cuda_runtime.h>

#define BX 32
#define BY 8

// kforecast: heads = 64; seq = 512; d = 64; scale = 0.125; Q: f32[heads, seq, d] randn; K: f32[heads, seq, d] randn; S: f32[heads, seq, seq]; rtol = 1e-4; atol = 1e-4
__global__ void attention_scores(const float* __restrict__ Q, const float* __restrict__ K, float* __restrict__ S, int heads, int seq, int d,
                 float scale)
{
    const int h = blockIdx.z;
    const int i = blockIdx.x * BX + threadIdx.x;
    const int j = blockIdx.y * BY + threadIdx.y;
    if (i >= seq || j >= seq) return;
    const float* q = Q + ((size_t)h * seq + i) * d;
    const float* k = K + ((size_t)h * seq + j) * d;
    float acc = 0.0f;
    for (int c = 0; c < d; ++c) acc += q[c] * k[c];
    S[((size_t)h * seq + i) * seq + j] = scale * acc;
}

extern "C" void launch_attention_scores(const float* Q, const float* K, float* S, int heads, int seq, int d, float scale,
                                        cudaStream_t stream)
{
    dim3 block(BX, BY);
    dim3 grid((seq + BX - 1) / BX, (seq + BY - 1) / BY, heads);
    attention_scores<<<grid, block, 0, stream>>>(Q, K, S, heads, seq, d, scale);
}
