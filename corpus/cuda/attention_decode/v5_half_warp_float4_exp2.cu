// Decode-step attention (one query per head, 4096 keys, head dim 128): split-K
// inside one block of 512 per head, each warp a contiguous chunk whose keys
// alternate between its two half-warps (16 lanes x 8 dims, two float4 per row,
// 4-step shuffle reduction), online softmax in base 2 with exp2f and the scale
// folded with log2(e); 32 partial states merged in shared memory.
#include <cuda_runtime.h>
#include <math.h>

#define THREADS 512
#define WARPS (THREADS / 32)
#define GROUPS (2 * WARPS)
#define HEAD_DIM 128
#define LOG2E 1.4426950408889634f
#define FULL_MASK 0xffffffffu

// kforecast: heads = 128; seq = 4096; scale = 0.08838834764831845; q: f32[heads, 128] randn; k: f32[heads, seq, 128] randn; v: f32[heads, seq, 128] randn; out: f32[heads, 128]; rtol = 1e-3; atol = 2e-5
__global__ void __launch_bounds__(THREADS)
attention_decode(const float* __restrict__ q, const float* __restrict__ k, const float* __restrict__ v,
                 float* __restrict__ out, float scale, int heads, int seq)
{
    __shared__ float sm_m[GROUPS], sm_l[GROUPS];
    __shared__ float4 sm_acc[GROUPS][HEAD_DIM / 4];
    const int h = blockIdx.x;
    const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
    const int half = lane >> 4, hl = lane & 15;
    const float4* kh = reinterpret_cast<const float4*>(k + (size_t)h * seq * HEAD_DIM);
    const float4* vh = reinterpret_cast<const float4*>(v + (size_t)h * seq * HEAD_DIM);
    const float4* qh = reinterpret_cast<const float4*>(q + (size_t)h * HEAD_DIM);
    const float4 qa = qh[2 * hl], qb = qh[2 * hl + 1];
    const float scale2 = scale * LOG2E;
    const int chunk = (seq + WARPS - 1) / WARPS;
    const int j0 = warp * chunk;
    const int j1 = min(seq, j0 + chunk);
    float m = -INFINITY, l = 0.0f;
    float4 acc_a = make_float4(0.0f, 0.0f, 0.0f, 0.0f), acc_b = acc_a;
    // Both halves run the same number of iterations (shuffles need the whole warp).
    for (int jb = j0; jb < j1; jb += 2) {
        const int j = jb + half;
        const bool valid = j < j1;
        const size_t row = (size_t)(valid ? j : jb) * (HEAD_DIM / 4);
        const float4 ka = kh[row + 2 * hl], kb = kh[row + 2 * hl + 1];
        const float4 va = vh[row + 2 * hl], vb = vh[row + 2 * hl + 1];
        float s = qa.x * ka.x + qa.y * ka.y + qa.z * ka.z + qa.w * ka.w
                + qb.x * kb.x + qb.y * kb.y + qb.z * kb.z + qb.w * kb.w;
#pragma unroll
        for (int o = 8; o > 0; o >>= 1) s += __shfl_xor_sync(FULL_MASK, s, o);
        if (valid) {
            s *= scale2;
            const float m_new = fmaxf(m, s);
            const float c = exp2f(m - m_new);
            const float p = exp2f(s - m_new);
            l = l * c + p;
            acc_a.x = acc_a.x * c + p * va.x;
            acc_a.y = acc_a.y * c + p * va.y;
            acc_a.z = acc_a.z * c + p * va.z;
            acc_a.w = acc_a.w * c + p * va.w;
            acc_b.x = acc_b.x * c + p * vb.x;
            acc_b.y = acc_b.y * c + p * vb.y;
            acc_b.z = acc_b.z * c + p * vb.z;
            acc_b.w = acc_b.w * c + p * vb.w;
            m = m_new;
        }
    }
    const int g = 2 * warp + half;
    if (hl == 0) {
        sm_m[g] = m;
        sm_l[g] = l;
    }
    sm_acc[g][2 * hl] = acc_a;
    sm_acc[g][2 * hl + 1] = acc_b;
    __syncthreads();
    if (tid < HEAD_DIM) {
        const float* accs = reinterpret_cast<const float*>(sm_acc);
        float M = -INFINITY;
        for (int w = 0; w < GROUPS; ++w) M = fmaxf(M, sm_m[w]);
        float L = 0.0f, o = 0.0f;
        for (int w = 0; w < GROUPS; ++w) {
            const float f = exp2f(sm_m[w] - M);
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
