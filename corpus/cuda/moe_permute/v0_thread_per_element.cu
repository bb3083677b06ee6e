// MoE token permutation out[perm[t], :] = x[t, :] (scatter). Naive: one thread per element on a flat grid, token and column by division and modulo, scalar copies.
#include <cuda_runtime.h>

#define THREADS 256
// Routing permutation: token t goes to row (t * PERM_MUL) mod T (T a power of two,
// PERM_MUL odd, so this is a bijection); PERM_INV is PERM_MUL^-1 mod 2^32.
#define PERM_MUL 40503u
#define PERM_INV 1650947975u

// kforecast: T = 65536; H = 1024; x: f32[T, H] randn; out: f32[T, H]; rtol = 0; atol = 0
__global__ void moe_permute(const float* __restrict__ x, float* __restrict__ out, int T, int H)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= T * H) return;
    const int t = i / H;
    const int c = i % H;
    const unsigned dst = ((unsigned)t * PERM_MUL) & (unsigned)(T - 1);
    out[(size_t)dst * H + c] = x[i];
}

extern "C" void launch_moe_permute(const float* x, float* out, int T, int H, cudaStream_t stream)
{
    moe_permute<<<(T * H + THREADS - 1) / THREADS, THREADS, 0, stream>>>(x, out, T, H);
}
