// Sort every 1024-float segment ascending with a bitonic network in shared
// memory, 512 threads per segment, the shared array padded by one word every 32
// (index i + i / 32) so that small-stride steps hit fewer bank conflicts.
#include <cuda_runtime.h>

#define SEG 1024
#define THREADS (SEG / 2)

// Shared-memory slot of element i: one padding word after every 32.
__device__ __forceinline__ int pad(int i) { return i + (i >> 5); }

// kforecast: num_segments = 16384; in: f32[num_segments, 1024] randn; out: f32[num_segments, 1024]; rtol = 0; atol = 0
__global__ void __launch_bounds__(THREADS)
bitonic_sort(const float* __restrict__ in, float* __restrict__ out, int num_segments)
{
    __shared__ float s[SEG + SEG / 32];
    const int t = threadIdx.x;
    const size_t base = (size_t)blockIdx.x * SEG;
    s[pad(t)] = in[base + t];
    s[pad(t + THREADS)] = in[base + t + THREADS];
    __syncthreads();
    for (int k = 2; k <= SEG; k <<= 1) {
        for (int j = k >> 1; j > 0; j >>= 1) {
            const int i = 2 * t - (t & (j - 1));
            const int pi = pad(i), pp = pad(i + j);
            const float x = s[pi], y = s[pp];
            const bool up = (i & k) == 0;
            if ((x > y) == up) {
                s[pi] = y;
                s[pp] = x;
            }
            __syncthreads();
        }
    }
    out[base + t] = s[pad(t)];
    out[base + t + THREADS] = s[pad(t + THREADS)];
}

extern "C" void launch_bitonic_sort(const float* in, float* out, int num_segments, cudaStream_t stream)
{
    bitonic_sort<<<num_segments, THREADS, 0, stream>>>(in, out, num_segments);
}
