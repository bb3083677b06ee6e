// Per-row cross-entropy loss, one warp per row (8 rows per block of 256): one pass with
// an online (max, sum of exp) pair per lane, merged by warp shuffles; no shared memory.
#include <cuda_runtime.h>
#include <math.h>

#define THREADS      256
#define ROWS_PER_BLK (THREADS / 32)
#define FULL_MASK    0xffffffffu

// Merges the pair (om, os) into (m, s): s is a sum of exp(x - m).
__device__ __forceinline__ void lse_merge(float& m, float& s, float om, float os)
{
    const float nm = fmaxf(m, om);
    if (nm == -INFINITY) return;
    s = s * expf(m - nm) + os * expf(om - nm);
    m = nm;
}

// kforecast: rows = 8192; classes = 4096; logits: f32[rows, classes] randn; labels: i32[rows] randint(0,4096); loss: f32[rows]; rtol = 1e-4; atol = 1e-4
__global__ void __launch_bounds__(THREADS)
cross_entropy(const float* __restrict__ logits, const int* __restrict__ labels, float* __restrict__ loss,
              int rows, int classes)
{
    const int lane = threadIdx.x & 31;
    const int r = blockIdx.x * ROWS_PER_BLK + (threadIdx.x >> 5);
    if (r >= rows) return;
    const float* x = logits + (size_t)r * classes;

    float m = -INFINITY, s = 0.0f;
    for (int c = lane; c < classes; c += 32) {
        const float v = x[c];
        if (v > m) {
            s = s * expf(m - v) + 1.0f;
            m = v;
        } else {
            s += expf(v - m);
        }
    }
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) {
        const float om = __shfl_xor_sync(FULL_MASK, m, o);
        const float os = __shfl_xor_sync(FULL_MASK, s, o);
        lse_merge(m, s, om, os);
    }
    if (lane == 0) loss[r] = m + logf(s) - x[labels[r]];
}

extern "C" void launch_cross_entropy(const float* logits, const int* labels, float* loss, int rows, int classes,
                                     cudaStream_t stream)
{
    const int blocks = (rows + ROWS_PER_BLK - 1) / ROWS_PER_BLK;
    cross_entropy<<<blocks, THREADS, 0, stream>>>(logits, labels, loss, rows, classes);
}
