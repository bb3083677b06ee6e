// out[s] = max of segment s. 16 lanes per segment (2 segments per warp) in a fixed grid of 132 x 16
// blocks striding over segments; each lane takes two elements per step (two independent maxima, ILP 2).
#include <cuda_runtime.h>
#include <math.h>

#define THREADS        256
#define LANES          16
#define GROUPS         (THREADS / LANES)
#define BLOCKS         (132 * 16)
#define FULL_MASK      0xffffffffu

// Segment s covers values[seg_start(s), seg_start(s + 1)): CSR offsets of a ragged batch,
// offset[s] = s * avg + jitter(s) with jitter in [0, avg), so lengths range over 1 .. 2 * avg - 1.
__device__ __forceinline__ int seg_start(int s, int avg)
{
    return s * avg + (int)((((unsigned)s * 2654435761u) >> 13) % (unsigned)avg);
}

// kforecast: nseg = 1 << 18; avg = 64; values: f32[nseg * avg + avg] rand; out: f32[nseg] zeros; rtol = 0; atol = 0
__global__ void segment_max(const float* __restrict__ values, float* __restrict__ out, int nseg, int avg)
{
    const int sub = threadIdx.x & (LANES - 1);
    const int group = blockIdx.x * GROUPS + threadIdx.x / LANES;
    const int num_groups = gridDim.x * GROUPS;
    // Both halves of a warp run the same number of trips so the shuffles stay warp-uniform.
    const int trips = (nseg + num_groups - 1) / num_groups;
    for (int t = 0; t < trips; ++t) {
        const int s = group + t * num_groups;
        float m0 = -INFINITY, m1 = -INFINITY;
        if (s < nseg) {
            const int begin = seg_start(s, avg);
            const int end = seg_start(s + 1, avg);
            int i = begin + sub;
            for (; i + LANES < end; i += 2 * LANES) {
                m0 = fmaxf(m0, values[i]);
                m1 = fmaxf(m1, values[i + LANES]);
            }
            if (i < end) m0 = fmaxf(m0, values[i]);
        }
        float m = fmaxf(m0, m1);
#pragma unroll
        for (int o = LANES / 2; o > 0; o >>= 1) m = fmaxf(m, __shfl_xor_sync(FULL_MASK, m, o, LANES));
        if (s < nseg && sub == 0) out[s] = m;
    }
}

extern "C" void launch_segment_max(const float* values, float* out, int nseg, int avg, cudaStream_t stream)
{
    segment_max<<<BLOCKS, THREADS, 0, stream>>>(values, out, nseg, avg);
}
