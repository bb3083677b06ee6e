// out[s] = max of segment s. Warp per segment, but every lane atomicMax-es each element straight into
// out[s] on its int bits (order-preserving for the non-negative inputs; out starts at 0): no shuffles,
// one atomic per element, all 32 lanes of a warp on the same address (serialised in L2).
#include <cuda_runtime.h>

#define THREADS 256
#define WARPS   (THREADS / 32)

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
    if (s >= nseg) return;
    const int begin = seg_start(s, avg);
    const int end = seg_start(s + 1, avg);
    int* dst = reinterpret_cast<int*>(out) + s;
    for (int i = begin + lane; i < end; i += 32) atomicMax(dst, __float_as_int(values[i]));
}

extern "C" void launch_segment_max(const float* values, float* out, int nseg, int avg, cudaStream_t stream)
{
    segment_max<<<(nseg + WARPS - 1) / WARPS, THREADS, 0, stream>>>(values, out, nseg, avg);
}
