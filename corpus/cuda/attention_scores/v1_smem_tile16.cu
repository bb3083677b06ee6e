// Attention scores: 16 x 16 shared-memory tiles of Q and K over the head dimension;
// the K tile is read as Ks[tx][k] (stride 16 floats: 8-way bank conflicts).
#include <cuda_runtime.h>

#define TILE 16

// kforecast: heads = 64; seq = 512; d = 64; scale = 0.125; Q: f32[heads, seq, d] randn; K: f32[heads, seq, d] randn; S: f32[heads, seq, seq]; rtol = 1e-4; atol = 1e-4
__global__ void __launch_bounds__(TILE * TILE)
attention_scores(const float* __restrict__ Q, const float* __restrict__ K, float* __restrict__ S, int heads, int seq, int d,
                 float scale)
{
    __shared__ float Qs[TILE][TILE];
    __shared__ float Ks[TILE][TILE];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int h = blockIdx.z;
    const int i0 = blockIdx.y * TILE, j0 = blockIdx.x * TILE;
    const float* Qh = Q + (size_t)h * seq * d;
    const float* Kh = K + (size_t)h * seq * d;
    float acc = 0.0f;
    for (int c0 = 0; c0 < d; c0 += TILE) {
        Qs[ty][tx] = (i0 + ty < seq && c0 + tx < d) ? Qh[(size_t)(i0 + ty) * d + c0 + tx] : 0.0f;
        Ks[ty][tx] = (j0 + ty < seq && c0 + tx < d) ? Kh[(size_t)(j0 + ty) * d + c0 + tx] : 0.0f;
        __syncthreads();
        for (int k = 0; k < TILE; ++k) acc += Qs[ty][k] * Ks[tx][k];
        __syncthreads();
    }
    const int i = i0 + ty, j = j0 + tx;
    if (i < seq && j < seq) S[((size_t)h * seq + i) * seq + j] = scale * acc;
}

extern "C" void launch_attention_scores(const float* Q, const float* K, float* S, int heads, int seq, int d, float scale,
                                        cudaStream_t stream)
{
    dim3 block(TILE, TILE);
    dim3 grid((seq + TILE - 1) / TILE, (seq + TILE - 1) / TILE, heads);
    attention_scores<<<grid, block, 0, stream>>>(Q, K, S, heads, seq, d, scale);
}
