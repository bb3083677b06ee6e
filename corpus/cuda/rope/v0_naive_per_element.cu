// RoPE, naive: one thread per output element, coordinates by division, and both
// elements of a pair recompute the frequency (powf) and sincosf.
// RoPE with interleaved pairs (GPT-J / LLaMA style): for token t, every head and
// pair i < head_dim / 2, (x[2i], x[2i+1]) is rotated by pos[t] * ROPE_BASE^(-2i / head_dim);
// x and out are [tokens, heads, head_dim].
#include <cuda_runtime.h>

#define THREADS   256
#define ROPE_BASE 10000.0f

// kforecast: tokens = 8192; heads = 32; head_dim = 128; x: f32[tokens, heads, head_dim] randn; pos: i32[tokens] randint(0, 4096); out: f32[tokens, heads, head_dim]; rtol = 1e-3; atol = 1e-2
__global__ void rope(const float* __restrict__ x, const int* __restrict__ pos, float* __restrict__ out, int tokens, int heads, int head_dim)
{
    const int e = blockIdx.x * blockDim.x + threadIdx.x;
    if (e >= tokens * heads * head_dim) return;
    const int d = e % head_dim;
    const int t = e / (heads * head_dim);
    const int i = d / 2;
    const float inv_freq = powf(ROPE_BASE, -2.0f * (float)i / (float)head_dim);
    const float angle = (float)pos[t] * inv_freq;
    float s, c;
    sincosf(angle, &s, &c);
    const float x0 = x[e - (d & 1)];
    const float x1 = x[e - (d & 1) + 1];
    out[e] = (d & 1) == 0 ? x0 * c - x1 * s : x0 * s + x1 * c;
}

extern "C" void launch_rope(const float* x, const int* pos, float* out, int tokens, int heads, int head_dim, cudaStream_t stream)
{
    const int n = tokens * heads * head_dim;
    rope<<<(n + THREADS - 1) / THREADS, THREADS, 0, stream>>>(x, pos, out, tokens, heads, head_dim);
}
