// RoPE, one thread per pair: one float2 load and store, powf and sincosf once per pair.
// RoPE with interleaved pairs (GPT-J / LLaMA style): for token t, every head and
// pair i < head_dim / 2, (x[2i], x[2i+1]) is rotated by pos[t] * ROPE_BASE^(-2i / head_dim);
// x and out are [tokens, heads, head_dim].
#include <cuda_runtime.h>

#define THREADS   256
#define ROPE_BASE 10000.0f

// kforecast: tokens = 8192; heads = 32; head_dim = 128; x: f32[tokens, heads, head_dim] randn; pos: i32[tokens] randint(0, 4096); out: f32[tokens, heads, head_dim]; rtol = 1e-3; atol = 1e-2
__global__ void rope(const float* __restrict__ x, const int* __restrict__ pos, float* __restrict__ out, int tokens, int heads, int head_dim)
{
    const int half = head_dim / 2;
    const int p = blockIdx.x * blockDim.x + threadIdx.x;
    if (p >= tokens * heads * half) return;
    const int i = p % half;
    const int t = p / (heads * half);
    const float inv_freq = powf(ROPE_BASE, -2.0f * (float)i / (float)head_dim);
    const float angle = (float)pos[t] * inv_freq;
    float s, c;
    sincosf(angle, &s, &c);
    const float2 v = reinterpret_cast<const float2*>(x)[p];
    reinterpret_cast<float2*>(out)[p] = make_float2(v.x * c - v.y * s, v.x * s + v.y * c);
}

extern "C" void launch_rope(const float* x, const int* pos, float* out, int tokens, int heads, int head_dim, cudaStream_t stream)
{
    const int pairs = tokens * heads * (head_dim / 2);
    rope<<<(pairs + THREADS - 1) / THREADS, THREADS, 0, stream>>>(x, pos, out, tokens, heads, head_dim);
}
