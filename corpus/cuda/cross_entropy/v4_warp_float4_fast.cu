// Per-row cross-entropy loss, one warp per row with float4 loads (classes % 4 == 0):
// each lane rescales its running sum once per float4, fast __expf/__logf intrinsics.
#include <cuda_runtime.h>
#include <math.h>

#define THREADS      256
#define ROWS_PER_BLK (THREADS / 32)
#define FULL_MASK    0xffffffffu

// kforecast: rows = 8192; classes = 4096; logits: f32[rows, classes] randn; labels: i32[rows] randint(0,4096); loss: f32[rows]; rtol = 1e-4; atol = 1e-4
__global__ void __launch_bounds__(THREADS)
cross_entropy(const float* __restrict__ logits, const int* __restrict__ labels, float* __restrict__ loss,
              int rows, int classes)
{
    const int lane = threadIdx.x & 31;
    const int r = blockIdx.x * ROWS_PER_BLK + (threadIdx.x >> 5);
    if (r >= rows) return;
    const float* x = logits + (size_t)r * classes;
    const float4* x4 = reinterpret_cast<const float4*>(x);
    const int n4 = classes >> 2;

    float m = -INFINITY, s = 0.0f;
    for (int c = lane; c < n4; c += 32) {
        const float4 v = x4[c];
        const float nm = fmaxf(m, fmaxf(fmaxf(v.x, v.y), fmaxf(v.z, v.w)));
        s = s * __expf(m - nm) + (__expf(v.x - nm) + __expf(v.y - nm)) + (__expf(v.z - nm) + __expf(v.w - nm));
        m = nm;
    }
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) {
        const float om = __shfl_xor_sync(FULL_MASK, m, o);
        const float os = __shfl_xor_sync(FULL_MASK, s, o);
        const float nm = fmaxf(m, om);
        s = s * __expf(m - nm) + os * __expf(om - nm);
        m = nm;
    }
    if (lane == 0) loss[r] = m + __logf(s) - x[labels[r]];
}

extern "C" void launch_cross_entropy(const float* logits, const int* labels, float* loss, int rows, int classes,
                                     cudaStream_t stream)
{
    const int blocks = (rows + ROWS_PER_BLK - 1) / ROWS_PER_BLK;
    cross_entropy<<<blocks, THREADS, 0, stream>>>(logits, labels, loss, rows, classes);
}
