// out[s] = max of segment s (CSR-style ragged segments). One thread per segment: each thread walks
// its own segment serially, so a warp reads 32 segments ~256 bytes apart (uncoalesced) and waits for the longest.
#include <cuda_runtime.h>
#include <math.h>

#define THREADS 256

// Segment s covers values[seg_start(s), seg_start(s + 1)): CSR offsets of a ragged batch,
// offset[s] = s * avg + jitter(s) with jitter in [0, avg), so lengths range over 1 .. 2 * avg - 1.
__device__ __forceinline__ int seg_start(int s, int avg)
{
    return s * avg + (int)((((unsigned)s * 2654435761u) >> 13) % (unsigned)avg);
}

// kforecast: nseg = 1 << 18; avg = 64; values: f32[nseg * avg + avg] rand; out: f32[nseg] zeros; rtol = 0; atol = 0
__global__ void segment_max(const float* __restrict__ values, float* __restrict__ out, int nseg, int avg)
{
    const int s = blockIdx.x * blockDim.x + threadIdx.x;
    if (s >= nseg) return;
    const int begin = seg_start(s, avg);
    const int end = seg_start(s + 1, avg);
    float m = -INFINITY;
    for (int i = begin; i < end; ++i) m = fmaxf(m, values[i]);
    out[s] = m;
}

extern "C" void launch_segment_max(const float* values, float* out, int nseg, int avg, cudaStream_t stream)
{
    segment_max<<<(nseg + THREADS - 1) / THREADS, THREADS, 0, stream>>>(values, out, nseg, avg);
}
