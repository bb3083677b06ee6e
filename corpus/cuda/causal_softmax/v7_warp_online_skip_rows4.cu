// Causal softmax (row i keeps columns 0..i): the skip-masked online warp-per-row version with 4 rows
// per 128-thread block, variables renamed and the zero fill of columns i+1.. written first.
#include <cuda_runtime.h>
#include <math.h>

#define WARPS_PER_BLOCK 4
#define FULL_MASK       0xffffffffu

// Combines two partial (max, sum-of-exp) states.
__device__ __forceinline__ void combine(float& mx, float& acc, float other_mx, float other_acc)
{
    const float top = fmaxf(mx, other_mx);
    const float left = mx == -INFINITY ? 0.0f : acc * __expf(mx - top);
    const float right = other_mx == -INFINITY ? 0.0f : other_acc * __expf(other_mx - top);
    mx = top;
    acc = left + right;
}

// kforecast: bh = 32; t = 1024; scores: f32[bh, t, t] randn; probs: f32[bh, t, t]; rtol = 1e-3; atol = 1e-6
__global__ void __launch_bounds__(WARPS_PER_BLOCK * 32)
causal_softmax(const float* __restrict__ scores, float* __restrict__ probs, int bh, int t)
{
    const int row = blockIdx.x * WARPS_PER_BLOCK + threadIdx.x / 32;
    const int lane = threadIdx.x % 32;
    if (row >= bh * t) return;
    const int diag = row % t;
    const float* src = scores + (size_t)row * t;
    float* dst = probs + (size_t)row * t;

    for (int col = diag + 1 + lane; col < t; col += 32) dst[col] = 0.0f;

    float mx = -INFINITY, acc = 0.0f;
    for (int col = lane; col <= diag; col += 32) {
        const float val = src[col];
        if (val > mx) {
            acc = acc * __expf(mx - val) + 1.0f;
            mx = val;
        } else {
            acc += __expf(val - mx);
        }
    }
#pragma unroll
    for (int off = 16; off > 0; off >>= 1) {
        const float other_mx = __shfl_xor_sync(FULL_MASK, mx, off);
        const float other_acc = __shfl_xor_sync(FULL_MASK, acc, off);
        combine(mx, acc, other_mx, other_acc);
    }
    const float scale = 1.0f / acc;
    for (int col = lane; col <= diag; col += 32) dst[col] = __expf(src[col] - mx) * scale;
}

extern "C" void launch_causal_softmax(const float* scores, float* probs, int bh, int t, cudaStream_t stream)
{
    const int rows = bh * t;
    causal_softmax<<<(rows + WARPS_PER_BLOCK - 1) / WARPS_PER_BLOCK, WARPS_PER_BLOCK * 32, 0, stream>>>(scores, probs, bh, t);
}
