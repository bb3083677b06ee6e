// Attention scores: the 32 x 32 padded-tile kernel with renamed variables, the K tile
// loaded before the Q tile and row pointers advanced per tile instead of re-indexed.
#include <cuda_runtime.h>

#define T 32

// kforecast: heads = 64; seq = 512; d = 64; scale = 0.125; Q: f32[heads, seq, d] randn; K: f32[heads, seq, d] randn; S: f32[heads, seq, seq]; rtol = 1e-4; atol = 1e-4
__global__ void __launch_bounds__(T * T)
attention_scores(const float* __restrict__ Q, const float* __restrict__ K, float* __restrict__ S, int heads, int seq, int d,
                 float scale)
{
    __shared__ float k_tile[T][T + 1];
    __shared__ float q_tile[T][T + 1];
    const int col = threadIdx.x, row = threadIdx.y;
    const int q_row = blockIdx.y * T + row;
    const int k_row = blockIdx.x * T + row;
    const int out_col = blockIdx.x * T + col;
    const size_t head_off = (size_t)blockIdx.z * seq * d;
    const float* q_ptr = Q + head_off + (size_t)q_row * d + col;
    const float* k_ptr = K + head_off + (size_t)k_row * d + col;
    const bool q_ok = q_row < seq, k_ok = k_row < seq;
    float sum = 0.0f;
    for (int base = 0; base < d; base += T, q_ptr += T, k_ptr += T) {
        const int kk = base + col;
        k_tile[row][col] = (k_ok && kk < d) ? *k_ptr : 0.0f;
        q_tile[row][col] = (q_ok && kk < d) ? *q_ptr : 0.0f;
        __syncthreads();
#pragma unroll
        for (int t = 0; t < T; ++t) sum += q_tile[row][t] * k_tile[col][t];
        __syncthreads();
    }
    if (q_row < seq && out_col < seq) S[(size_t)blockIdx.z * seq * seq + (size_t)q_row * seq + out_col] = sum * scale;
}

extern "C" void launch_attention_scores(const float* Q, const float* K, float* S, int heads, int seq, int d, float scale,
                                        cudaStream_t stream)
{
    const int tiles = (seq + T - 1) / T;
    dim3 threads(T, T);
    dim3 blocks(tiles, tiles, heads);
    attention_scores<<<blocks, threads, 0, stream>>>(Q, K, S, heads, seq, d, scale);
}
