// Sign bits packed 32 per word: the v2 ballot kernel with blocks of 512, renamed
// variables and the word index computed by division instead of a shift.
#include <cuda_runtime.h>

#define BLOCK 512

// kforecast: n = 1 << 26; x: f32[n] randn; out: u32[(n + 31) / 32] zeros; rtol = 0; atol = 0
__global__ void __launch_bounds__(BLOCK)
bitpack_ballot(const float* __restrict__ x, unsigned int* __restrict__ out, int n)
{
    const int idx = blockIdx.x * BLOCK + threadIdx.x;
    const int word = idx / 32;
    const bool is_lead = threadIdx.x % 32 == 0;
    const float v = idx < n ? x[idx] : 0.0f;
    const unsigned int mask = __ballot_sync(0xffffffffu, v > 0.0f);
    if (is_lead && idx < n) out[word] = mask;
}

extern "C" void launch_bitpack_ballot(const float* x, unsigned int* out, int n, cudaStream_t stream)
{
    const int blocks = (n + BLOCK - 1) / BLOCK;
    bitpack_ballot<<<blocks, BLOCK, 0, stream>>>(x, out, n);
}
