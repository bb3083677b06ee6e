// Decode-step attention (one query per head, 4096 keys, head dim 128): one block
// of 256 per head; scores computed one warp per key (coalesced K row, q in
// registers, shuffle reduction) into shared memory, warp-shuffle max and sum,
// then all 256 threads accumulate V (two key halves per output dim).
#include <cuda_runtime.h>
#include <math.h>

#define THREADS 256
#define WARPS (THREADS / 32)
#define HEAD_DIM 128
#define SPLIT (THREADS / HEAD_DIM)
#define MAX_SEQ 4096
#define FULL_MASK 0xffffffffu

__device__ __forceinline__ float warp_sum(float x)
{
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) x += __shfl_xor_sync(FULL_MASK, x, o);
    return x;
}

__device__ __forceinline__ float warp_max(float x)
{
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) x = fmaxf(x, __shfl_xor_sync(FULL_MASK, x, o));
    return x;
}

// kforecast: heads = 128; seq = 4096; scale = 0.08838834764831845; q: f32[heads, 128] randn; k: f32[heads, seq, 128] randn; v: f32[heads, seq, 128] randn; out: f32[heads, 128]; rtol = 1e-3; atol = 2e-5
__global__ void __launch_bounds__(THREADS)
attention_decode(const float* __restrict__ q, const float* __restrict__ k, const float* __restrict__ v,
                 float* __restrict__ out, float scale, int heads, int seq)
{
    __shared__ float scores[MAX_SEQ];
    __shared__ float red[WARPS];
    __shared__ float partial[THREADS];
    const int h = blockIdx.x;
    const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
    const float* kh = k + (size_t)h * seq * HEAD_DIM;
    const float* vh = v + (size_t)h * seq * HEAD_DIM;
    float qr[HEAD_DIM / 32];
#pragma unroll
    for (int i = 0; i < HEAD_DIM / 32; ++i) qr[i] = q[(size_t)h * HEAD_DIM + lane + 32 * i];

    // Scores: one warp per key, coalesced K rows, shuffle reduction.
    for (int j = warp; j < seq; j += WARPS) {
        const float* row = kh + (size_t)j * HEAD_DIM;
        float s = 0.0f;
#pragma unroll
        for (int i = 0; i < HEAD_DIM / 32; ++i) s += qr[i] * row[lane + 32 * i];
        s = warp_sum(s);
        if (lane == 0) scores[j] = s * scale;
    }
    __syncthreads();

    float m = -INFINITY;
    for (int j = tid; j < seq; j += THREADS) m = fmaxf(m, scores[j]);
    m = warp_max(m);
    if (lane == 0) red[warp] = m;
    __syncthreads();
    m = red[0];
    for (int w = 1; w < WARPS; ++w) m = fmaxf(m, red[w]);
    __syncthreads();

    float l = 0.0f;
    for (int j = tid; j < seq; j += THREADS) {
        const float p = expf(scores[j] - m);
        scores[j] = p;
        l += p;
    }
    l = warp_sum(l);
    if (lane == 0) red[warp] = l;
    __syncthreads();
    l = 0.0f;
    for (int w = 0; w < WARPS; ++w) l += red[w];

    // Weighted sum of V: thread (part, d) takes keys part, part + SPLIT, ...
    const int d = tid % HEAD_DIM, part = tid / HEAD_DIM;
    float acc = 0.0f;
    for (int j = part; j < seq; j += SPLIT) acc += scores[j] * vh[(size_t)j * HEAD_DIM + d];
    partial[tid] = acc;
    __syncthreads();
    if (tid < HEAD_DIM) {
        float o = 0.0f;
        for (int p = 0; p < SPLIT; ++p) o += partial[p * HEAD_DIM + tid];
        out[(size_t)h * HEAD_DIM + tid] = o / l;
    }
}

extern "C" void launch_attention_decode(const float* q, const float* k, const float* v, float* out, float scale,
                                        int heads, int seq, cudaStream_t stream)
{
    attention_decode<<<heads, THREADS, 0, stream>>>(q, k, v, out, scale, heads, seq);
}
