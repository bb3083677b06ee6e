// Decode-step attention (one query per head, 4096 keys, head dim 128): the
// split-K float4 version (16 warps per 512-thread block, contiguous key chunks,
// online softmax, shared-memory merge) with renamed variables, the chunk bounds
// written as begin/end offsets and the merge loops fused; the same work.
#include <cuda_runtime.h>
#include <math.h>

#define BLOCK 512
#define NWARP (BLOCK / 32)
#define D 128
#define D4 (D / 4)
#define FULL_MASK 0xffffffffu

// kforecast: heads = 128; seq = 4096; scale = 0.08838834764831845; q: f32[heads, 128] randn; k: f32[heads, seq, 128] randn; v: f32[heads, seq, 128] randn; out: f32[heads, 128]; rtol = 1e-3; atol = 2e-5
__global__ void __launch_bounds__(BLOCK)
attention_decode(const float* __restrict__ q, const float* __restrict__ k, const float* __restrict__ v,
                 float* __restrict__ out, float scale, int heads, int seq)
{
    __shared__ float part_max[NWARP], part_sum[NWARP];
    __shared__ float4 part_out[NWARP][D4];
    const int lane = threadIdx.x & 31;
    const int wid = threadIdx.x >> 5;
    const size_t head_off = (size_t)blockIdx.x * seq * D4;
    const float4 qq = reinterpret_cast<const float4*>(q)[(size_t)blockIdx.x * D4 + lane];
    const int per_warp = (seq + NWARP - 1) / NWARP;
    const int begin = min(seq, wid * per_warp);
    const int end = min(seq, begin + per_warp);
    const float4* kp = reinterpret_cast<const float4*>(k) + head_off + (size_t)begin * D4 + lane;
    const float4* vp = reinterpret_cast<const float4*>(v) + head_off + (size_t)begin * D4 + lane;
    float run_max = -INFINITY, run_sum = 0.0f;
    float4 o = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    for (int n = end - begin; n > 0; --n, kp += D4, vp += D4) {
        const float4 kk = *kp;
        const float4 vv = *vp;
        float dot = qq.x * kk.x + qq.y * kk.y + qq.z * kk.z + qq.w * kk.w;
#pragma unroll
        for (int off = 16; off > 0; off >>= 1) dot += __shfl_xor_sync(FULL_MASK, dot, off);
        const float score = dot * scale;
        const float new_max = fmaxf(run_max, score);
        const float w = expf(score - new_max);
        const float rescale = expf(run_max - new_max);
        run_sum = run_sum * rescale + w;
        o.x = o.x * rescale + w * vv.x;
        o.y = o.y * rescale + w * vv.y;
        o.z = o.z * rescale + w * vv.z;
        o.w = o.w * rescale + w * vv.w;
        run_max = new_max;
    }
    part_out[wid][lane] = o;
    if (lane == 0) {
        part_max[wid] = run_max;
        part_sum[wid] = run_sum;
    }
    __syncthreads();
    const int d = threadIdx.x;
    if (d < D) {
        float gmax = part_max[0];
#pragma unroll
        for (int w = 1; w < NWARP; ++w) gmax = fmaxf(gmax, part_max[w]);
        float total = 0.0f, res = 0.0f;
        for (int w = 0; w < NWARP; ++w) {
            const float f = expf(part_max[w] - gmax);
            total += part_sum[w] * f;
            res += reinterpret_cast<const float*>(part_out[w])[d] * f;
        }
        out[(size_t)blockIdx.x * D + d] = res / total;
    }
}

extern "C" void launch_attention_decode(const float* q, const float* k, const float* v, float* out, float scale,
                                        int heads, int seq, cudaStream_t stream)
{
    attention_decode<<<heads, BLOCK, 0, stream>>>(q, k, v, out, scale, heads, seq);
}
