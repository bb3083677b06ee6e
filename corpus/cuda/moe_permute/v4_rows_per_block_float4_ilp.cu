// MoE token permutation out[perm[t], :] = x[t, :] (scatter), H a multiple of 4. Each 256-thread block copies 4 token rows; a thread loads its float4 of all 4 rows before storing them (4 independent loads in flight).
#include <cuda_runtime.h>

#define THREADS 256
#define ROWS 4
// Routing permutation: token t goes to row (t * PERM_MUL) mod T (T a power of two,
// PERM_MUL odd, so this is a bijection); PERM_INV is PERM_MUL^-1 mod 2^32.
#define PERM_MUL 40503u
#define PERM_INV 1650947975u

// kforecast: T = 65536; H = 1024; x: f32[T, H] randn; out: f32[T, H]; rtol = 0; atol = 0
__global__ void __launch_bounds__(THREADS)
moe_permute(const float* __restrict__ x, float* __restrict__ out, int T, int H)
{
    const int t0 = blockIdx.x * ROWS;
    const int h4 = H >> 2;
    const float4* src = reinterpret_cast<const float4*>(x);
    float4* d = reinterpret_cast<float4*>(out);
    for (int c = threadIdx.x; c < h4; c += THREADS) {
        float4 v[ROWS];
#pragma unroll
        for (int r = 0; r < ROWS; ++r)
            if (t0 + r < T) v[r] = src[(size_t)(t0 + r) * h4 + c];
#pragma unroll
        for (int r = 0; r < ROWS; ++r) {
            if (t0 + r < T) {
                const unsigned dst = ((unsigned)(t0 + r) * PERM_MUL) & (unsigned)(T - 1);
                d[(size_t)dst * h4 + c] = v[r];
            }
        }
    }
}

extern "C" void launch_moe_permute(const float* x, float* out, int T, int H, cudaStream_t stream)
{
    moe_permute<<<(T + ROWS - 1) / ROWS, THREADS, 0, stream>>>(x, out, T, H);
}
