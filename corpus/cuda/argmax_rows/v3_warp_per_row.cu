// Per-row argmax (maximum value and its first column) of a row-major matrix.
// One warp per row (8 rows per 256-thread block): lanes stride along the row,
// butterfly shuffle of (value, index) pairs, no shared memory or __syncthreads.
#include <cuda_runtime.h>

#define THREADS   256
#define WARPS     (THREADS / 32)
#define FULL_MASK 0xffffffffu

// (v, i) <- (ov, oi) if ov is larger, or equal with a smaller index (ties go to the first column).
__device__ __forceinline__ void take_better(float& v, int& i, float ov, int oi)
{
    if (ov > v || (ov == v && oi < i)) {
        v = ov;
        i = oi;
    }
}

// kforecast: rows = 8192; cols = 4096; x: f32[rows, cols] randn; out_val: f32[rows]; out_idx: i32[rows]; rtol = 0; atol = 0
__global__ void argmax_rows(const float* __restrict__ x, float* __restrict__ out_val, int* __restrict__ out_idx, int rows, int cols)
{
    const int lane = threadIdx.x & 31;
    const int r = blockIdx.x * WARPS + (threadIdx.x >> 5);
    if (r >= rows) return;
    const float* p = x + (size_t)r * cols;
    float v = -INFINITY;
    int i = INT_MAX;
    for (int c = lane; c < cols; c += 32) {
        const float e = p[c];
        if (e > v) {
            v = e;
            i = c;
        }
    }
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) {
        const float ov = __shfl_xor_sync(FULL_MASK, v, o);
        const int oi = __shfl_xor_sync(FULL_MASK, i, o);
        take_better(v, i, ov, oi);
    }
    if (lane == 0) {
        out_val[r] = v;
        out_idx[r] = i;
    }
}

extern "C" void launch_argmax_rows(const float* x, float* out_val, int* out_idx, int rows, int cols, cudaStream_t stream)
{
    argmax_rows<<<(rows + WARPS - 1) / WARPS, THREADS, 0, stream>>>(x, out_val, out_idx, rows, cols);
}
