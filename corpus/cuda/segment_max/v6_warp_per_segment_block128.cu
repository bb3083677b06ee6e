// out[s] = max of segment s. Same as the warp-per-segment version with 128-thread blocks (4 segments
// per block), renamed locals and a shfl_down reduction (lane 0 holds the result) instead of the butterfly.
#include <cuda_runtime.h>
#include <math.h>

#define BLOCK_THREADS 128
#define SEGS_PER_BLOCK (BLOCK_THREADS / 32)

// Segment s covers values[seg_start(s), seg_start(s + 1)): CSR offsets of a ragged batch,
// offset[s] = s * avg + jitter(s) with jitter in [0, avg), so lengths range over 1 .. 2 * avg - 1.
__device__ __forceinline__ int seg_start(int s, int avg)
{
    return s * avg + (int)((((unsigned)s * 2654435761u) >> 13) % (unsigned)avg);
}

// kforecast: nseg = 1 << 18; avg = 64; values: f32[nseg * avg + avg] rand; out: f32[nseg] zeros; rtol = 0; atol = 0
__global__ void segment_max(const float* __restrict__ values, float* __restrict__ out, int nseg, int avg)
{
    const int seg = (blockIdx.x * BLOCK_THREADS + threadIdx.x) >> 5;
    const int l = threadIdx.x % 32;
    if (seg >= nseg) return;
    const int lo = seg_start(seg, avg);
    const int hi = seg_start(seg + 1, avg);
    float best = -INFINITY;
    for (int k = lo + l; k < hi; k += 32) best = fmaxf(best, values[k]);
    for (int d = 16; d >= 1; d /= 2) best = fmaxf(best, __shfl_down_sync(0xffffffffu, best, d));
    if (l == 0) out[seg] = best;
}

extern "C" void launch_segment_max(const float* values, float* out, int nseg, int avg, cudaStream_t stream)
{
    segment_max<<<(nseg + SEGS_PER_BLOCK - 1) / SEGS_PER_BLOCK, BLOCK_THREADS, 0, stream>>>(values, out, nseg, avg);
}
