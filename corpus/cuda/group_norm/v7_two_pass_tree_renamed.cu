// GroupNorm forward, the two-pass shared-memory tree version with renamed variables, the
// group offset computed from (sample, group) and the channel index from a running division.
#include <cuda_runtime.h>
#include <math.h>

#define BLOCK 256

__device__ float tree_sum(float val, float* smem)
{
    const int t = threadIdx.x;
    smem[t] = val;
    __syncthreads();
    for (int half = BLOCK >> 1; half > 0; half >>= 1) {
        if (t < half) smem[t] += smem[t + half];
        __syncthreads();
    }
    const float total = smem[0];
    __syncthreads();
    return total;
}

// kforecast: N = 64; C = 256; HW = 1024; G = 32; eps = 0.00001; x: f32[N, C, HW] randn; weight: f32[C] randn; bias: f32[C] randn; y: f32[N, C, HW]; rtol = 1e-3; atol = 1e-3
__global__ void group_norm(const float* __restrict__ x, const float* __restrict__ weight, const float* __restrict__ bias,
           float* __restrict__ y, int N, int C, int HW, int G, float eps)
{
    __shared__ float smem[BLOCK];
    const int sample = blockIdx.x / G;
    const int grp = blockIdx.x - sample * G;
    const int ch_per_grp = C / G;
    const int elems = ch_per_grp * HW;
    const size_t offset = ((size_t)sample * C + (size_t)grp * ch_per_grp) * HW;
    const float* src = x + offset;
    float* dst = y + offset;

    float acc = 0.0f;
    for (int e = threadIdx.x; e < elems; e += BLOCK) acc += src[e];
    const float mu = tree_sum(acc, smem) / elems;

    float acc2 = 0.0f;
    for (int e = threadIdx.x; e < elems; e += BLOCK) {
        const float dev = src[e] - mu;
        acc2 += dev * dev;
    }
    const float inv_std = 1.0f / sqrtf(tree_sum(acc2, smem) / elems + eps);

    const int c0 = grp * ch_per_grp;
    for (int e = threadIdx.x; e < elems; e += BLOCK) {
        const int ch = c0 + e / HW;
        dst[e] = (src[e] - mu) * inv_std * weight[ch] + bias[ch];
    }
}

extern "C" void launch_group_norm(const float* x, const float* weight, const float* bias, float* y, int N, int C, int HW,
                                  int G, float eps, cudaStream_t stream)
{
    group_norm<<<N * G, BLOCK, 0, stream>>>(x, weight, bias, y, N, C, HW, G, eps);
}
