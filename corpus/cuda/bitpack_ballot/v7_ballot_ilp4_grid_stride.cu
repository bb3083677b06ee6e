// Sign bits packed 32 per word: each warp handles 128 consecutive floats per
// iteration (4 coalesced loads in flight per lane, 4 ballots), lanes 0..3 store the
// 4 words; grid-stride loop on a fixed grid.
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
    for (int base = warp * 128; base < n; base += num_warps * 128) {
        float v[4];
#pragma unroll
        for (int k = 0; k < 4; ++k) {
            const int i = base + k * 32 + lane;
            v[k] = i < n ? x[i] : 0.0f;
        }
        unsigned int mine = 0;
#pragma unroll
        for (int k = 0; k < 4; ++k) {
            const unsigned int bits = __ballot_sync(FULL_MASK, v[k] > 0.0f);
            if (lane == k) mine = bits;
        }
        if (lane < 4 && base + lane * 32 < n) out[(base >> 5) + lane] = mine;
    }
}

extern "C" void launch_bitpack_ballot(const float* x, unsigned int* out, int n, cudaStream_t stream)
{
    bitpack_ballot<<<NUM_SMS * 4, THREADS, 0, stream>>>(x, out, n);
}
