// MoE token permutation out[perm[t], :] = x[t, :] (scatter), H a multiple of 4. The warp-per-row float4 copy with 128-thread blocks (4 rows per block), names changed.
#include <cuda_runtime.h>

#define BLOCK 128
#define ROWS_PER_BLOCK (BLOCK / 32)
// Routing permutation: token t goes to row (t * PERM_MUL) mod T (T a power of two,
// PERM_MUL odd, so this is a bijection); PERM_INV is PERM_MUL^-1 mod 2^32.
#define PERM_MUL 40503u
#define PERM_INV 1650947975u

// kforecast: T = 65536; H = 1024; x: f32[T, H] randn; out: f32[T, H]; rtol = 0; atol = 0
__global__ void __launch_bounds__(BLOCK)
moe_permute(const float* __restrict__ x, float* __restrict__ out, int T, int H)
{
    const int row = blockIdx.x * ROWS_PER_BLOCK + threadIdx.x / 32;
    const int lane = threadIdx.x % 32;
    if (row >= T) return;
    const unsigned target = ((unsigned)row * PERM_MUL) & (unsigned)(T - 1);
    const int vecs = H / 4;
    const float4* in4 = reinterpret_cast<const float4*>(x) + (size_t)row * vecs;
    float4* out4 = reinterpret_cast<float4*>(out) + (size_t)target * vecs;
    for (int v = lane; v < vecs; v += 32) out4[v] = in4[v];
}

extern "C" void launch_moe_permute(const float* x, float* out, int T, int H, cudaStream_t stream)
{
    moe_permute<<<(T + ROWS_PER_BLOCK - 1) / ROWS_PER_BLOCK, BLOCK, 0, stream>>>(x, out, T, H);
}
