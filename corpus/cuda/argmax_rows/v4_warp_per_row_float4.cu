// Per-row argmax (maximum value and its first column) of a row-major matrix
// (cols % 4 == 0). One warp per row with float4 loads, two loads in flight per
// lane per iteration, butterfly shuffle of (value, index) pairs.
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

// Folds the 4 elements of q (columns 4*c4 .. 4*c4 + 3) into (v, i), first column winning ties.
__device__ __forceinline__ void scan4(float& v, int& i, float4 q, int c4)
{
    const int c = 4 * c4;
    if (q.x > v) { v = q.x; i = c; }
    if (q.y > v) { v = q.y; i = c + 1; }
    if (q.z > v) { v = q.z; i = c + 2; }
    if (q.w > v) { v = q.w; i = c + 3; }
}

// kforecast: rows = 8192; cols = 4096; x: f32[rows, cols] randn; out_val: f32[rows]; out_idx: i32[rows]; rtol = 0; atol = 0
__global__ void __launch_bounds__(THREADS)
argmax_rows(const float* __restrict__ x, float* __restrict__ out_val, int* __restrict__ out_idx, int rows, int cols)
{
    const int lane = threadIdx.x & 31;
    const int r = blockIdx.x * WARPS + (threadIdx.x >> 5);
    if (r >= rows) return;
    const float4* p4 = reinterpret_cast<const float4*>(x + (size_t)r * cols);
    const int n4 = cols >> 2;
    float v = -INFINITY;
    int i = INT_MAX;
    int c = lane;
    for (; c + 32 < n4; c += 64) {
        const float4 a = p4[c];
        const float4 b = p4[c + 32];
        scan4(v, i, a, c);
        scan4(v, i, b, c + 32);
    }
    if (c < n4) scan4(v, i, p4[c], c);
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
