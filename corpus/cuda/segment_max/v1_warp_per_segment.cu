// out[s] = max of segment s. One warp per segment: lanes read consecutive elements (coalesced),
// then a 5-step butterfly of __shfl_xor_sync combines the 32 partial maxima. 8 segments per 256-thread block.
#include <cuda_runtime.h>
#include <math.h>

#define THREADS       256
#define WARPS         (THREADS / 32)
#define FULL_MASK     0xffffffffu

// Segment s covers values[seg_start(s), seg_start(s + 1)): CSR offsets of a ragged batch,
// offset[s] = s * avg + jitter(s) with jitter in [0, avg), so lengths range over 1 .. 2 * avg - 1.
__device__ __forceinline__ int seg_start(int s, int avg)
{
    return s * avg + (int)((((unsigned)s * 2654435761u) >> 13) % (unsigned)avg);
}

// kforecast: nseg = 1 << 18; avg = 64; values: f32[nseg * avg + avg] rand; out: f32[nseg] zeros; rtol = 0; atol = 0
__global__ void segment_max(const float* __restrict__ values, float* __restrict__ out, int nseg, int avg)
{
    const int lane = threadIdx.x & 31;
    const int s = blockIdx.x * WARPS + threadIdx.x / 32;
    if (s >= nseg) return;  // whole warp leaves together
    const int begin = seg_start(s, avg);
    const int end = seg_start(s + 1, avg);
    float m = -INFINITY;
    for (int i = begin + lane; i < end; i += 32) m = fmaxf(m, values[i]);
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) m = fmaxf(m, __shfl_xor_sync(FULL_MASK, m, o));
    if (lane == 0) out[s] = m;
}

extern "C" void launch_segment_max(const float* values, float* out, int nseg, int avg, cudaStream_t stream)
{
    segment_max<<<(nseg + WARPS - 1) / WARPS, THREADS, 0, stream>>>(values, out, nseg, avg);
}
