// RoPE, one thread per pair with float2 accesses, as the pair version, with 512-thread
// blocks and renamed variables.
// RoPE with interleaved pairs (GPT-J / LLaMA style): for token t, every head and
// pair i < head_dim / 2, (x[2i], x[2i+1]) is rotated by pos[t] * ROPE_BASE^(-2i / head_dim);
// x and out are [tokens, heads, head_dim].
#include <cuda_runtime.h>

#define BLOCK     512
#define ROPE_BASE 10000.0f

// kforecast: tokens = 8192; heads = 32; head_dim = 128; x: f32[tokens, heads, head_dim] randn; pos: i32[tokens] randint(0, 4096); out: f32[tokens, heads, head_dim]; rtol = 1e-3; atol = 1e-2
__global__ void rope(const float* __restrict__ x, const int* __restrict__ pos, float* __restrict__ out, int tokens, int heads, int head_dim)
{
    const int pairs_per_head = head_dim >> 1;
    const int pair = blockIdx.x * BLOCK + threadIdx.x;
    if (pair >= tokens * heads * pairs_per_head) return;
    const int token = pair / (heads * pairs_per_head);
    const int k = pair % pairs_per_head;
    const float theta = (float)pos[token] * powf(ROPE_BASE, -2.0f * (float)k / (float)head_dim);
    float sn, cs;
    sincosf(theta, &sn, &cs);
    const float2 in2 = reinterpret_cast<const float2*>(x)[pair];
    float2 r;
    r.x = in2.x * cs - in2.y * sn;
    r.y = in2.x * sn + in2.y * cs;
    reinterpret_cast<float2*>(out)[pair] = r;
}

extern "C" void launch_rope(const float* x, const int* pos, float* out, int tokens, int heads, int head_dim, cudaStream_t stream)
{
    const int pairs = tokens * heads * (head_dim / 2);
    rope<<<(pairs + BLOCK - 1) / BLOCK, BLOCK, 0, stream>>>(x, pos, out, tokens, heads, head_dim);
}
