// Decode-step attention (one query per head over a 4096-entry KV cache, head
// dim 128): one block of 256 per head, one thread per key computes its score
// from its own K row (lanes 512 B apart), scores kept in shared memory, a block
// max and a block sum, then threads 0..127 each accumulate one output dim over V.
#include <cuda_runtime.h>
#include <math.h>

#define THREADS 256
#define HEAD_DIM 128
#define MAX_SEQ 4096

// kforecast: heads = 128; seq = 4096; scale = 0.08838834764831845; q: f32[heads, 128] randn; k: f32[heads, seq, 128] randn; v: f32[heads, seq, 128] randn; out: f32[heads, 128]; rtol = 1e-3; atol = 2e-5
__global__ void __launch_bounds__(THREADS)
attention_decode(const float* __restrict__ q, const float* __restrict__ k, const float* __restrict__ v,
                 float* __restrict__ out, float scale, int heads, int seq)
{
    __shared__ float scores[MAX_SEQ];
    __shared__ float red[THREADS];
    const int h = blockIdx.x;
    const int tid = threadIdx.x;
    const float* qh = q + (size_t)h * HEAD_DIM;
    const float* kh = k + (size_t)h * seq * HEAD_DIM;
    const float* vh = v + (size_t)h * seq * HEAD_DIM;

    for (int j = tid; j < seq; j += THREADS) {
        float s = 0.0f;
        for (int e = 0; e < HEAD_DIM; ++e) s += qh[e] * kh[(size_t)j * HEAD_DIM + e];
        scores[j] = s * scale;
    }
    __syncthreads();

    float m = -INFINITY;
    for (int j = tid; j < seq; j += THREADS) m = fmaxf(m, scores[j]);
    red[tid] = m;
    __syncthreads();
    for (int o = THREADS / 2; o > 0; o >>= 1) {
        if (tid < o) red[tid] = fmaxf(red[tid], red[tid + o]);
        __syncthreads();
    }
    m = red[0];
    __syncthreads();

    float l = 0.0f;
    for (int j = tid; j < seq; j += THREADS) {
        const float p = expf(scores[j] - m);
        scores[j] = p;
        l += p;
    }
    red[tid] = l;
    __syncthreads();
    for (int o = THREADS / 2; o > 0; o >>= 1) {
        if (tid < o) red[tid] += red[tid + o];
        __syncthreads();
    }
    l = red[0];

    if (tid < HEAD_DIM) {
        float acc = 0.0f;
        for (int j = 0; j < seq; ++j) acc += scores[j] * vh[(size_t)j * HEAD_DIM + tid];
        out[(size_t)h * HEAD_DIM + tid] = acc / l;
    }
}

extern "C" void launch_attention_decode(const float* q, const float* k, const float* v, float* out, float scale,
                                        int heads, int seq, cudaStream_t stream)
{
    attention_decode<<<heads, THREADS, 0, stream>>>(q, k, v, out, scale, heads, seq);
}
