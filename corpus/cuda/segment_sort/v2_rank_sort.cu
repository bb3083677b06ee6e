// Sort every 1024-element segment by ranking: each thread counts how many
// elements are smaller than its own (ties broken by position) by scanning the
// whole segment in shared memory, then scatters its element to that rank.
// O(n^2) comparisons, but no barriers inside the loop.
#include <cuda_runtime.h>

#define SEG 1024

// kforecast: num_segments = 4096; in: f32[num_segments, 1024] randn; out: f32[num_segments, 1024]; rtol = 0; atol = 0
__global__ void __launch_bounds__(SEG)
sort_segments(const float* __restrict__ in, float* __restrict__ out, int num_segments)
{
    __shared__ float s[SEG];
    const int t = threadIdx.x;
    const size_t base = (size_t)blockIdx.x * SEG;
    const float v = in[base + t];
    s[t] = v;
    __syncthreads();
    int rank = 0;
#pragma unroll 8
    for (int j = 0; j < SEG; ++j) {
        const float u = s[j];
        rank += (u < v) || (u == v && j < t);
    }
    out[base + rank] = v;
}

extern "C" void launch_sort_segments(const float* in, float* out, int num_segments, cudaStream_t stream)
{
    sort_segments<<<num_segments, SEG, 0, stream>>>(in, out, num_segments);
}
