// Decode-step attention (one query per head, 4096 keys, head dim 128): one block
// of 256 per head, every warp runs an online softmax over keys warp, warp + 8,
// ... in a single pass over K and V (lane owns dims lane + 32 i, scalar loads),
// then the 8 warp states (max, sum, 128 accumulators) are merged in shared memory.
#include <cuda_runtime.h>
#include <math.h>

#define THREADS 256
#define WARPS (THREADS / 32)
#define HEAD_DIM 128
#define DPL (HEAD_DIM / 32)
#define FULL_MASK 0xffffffffu

// kforecast: heads = 128; seq = 4096; scale = 0.08838834764831845; q: f32[heads, 128] randn; k: f32[heads, seq, 128] randn; v: f32[heads, seq, 128] randn; out: f32[heads, 128]; rtol = 1e-3; atol = 2e-5
__global__ void __launch_bounds__(THREADS)
attention_decode(const float* __restrict__ q, const float* __restrict__ k, const float* __restrict__ v,
                 float* __restrict__ out, float scale, int heads, int seq)
{
    __shared__ float sm_m[WARPS], sm_l[WARPS];
    __shared__ float sm_acc[WARPS][HEAD_DIM];
    const int h = blockIdx.x;
    const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
    const float* kh = k + (size_t)h * seq * HEAD_DIM;
    const float* vh = v + (size_t)h * seq * HEAD_DIM;
    float qr[DPL], acc[DPL];
#pragma unroll
    for (int i = 0; i < DPL; ++i) {
        qr[i] = q[(size_t)h * HEAD_DIM + lane + 32 * i];
        acc[i] = 0.0f;
    }
    float m = -INFINITY, l = 0.0f;
    for (int j = warp; j < seq; j += WARPS) {
        const float* krow = kh + (size_t)j * HEAD_DIM;
        const float* vrow = vh + (size_t)j * HEAD_DIM;
        float s = 0.0f;
#pragma unroll
        for (int i = 0; i < DPL; ++i) s += qr[i] * krow[lane + 32 * i];
#pragma unroll
        for (int o = 16; o > 0; o >>= 1) s += __shfl_xor_sync(FULL_MASK, s, o);
        s *= scale;
        const float m_new = fmaxf(m, s);
        const float c = expf(m - m_new);
        const float p = expf(s - m_new);
        l = l * c + p;
#pragma unroll
        for (int i = 0; i < DPL; ++i) acc[i] = acc[i] * c + p * vrow[lane + 32 * i];
        m = m_new;
    }
    if (lane == 0) {
        sm_m[warp] = m;
        sm_l[warp] = l;
    }
#pragma unroll
    for (int i = 0; i < DPL; ++i) sm_acc[warp][lane + 32 * i] = acc[i];
    __syncthreads();
    if (tid < HEAD_DIM) {
        float M = sm_m[0];
        for (int w = 1; w < WARPS; ++w) M = fmaxf(M, sm_m[w]);
        float L = 0.0f, o = 0.0f;
        for (int w = 0; w < WARPS; ++w) {
            const float f = expf(sm_m[w] - M);
            L += sm_l[w] * f;
            o += sm_acc[w][tid] * f;
        }
        out[(size_t)h * HEAD_DIM + tid] = o / L;
    }
}

extern "C" void launch_attention_decode(const float* q, const float* k, const float* v, float* out, float scale,
                                        int heads, int seq, cudaStream_t stream)
{
    attention_decode<<<heads, THREADS, 0, stream>>>(q, k, v, out, scale, heads, seq);
}
