// Sort every 1024-float segment ascending with a bitonic network, one block of
// 512 threads per segment, working directly on the output in global memory:
// each of the 55 steps is one compare-exchange per thread and a __syncthreads.
// `out` is not __restrict__: threads read each other's writes to it.
#include <cuda_runtime.h>

#define SEG 1024
#define THREADS (SEG / 2)

// kforecast: num_segments = 16384; in: f32[num_segments, 1024] randn; out: f32[num_segments, 1024]; rtol = 0; atol = 0
__global__ void __launch_bounds__(THREADS)
bitonic_sort(const float* __restrict__ in, float* out, int num_segments)
{
    const int t = threadIdx.x;
    const size_t base = (size_t)blockIdx.x * SEG;
    float* a = out + base;
    a[t] = in[base + t];
    a[t + THREADS] = in[base + t + THREADS];
    __syncthreads();
    for (int k = 2; k <= SEG; k <<= 1) {
        for (int j = k >> 1; j > 0; j >>= 1) {
            const int i = 2 * t - (t & (j - 1));
            const int p = i + j;
            const float x = a[i], y = a[p];
            const bool up = (i & k) == 0;
            if ((x > y) == up) {
                a[i] = y;
                a[p] = x;
            }
            __syncthreads();
        }
    }
}

extern "C" void launch_bitonic_sort(const float* in, float* out, int num_segments, cudaStream_t stream)
{
    bitonic_sort<<<num_segments, THREADS, 0, stream>>>(in, out, num_segments);
}
