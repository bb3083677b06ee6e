// Sign bits packed 32 per word: one thread per output word loops over its 32
// floats (each thread walks its own 128 bytes, so a warp's loads are 128 B apart).
#include <cuda_runtime.h>

#define THREADS 256

// kforecast: n = 1 << 26; x: f32[n] randn; out: u32[(n + 31) / 32] zeros; rtol = 0; atol = 0
__global__ void bitpack_ballot(const float* __restrict__ x, unsigned int* __restrict__ out, int n)
{
    const int w = blockIdx.x * blockDim.x + threadIdx.x;
    const int words = (n + 31) / 32;
    if (w >= words) return;
    const int base = w * 32;
    unsigned int bits = 0;
    for (int b = 0; b < 32; ++b) {
        const int i = base + b;
        if (i < n && x[i] > 0.0f) bits |= 1u << b;
    }
    out[w] = bits;
}

extern "C" void launch_bitpack_ballot(const float* x, unsigned int* out, int n, cudaStream_t stream)
{
    const int words = (n + 31) / 32;
    bitpack_ballot<<<(words + THREADS - 1) / THREADS, THREADS, 0, stream>>>(x, out, n);
}
