// Sort every 1024-element segment with odd-even transposition sort: 1024 phases,
// each a round of compare-exchanges between neighbours (512 threads), separated
// by barriers. Simple, but O(n) barriers and O(n^2) work.
#include <cuda_runtime.h>

#define SEG     1024
#define THREADS (SEG / 2)

// kforecast: num_segments = 4096; in: f32[num_segments, 1024] randn; out: f32[num_segments, 1024]; rtol = 0; atol = 0
__global__ void __launch_bounds__(THREADS)
sort_segments(const float* __restrict__ in, float* __restrict__ out, int num_segments)
{
    __shared__ float s[SEG];
    const int t = threadIdx.x;
    const size_t base = (size_t)blockIdx.x * SEG;
    s[t] = in[base + t];
    s[t + THREADS] = in[base + t + THREADS];
    __syncthreads();
    for (int phase = 0; phase < SEG; ++phase) {
        const int i = 2 * t + (phase & 1);
        if (i + 1 < SEG) {
            const float a = s[i], b = s[i + 1];
            if (a > b) {
                s[i] = b;
                s[i + 1] = a;
            }
        }
        __syncthreads();
    }
    out[base + t] = s[t];
    out[base + t + THREADS] = s[t + THREADS];
}

extern "C" void launch_sort_segments(const float* in, float* out, int num_segments, cudaStream_t stream)
{
    sort_segments<<<num_segments, THREADS, 0, stream>>>(in, out, num_segments);
}
