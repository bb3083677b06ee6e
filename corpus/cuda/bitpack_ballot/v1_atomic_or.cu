// Sign bits packed 32 per word: one thread per element, every positive element sets
// its bit with a global atomicOr into its word (out starts zeroed).
#include <cuda_runtime.h>

#define THREADS 256

// kforecast: n = 1 << 26; x: f32[n] randn; out: u32[(n + 31) / 32] zeros; rtol = 0; atol = 0
__global__ void bitpack_ballot(const float* __restrict__ x, unsigned int* __restrict__ out, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && x[i] > 0.0f) atomicOr(&out[i >> 5], 1u << (i & 31));
}

extern "C" void launch_bitpack_ballot(const float* x, unsigned int* out, int n, cudaStream_t stream)
{
    bitpack_ballot<<<(n + THREADS - 1) / THREADS, THREADS, 0, stream>>>(x, out, n);
}
