// out[s] = max of segment s. One 128-thread block per segment with a shared-memory tree reduction:
// coalesced, but segments average 64 elements, so half the threads idle and every segment pays 7 barriers.
#include <cuda_runtime.h>
#include <math.h>

#define THREADS 128

// Segment s covers values[seg_start(s), seg_start(s + 1)): CSR offsets of a ragged batch,
// offset[s] = s * avg + jitter(s) with jitter in [0, avg), so lengths range over 1 .. 2 * avg - 1.
__device__ __forceinline__ int seg_start(int s, int avg)
{
    return s * avg + (int)((((unsigned)s * 2654435761u) >> 13) % (unsigned)avg);
}

// kforecast: nseg = 1 << 18; avg = 64; values: f32[nseg * avg + avg] rand; out: f32[nseg] zeros; rtol = 0; atol = 0
__global__ void segment_max(const float* __restrict__ values, float* __restrict__ out, int nseg, int avg)
{
    __shared__ float red[THREADS];
    const int s = blockIdx.x;
    const int begin = seg_start(s, avg);
    const int end = seg_start(s + 1, avg);
    float m = -INFINITY;
    for (int i = begin + threadIdx.x; i < end; i += THREADS) m = fmaxf(m, values[i]);
    red[threadIdx.x] = m;
    __syncthreads();
    for (int stride = THREADS / 2; stride > 0; stride >>= 1) {
        if (threadIdx.x < stride) red[threadIdx.x] = fmaxf(red[threadIdx.x], red[threadIdx.x + stride]);
        __syncthreads();
    }
    if (threadIdx.x == 0) out[s] = red[0];
}

extern "C" void launch_segment_max(const float* values, float* out, int nseg, int avg, cudaStream_t stream)
{
    segment_max<<<nseg, THREADS, 0, stream>>>(values, out, nseg, avg);
}
