// Sort every 1024-float segment ascending with a bitonic network in shared
// memory: one block of 512 threads per segment, one compare-exchange per thread
// per step, the segment loaded and stored once.
#include <cuda_runtime.h>

#define SEG 1024
#define THREADS (SEG / 2)

// kforecast: num_segments = 16384; in: f32[num_segments, 1024] randn; out: f32[num_segments, 1024]; rtol = 0; atol = 0
__global__ void __launch_bounds__(THREADS)
bitonic_sort(const float* __restrict__ in, float* __restrict__ out, int num_segments)
{
    __shared__ float s[SEG];
    const int t = threadIdx.x;
    const size_t base = (size_t)blockIdx.x * SEG;
    s[t] = in[base + t];
    s[t + THREADS] = in[base + t + THREADS];
    __syncthreads();
    for (int k = 2; k <= SEG; k <<= 1) {
        for (int j = k >> 1; j > 0; j >>= 1) {
            // Pair number t -> lower index i (bit j clear), partner i + j.
            const int i = 2 * t - (t & (j - 1));
            const int p = i + j;
            const float x = s[i], y = s[p];
            const bool up = (i & k) == 0;
            if ((x > y) == up) {
                s[i] = y;
                s[p] = x;
            }
            __syncthreads();
        }
    }
    out[base + t] = s[t];
    out[base + t + THREADS] = s[t + THREADS];
}

extern "C" void launch_bitonic_sort(const float* in, float* out, int num_segments, cudaStream_t stream)
{
    bitonic_sort<<<num_segments, THREADS, 0, stream>>>(in, out, num_segments);
}
