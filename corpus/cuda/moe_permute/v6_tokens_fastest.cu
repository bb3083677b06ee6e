// MoE token permutation out[perm[t], :] = x[t, :] (scatter). One thread per element but the flat index runs over tokens first (t = i % T, column = i / T): the lanes of a warp read and write 32 different rows for the same column (uncoalesced).
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
    const int t = i % T;
    const int c = i / T;
    const unsigned dst = ((unsigned)t * PERM_MUL) & (unsigned)(T - 1);
    out[(size_t)dst * H + c] = x[(size_t)t * H + c];
}

extern "C" void launch_moe_permute(const float* x, float* out, int T, int H, cudaStream_t stream)
{
    moe_permute<<<(T * H + THREADS - 1) / THREADS, THREADS, 0, stream>>>(x, out, T, H);
}
