// RoPE, one thread per (token, head) rotating the whole head vector in a loop:
// neighbouring threads are head_dim floats apart (uncoalesced scalar accesses)
// and every head recomputes powf / sincosf for all its pairs.
// RoPE with interleaved pairs (GPT-J / LLaMA style): for token t, every head and
// pair i < head_dim / 2, (x[2i], x[2i+1]) is rotated by pos[t] * ROPE_BASE^(-2i / head_dim);
// x and out are [tokens, heads, head_dim].
#include <cuda_runtime.h>

#define THREADS   128
#define ROPE_BASE 10000.0f

// kforecast: tokens = 8192; heads = 32; head_dim = 128; x: f32[tokens, heads, head_dim] randn; pos: i32[tokens] randint(0, 4096); out: f32[tokens, heads, head_dim]; rtol = 1e-3; atol = 1e-2
__global__ void rope(const float* __restrict__ x, const int* __restrict__ pos, float* __restrict__ out, int tokens, int heads, int head_dim)
{
    const int th = blockIdx.x * blockDim.x + threadIdx.x;
    if (th >= tokens * heads) return;
    const int t = th / heads;
    const float fp = (float)pos[t];
    const float* src = x + (size_t)th * head_dim;
    float* dst = out + (size_t)th * head_dim;
    for (int i = 0; i < head_dim / 2; ++i) {
        const float inv_freq = powf(ROPE_BASE, -2.0f * (float)i / (float)head_dim);
        float s, c;
        sincosf(fp * inv_freq, &s, &c);
        const float x0 = src[2 * i], x1 = src[2 * i + 1];
        dst[2 * i] = x0 * c - x1 * s;
        dst[2 * i + 1] = x0 * s + x1 * c;
    }
}

extern "C" void launch_rope(const float* x, const int* pos, float* out, int tokens, int heads, int head_dim, cudaStream_t stream)
{
    rope<<<(tokens * heads + THREADS - 1) / THREADS, THREADS, 0, stream>>>(x, pos, out, tokens, heads, head_dim);
}
