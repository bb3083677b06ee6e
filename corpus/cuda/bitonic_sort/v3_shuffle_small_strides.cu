// Sort every 1024-float segment ascending: bitonic network with one element per
// thread (1024 threads), partners at distance j < 32 exchanged in registers with
// __shfl_xor_sync (no barrier), j >= 32 through shared memory.
#include <cuda_runtime.h>

#define SEG 1024
#define FULL_MASK 0xffffffffu

// kforecast: num_segments = 16384; in: f32[num_segments, 1024] randn; out: f32[num_segments, 1024]; rtol = 0; atol = 0
__global__ void __launch_bounds__(SEG)
bitonic_sort(const float* __restrict__ in, float* __restrict__ out, int num_segments)
{
    __shared__ float s[SEG];
    const int t = threadIdx.x;
    const size_t base = (size_t)blockIdx.x * SEG;
    float v = in[base + t];
    for (int k = 2; k <= SEG; k <<= 1) {
        const bool up = (t & k) == 0;
        for (int j = k >> 1; j > 0; j >>= 1) {
            float other;
            if (j >= 32) {
                s[t] = v;
                __syncthreads();
                other = s[t ^ j];
                __syncthreads();
            } else {
                other = __shfl_xor_sync(FULL_MASK, v, j);
            }
            // The lower element of a pair keeps the minimum when sorting up.
            const bool lower = (t & j) == 0;
            v = (lower == up) ? fminf(v, other) : fmaxf(v, other);
        }
    }
    out[base + t] = v;
}

extern "C" void launch_bitonic_sort(const float* in, float* out, int num_segments, cudaStream_t stream)
{
    bitonic_sort<<<num_segments, SEG, 0, stream>>>(in, out, num_segments);
}
