// Decode-step attention (one query per head, 4096 keys, head dim 128): one warp
// (a 32-thread block) per head, online softmax in a single pass over K and V;
// each lane owns 4 consecutive dims (float4 loads), scores by shuffle reduction.
#include <cuda_runtime.h>
#include <math.h>

#define HEAD_DIM 128
#define FULL_MASK 0xffffffffu

// kforecast: heads = 128; seq = 4096; scale = 0.08838834764831845; q: f32[heads, 128] randn; k: f32[heads, seq, 128] randn; v: f32[heads, seq, 128] randn; out: f32[heads, 128]; rtol = 1e-3; atol = 2e-5
__global__ void __launch_bounds__(32)
attention_decode(const float* __restrict__ q, const float* __restrict__ k, const float* __restrict__ v,
                 float* __restrict__ out, float scale, int heads, int seq)
{
    const int h = blockIdx.x;
    const int lane = threadIdx.x;
    const float4* kh = reinterpret_cast<const float4*>(k + (size_t)h * seq * HEAD_DIM);
    const float4* vh = reinterpret_cast<const float4*>(v + (size_t)h * seq * HEAD_DIM);
    const float4 qv = reinterpret_cast<const float4*>(q + (size_t)h * HEAD_DIM)[lane];
    float m = -INFINITY, l = 0.0f;
    float4 acc = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    for (int j = 0; j < seq; ++j) {
        const float4 kv = kh[(size_t)j * (HEAD_DIM / 4) + lane];
        float s = qv.x * kv.x + qv.y * kv.y + qv.z * kv.z + qv.w * kv.w;
#pragma unroll
        for (int o = 16; o > 0; o >>= 1) s += __shfl_xor_sync(FULL_MASK, s, o);
        s *= scale;
        const float m_new = fmaxf(m, s);
        const float c = expf(m - m_new);
        const float p = expf(s - m_new);
        const float4 vv = vh[(size_t)j * (HEAD_DIM / 4) + lane];
        l = l * c + p;
        acc.x = acc.x * c + p * vv.x;
        acc.y = acc.y * c + p * vv.y;
        acc.z = acc.z * c + p * vv.z;
        acc.w = acc.w * c + p * vv.w;
        m = m_new;
    }
    const float inv = 1.0f / l;
    reinterpret_cast<float4*>(out + (size_t)h * HEAD_DIM)[lane] = make_float4(acc.x * inv, acc.y * inv, acc.z * inv, acc.w * inv);
}

extern "C" void launch_attention_decode(const float* q, const float* k, const float* v, float* out, float scale,
                                        int heads, int seq, cudaStream_t stream)
{
    attention_decode<<<heads, 32, 0, stream>>>(q, k, v, out, scale, heads, seq);
}
