// Sort every 1024-element segment ascending: one block per segment, bitonic sort
// in shared memory, one element per thread (1024 threads, half idle per step).
#include <cuda_runtime.h>

#define SEG 1024

// kforecast: num_segments = 4096; in: f32[num_segments, 1024] randn; out: f32[num_segments, 1024]; rtol = 0; atol = 0
__global__ void __launch_bounds__(SEG)
sort_segments(const float* __restrict__ in, float* __restrict__ out, int num_segments)
{
    __shared__ float s[SEG];
    const int t = threadIdx.x;
    const size_t base = (size_t)blockIdx.x * SEG;
    s[t] = in[base + t];
    __syncthreads();
    for (int k = 2; k <= SEG; k <<= 1) {
        for (int j = k >> 1; j > 0; j >>= 1) {
            const int p = t ^ j;
            if (p > t) {
                const float a = s[t], b = s[p];
                const bool up = (t & k) == 0;
                if ((a > b) == up) {
                    s[t] = b;
                    s[p] = a;
                }
            }
            __syncthreads();
        }
    }
    out[base + t] = s[t];
}

extern "C" void launch_sort_segments(const float* in, float* out, int num_segments, cudaStream_t stream)
{
    sort_segments<<<num_segments, SEG, 0, stream>>>(in, out, num_segments);
}
