// Per-column mean and variance: one warp per column (8 per block), each lane sums a
// contiguous chunk of rows, so a warp load touches 32 rows far apart (uncoalesced);
// sum and sum of squares combined with warp shuffles.
#include <cuda_runtime.h>

#define WARPS 8

// kforecast: N = 4096; C = 4096; x: f32[N, C] randn; mean: f32[C]; var: f32[C]; ws: f32[2, C] zeros; count: u32[C] zeros; outputs = mean, var; rtol = 1e-3; atol = 1e-4
__global__ void __launch_bounds__(WARPS * 32)
bn_stats(const float* __restrict__ x, float* __restrict__ mean, float* __restrict__ var,
         float* __restrict__ ws, unsigned int* __restrict__ count, int N, int C)
{
    const int lane = threadIdx.x;
    const int c = blockIdx.x * WARPS + threadIdx.y;
    if (c >= C) return;
    const int chunk = (N + 31) / 32;
    const int r0 = lane * chunk;
    const int r1 = min(r0 + chunk, N);
    float s = 0.0f, ss = 0.0f;
    for (int r = r0; r < r1; ++r) {
        const float v = x[(size_t)r * C + c];
        s += v;
        ss += v * v;
    }
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) {
        s += __shfl_xor_sync(0xffffffffu, s, o);
        ss += __shfl_xor_sync(0xffffffffu, ss, o);
    }
    if (lane == 0) {
        const float m = s / N;
        mean[c] = m;
        var[c] = ss / N - m * m;
    }
}

extern "C" void launch_bn_stats(const float* x, float* mean, float* var, float* ws, unsigned int* count, int N, int C,
                                cudaStream_t stream)
{
    dim3 block(32, WARPS);
    bn_stats<<<(C + WARPS - 1) / WARPS, block, 0, stream>>>(x, mean, var, ws, count, N, C);
}
