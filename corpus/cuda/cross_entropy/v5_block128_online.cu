// Per-row cross-entropy loss, one block of 128 threads per row (v2 with a smaller block):
// online (max, sum of exp) per thread, merged by warp shuffles and then across the 4 warps.
#include <cuda_runtime.h>
#include <math.h>

#define THREADS   128
#define WARPS     (THREADS / 32)
#define FULL_MASK 0xffffffffu

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
    __shared__ float sm[WARPS], ss[WARPS];
    const float* x = logits + (size_t)blockIdx.x * classes;
    const int t = threadIdx.x, lane = t & 31, warp = t >> 5;

    float m = -INFINITY, s = 0.0f;
    for (int c = t; c < classes; c += THREADS) {
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
    if (lane == 0) {
        sm[warp] = m;
        ss[warp] = s;
    }
    __syncthreads();
    if (t == 0) {
        m = sm[0];
        s = ss[0];
        for (int w = 1; w < WARPS; ++w) lse_merge(m, s, sm[w], ss[w]);
        loss[blockIdx.x] = m + logf(s) - x[labels[blockIdx.x]];
    }
}

extern "C" void launch_cross_entropy(const float* logits, const int* labels, float* loss, int rows, int classes,
                                     cudaStream_t stream)
{
    cross_entropy<<<rows, THREADS, 0, stream>>>(logits, labels, loss, rows, classes);
}
