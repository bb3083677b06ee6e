// Sign bits packed 32 per word: each thread loads 4 consecutive floats as a float4
// and forms a nibble; 8 lanes own one word and OR their shifted nibbles together
// with __shfl_xor_sync; lane 0 of each group of 8 stores the word.
#include <cuda_runtime.h>

#define THREADS   256
#define FULL_MASK 0xffffffffu

// kforecast: n = 1 << 26; x: f32[n] randn; out: u32[(n + 31) / 32] zeros; rtol = 0; atol = 0
__global__ void __launch_bounds__(THREADS)
bitpack_ballot(const float* __restrict__ x, unsigned int* __restrict__ out, int n)
{
    const int t = blockIdx.x * THREADS + threadIdx.x;
    const int lane = threadIdx.x & 31;
    const int e = t * 4;
    unsigned int nib = 0;
    if (e + 3 < n) {
        const float4 v = reinterpret_cast<const float4*>(x)[t];
        nib = (v.x > 0.0f ? 1u : 0u) | (v.y > 0.0f ? 2u : 0u) | (v.z > 0.0f ? 4u : 0u) | (v.w > 0.0f ? 8u : 0u);
    } else {
        for (int k = 0; k < 4; ++k)
            if (e + k < n && x[e + k] > 0.0f) nib |= 1u << k;
    }
    unsigned int bits = nib << ((lane & 7) * 4);
    bits |= __shfl_xor_sync(FULL_MASK, bits, 1);
    bits |= __shfl_xor_sync(FULL_MASK, bits, 2);
    bits |= __shfl_xor_sync(FULL_MASK, bits, 4);
    if ((lane & 7) == 0 && e < n) out[e >> 5] = bits;
}

extern "C" void launch_bitpack_ballot(const float* x, unsigned int* out, int n, cudaStream_t stream)
{
    const int quads = (n + 3) / 4;
    bitpack_ballot<<<(quads + THREADS - 1) / THREADS, THREADS, 0, stream>>>(x, out, n);
}
