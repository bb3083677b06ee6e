// Sign bits packed 32 per word: one thread per element (coalesced loads), the warp's
// 32 predicates combined with __ballot_sync, lane 0 stores the word. Blocks of 256.
#include <cuda_runtime.h>

#define THREADS   256
#define FULL_MASK 0xffffffffu

// kforecast: n = 1 << 26; x: f32[n] randn; out: u32[(n + 31) / 32] zeros; rtol = 0; atol = 0
__global__ void __launch_bounds__(THREADS)
bitpack_ballot(const float* __restrict__ x, unsigned int* __restrict__ out, int n)
{
    const int i = blockIdx.x * THREADS + threadIdx.x;
    const bool positive = i < n && x[i] > 0.0f;
    const unsigned int bits = __ballot_sync(FULL_MASK, positive);
    if ((threadIdx.x & 31) == 0 && i < n) out[i >> 5] = bits;
}

extern "C" void launch_bitpack_ballot(const float* x, unsigned int* out, int n, cudaStream_t stream)
{
    bitpack_ballot<<<(n + THREADS - 1) / THREADS, THREADS, 0, stream>>>(x, out, n);
}
