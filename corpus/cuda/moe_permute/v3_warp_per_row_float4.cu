// MoE token permutation out[perm[t], :] = x[t, :] (scatter), H a multiple of 4. One warp per token row, 8 rows per 256-thread block, float4 copies.
#include <cuda_runtime.h>

#define THREADS 256
#define WARPS (THREADS / 32)
// Routing permutation: token t goes to row (t * PERM_MUL) mod T (T a power of two,
// PERM_MUL odd, so this is a bijection); PERM_INV is PERM_MUL^-1 mod 2^32.
#define PERM_MUL 40503u
#define PERM_INV 1650947975u

// kforecast: T = 65536; H = 1024; x: f32[T, H] randn; out: f32[T, H]; rtol = 0; atol = 0
__global__ void __launch_bounds__(THREADS)
moe_permute(const float* __restrict__ x, float* __restrict__ out, int T, int H)
{
    const int lane = threadIdx.x & 31;
    const int t = blockIdx.x * WARPS + (threadIdx.x >> 5);
    if (t >= T) return;
    const unsigned dst = ((unsigned)t * PERM_MUL) & (unsigned)(T - 1);
    const int h4 = H >> 2;
    const float4* src = reinterpret_cast<const float4*>(x + (size_t)t * H);
    float4* d = reinterpret_cast<float4*>(out + (size_t)dst * H);
    for (int c = lane; c < h4; c += 32) d[c] = src[c];
}

extern "C" void launch_moe_permute(const float* x, float* out, int T, int H, cudaStream_t stream)
{
    moe_permute<<<(T + WARPS - 1) / WARPS, THREADS, 0, stream>>>(x, out, T, H);
}
