// RoPE, two pairs per thread with float4 accesses (head_dim % 4 == 0): a 32 x 8 block
// handles 8 tokens, each thread computes two angles once with __sincosf and
// rotates its 4 elements in every head.
// RoPE with interleaved pairs (GPT-J / LLaMA style): for token t, every head and
// pair i < head_dim / 2, (x[2i], x[2i+1]) is rotated by pos[t] * ROPE_BASE^(-2i / head_dim);
// x and out are [tokens, heads, head_dim].
#include <cuda_runtime.h>

#define BX         32
#define BY         8
#define LOG2_BASE  13.287712379549449f

// kforecast: tokens = 8192; heads = 32; head_dim = 128; x: f32[tokens, heads, head_dim] randn; pos: i32[tokens] randint(0, 4096); out: f32[tokens, heads, head_dim]; rtol = 1e-3; atol = 1e-2
__global__ void __launch_bounds__(BX * BY)
rope(const float* __restrict__ x, const int* __restrict__ pos, float* __restrict__ out, int tokens, int heads, int head_dim)
{
    const int t = blockIdx.x * BY + threadIdx.y;
    if (t >= tokens) return;
    const int quarter = head_dim / 4;
    const float fp = (float)pos[t];
    const float step = -2.0f * LOG2_BASE / (float)head_dim;
    const float4* src = reinterpret_cast<const float4*>(x) + (size_t)t * heads * quarter;
    float4* dst = reinterpret_cast<float4*>(out) + (size_t)t * heads * quarter;
    for (int j = threadIdx.x; j < quarter; j += BX) {
        float s0, c0, s1, c1;
        __sincosf(fp * exp2f((float)(2 * j) * step), &s0, &c0);
        __sincosf(fp * exp2f((float)(2 * j + 1) * step), &s1, &c1);
#pragma unroll 4
        for (int h = 0; h < heads; ++h) {
            const float4 v = src[h * quarter + j];
            dst[h * quarter + j] = make_float4(v.x * c0 - v.y * s0, v.x * s0 + v.y * c0,
                                               v.z * c1 - v.w * s1, v.z * s1 + v.w * c1);
        }
    }
}

extern "C" void launch_rope(const float* x, const int* pos, float* out, int tokens, int heads, int head_dim, cudaStream_t stream)
{
    dim3 block(BX, BY);
    dim3 grid((tokens + BY - 1) / BY);
    rope<<<grid, block, 0, stream>>>(x, pos, out, tokens, heads, head_dim);
}
