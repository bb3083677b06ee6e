// y = A @ x, one warp per row with float4 loads of A and x (cols % 4 == 0),
// two independent accumulators, shuffle sum.
#include <cuda_runtime.h>

#define THREADS   128
#define WARPS     (THREADS / 32)
#define FULL_MASK 0xffffffffu

// kforecast: rows = 8192; cols = 4096; A: f32[rows, cols] randn; x: f32[cols] randn; y: f32[rows]; rtol = 1e-3; atol = 1e-2
__global__ void __launch_bounds__(THREADS)
sgemv(const float* __restrict__ A, const float* __restrict__ x, float* __restrict__ y, int rows, int cols)
{
    const int lane = threadIdx.x & 31;
    const int r = blockIdx.x * WARPS + (threadIdx.x >> 5);
    if (r >= rows) return;
    const float4* a4 = reinterpret_cast<const float4*>(A + (size_t)r * cols);
    const float4* x4 = reinterpret_cast<const float4*>(x);
    const int n4 = cols >> 2;
    float acc0 = 0.0f, acc1 = 0.0f;
    for (int c = lane; c < n4; c += 32) {
        const float4 a = a4[c], b = __ldg(&x4[c]);
        acc0 = fmaf(a.x, b.x, acc0);
        acc1 = fmaf(a.y, b.y, acc1);
        acc0 = fmaf(a.z, b.z, acc0);
        acc1 = fmaf(a.w, b.w, acc1);
    }
    float acc = acc0 + acc1;
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) acc += __shfl_xor_sync(FULL_MASK, acc, o);
    if (lane == 0) y[r] = acc;
}

extern "C" void launch_sgemv(const float* A, const float* x, float* y, int rows, int cols, cudaStream_t stream)
{
    sgemv<<<(rows + WARPS - 1) / WARPS, THREADS, 0, stream>>>(A, x, y, rows, cols);
}
