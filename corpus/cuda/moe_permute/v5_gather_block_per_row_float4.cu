// MoE token permutation in gather form out[s, :] = x[inv_perm[s], :], H a multiple of 4. One 256-thread block per destination row: the source token is computed with the inverse multiplier, float4 reads from the permuted row, sequential float4 writes.
#include <cuda_runtime.h>

#define THREADS 256
// Routing permutation: token t goes to row (t * PERM_MUL) mod T (T a power of two,
// PERM_MUL odd, so this is a bijection); PERM_INV is PERM_MUL^-1 mod 2^32.
#define PERM_MUL 40503u
#define PERM_INV 1650947975u

// kforecast: T = 65536; H = 1024; x: f32[T, H] randn; out: f32[T, H]; rtol = 0; atol = 0
__global__ void __launch_bounds__(THREADS)
moe_permute(const float* __restrict__ x, float* __restrict__ out, int T, int H)
{
    const int s = blockIdx.x;
    const unsigned t = ((unsigned)s * PERM_INV) & (unsigned)(T - 1);
    const int h4 = H >> 2;
    const float4* src = reinterpret_cast<const float4*>(x + (size_t)t * H);
    float4* d = reinterpret_cast<float4*>(out + (size_t)s * H);
    for (int c = threadIdx.x; c < h4; c += THREADS) d[c] = src[c];
}

extern "C" void launch_moe_permute(const float* x, float* out, int T, int H, cudaStream_t stream)
{
    moe_permute<<<T, THREADS, 0, stream>>>(x, out, T, H);
}
