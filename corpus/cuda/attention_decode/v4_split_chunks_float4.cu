// Decode-step attention (one query per head, 4096 keys, head dim 128): split-K
// inside one block of 512 per head: each of the 16 warps runs an online softmax
// over its own contiguous chunk of keys (lane owns 4 dims, float4 K and V
// loads), then the 16 partial states are merged in shared memory.
#include <cuda_runtime.h>
#include <math.h>

#define THREADS 512
#define WARPS (THREADS / 32)
#define HEAD_DIM 128
#define FULL_MASK 0xffffffffu

// kforecast: heads = 128; seq = 4096; scale = 0.08838834764831845; q: f32[heads, 128] randn; k: f32[heads, seq, 128] randn; v: f32[heads, seq, 128] randn; out: f32[heads, 128]; rtol = 1e-3; atol = 2e-5
__global__ void __launch_bounds__(THREADS)
attention_decode(const float* __restrict__ q, const float* __restrict__ k, const float* __restrict__ v,
                 float* __restrict__ out, float scale, int heads, int seq)
{
    __shared__ float sm_m[WARPS], sm_l[WARPS];
    __shared__ float4 sm_acc[WARPS][HEAD_DIM / 4];
    const int h = blockIdx.x;
    const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
    const float4* kh = reinterpret_cast<const float4*>(k + (size_t)h * seq * HEAD_DIM);
    const float4* vh = reinterpret_cast<const float4*>(v + (size_t)h * seq * HEAD_DIM);
    const float4 qv = reinterpret_cast<const float4*>(q + (size_t)h * HEAD_DIM)[lane];
    const int chunk = (seq + WARPS - 1) / WARPS;
    const int j0 = warp * chunk;
    const int j1 = min(seq, j0 + chunk);
    float m = -INFINITY, l = 0.0f;
    float4 acc = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    for (int j = j0; j < j1; ++j) {
        const float4 kv = kh[(size_t)j * (HEAD_DIM / 4) + lane];
        const float4 vv = vh[(size_t)j * (HEAD_DIM / 4) + lane];
        float s = qv.x * kv.x + qv.y * kv.y + qv.z * kv.z + qv.w * kv.w;
#pragma unroll
        for (int o = 16; o > 0; o >>= 1) s += __shfl_xor_sync(FULL_MASK, s, o);
        s *= scale;
        const float m_new = fmaxf(m, s);
        const float c = expf(m - m_new);
        const float p = expf(s - m_new);
        l = l * c + p;
        acc.x = acc.x * c + p * vv.x;
        acc.y = acc.y * c + p * vv.y;
        acc.z = acc.z * c + p * vv.z;
        acc.w = acc.w * c + p * vv.w;
        m = m_new;
    }
    if (lane == 0) {
        sm_m[warp] = m;
        sm_l[warp] = l;
    }
    sm_acc[warp][lane] = acc;
    __syncthreads();
    if (tid < HEAD_DIM) {
        const float* accs = reinterpret_cast<const float*>(sm_acc);
        float M = -INFINITY;
        for (int w = 0; w < WARPS; ++w) M = fmaxf(M, sm_m[w]);
        float L = 0.0f, o = 0.0f;
        for (int w = 0; w < WARPS; ++w) {
            const float f = expf(sm_m[w] - M);
            L += sm_l[w] * f;
            o += accs[w * HEAD_DIM + tid] * f;
        }
        out[(size_t)h * HEAD_DIM + tid] = o / L;
    }
}

extern "C" void launch_attention_decode(const float* q, const float* k, const float* v, float* out, float scale,
                                        int heads, int seq, cudaStream_t stream)
{
    attention_decode<<<heads, THREADS, 0, stream>>>(q, k, v, out, scale, heads, seq);
}
