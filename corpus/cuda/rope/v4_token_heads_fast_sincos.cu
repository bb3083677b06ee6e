// RoPE, as the token/heads-loop version (angles once per token and pair, all heads in
// a loop), with the fast intrinsic __sincosf and the frequency as exp2f of a
// precomputed log2, and the head loop unrolled by 4.
// RoPE with interleaved pairs (GPT-J / LLaMA style): for token t, every head and
// pair i < head_dim / 2, (x[2i], x[2i+1]) is rotated by pos[t] * ROPE_BASE^(-2i / head_dim);
// x and out are [tokens, heads, head_dim].
#include <cuda_runtime.h>

#define BX         64
#define BY         4
#define LOG2_BASE  13.287712379549449f

// kforecast: tokens = 8192; heads = 32; head_dim = 128; x: f32[tokens, heads, head_dim] randn; pos: i32[tokens] randint(0, 4096); out: f32[tokens, heads, head_dim]; rtol = 1e-3; atol = 1e-2
__global__ void __launch_bounds__(BX * BY)
rope(const float* __restrict__ x, const int* __restrict__ pos, float* __restrict__ out, int tokens, int heads, int head_dim)
{
    const int t = blockIdx.x * BY + threadIdx.y;
    if (t >= tokens) return;
    const int half = head_dim / 2;
    const float fp = (float)pos[t];
    const float step = -2.0f * LOG2_BASE / (float)head_dim;
    const float2* src = reinterpret_cast<const float2*>(x) + (size_t)t * heads * half;
    float2* dst = reinterpret_cast<float2*>(out) + (size_t)t * heads * half;
    for (int i = threadIdx.x; i < half; i += BX) {
        float s, c;
        __sincosf(fp * exp2f((float)i * step), &s, &c);
#pragma unroll 4
        for (int h = 0; h < heads; ++h) {
            const float2 v = src[h * half + i];
            dst[h * half + i] = make_float2(v.x * c - v.y * s, v.x * s + v.y * c);
        }
    }
}

extern "C" void launch_rope(const float* x, const int* pos, float* out, int tokens, int heads, int head_dim, cudaStream_t stream)
{
    dim3 block(BX, BY);
    dim3 grid((tokens + BY - 1) / BY);
    rope<<<grid, block, 0, stream>>>(x, pos, out, tokens, heads, head_dim);
}
