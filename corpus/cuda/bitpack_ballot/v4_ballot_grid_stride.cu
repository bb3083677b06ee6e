// Sign bits packed 32 per word: __ballot_sync per warp in a grid-stride loop over
// 32-element words on a fixed grid (8 blocks of 256 per SM).
#include <cuda_runtime.h>

#define THREADS   256
#define NUM_SMS   132
#define FULL_MASK 0xffffffffu

// kforecast: n = 1 << 26; x: f32[n] randn; out: u32[(n + 31) / 32] zeros; rtol = 0; atol = 0
__global__ void __launch_bounds__(THREADS)
bitpack_ballot(const float* __restrict__ x, unsigned int* __restrict__ out, int n)
{
    const int lane = threadIdx.x & 31;
    const int warp = (blockIdx.x * THREADS + threadIdx.x) >> 5;
    const int num_warps = (gridDim.x * THREADS) >> 5;
    for (int base = warp * 32; base < n; base += num_warps * 32) {
        const int i = base + lane;
        const unsigned int bits = __ballot_sync(FULL_MASK, i < n && x[i] > 0.0f);
        if (lane == 0) out[base >> 5] = bits;
    }
}

extern "C" void launch_bitpack_ballot(const float* x, unsigned int* out, int n, cudaStream_t stream)
{
    bitpack_ballot<<<NUM_SMS * 8, THREADS, 0, stream>>>(x, out, n);
}
