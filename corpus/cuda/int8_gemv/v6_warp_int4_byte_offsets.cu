// y = (W_int8 @ x) * scale, one warp per row with 16-byte loads (as the int4 version),
// written with byte offsets into the row and renamed accumulators: a near-tie.
#include <cuda_runtime.h>

#define THREADS   256
#define WARPS     (THREADS / 32)
#define FULL_MASK 0xffffffffu

// s + the dot product of the four int8 lanes packed in q (little-endian) with xv.
__device__ __forceinline__ float dot4_i8(int q, float4 xv, float s)
{
    s = fmaf((float)((int)((unsigned)q << 24) >> 24), xv.x, s);
    s = fmaf((float)((int)((unsigned)q << 16) >> 24), xv.y, s);
    s = fmaf((float)((int)((unsigned)q << 8) >> 24), xv.z, s);
    s = fmaf((float)(q >> 24), xv.w, s);
    return s;
}

// kforecast: M = 16384; K = 4096; W: i8[M, K] randint(-127,128); x: f32[K] randn; scale: f32[M] rand; y: f32[M]; rtol = 1e-3; atol = 0.1
__global__ void __launch_bounds__(THREADS)
int8_gemv(const signed char* __restrict__ W, const float* __restrict__ x, const float* __restrict__ scale,
          float* __restrict__ y, int M, int K)
{
    const int warp = threadIdx.x >> 5;
    const int lane = threadIdx.x & 31;
    const int row = blockIdx.x * WARPS + warp;
    if (row >= M) return;
    const signed char* wrow = W + (size_t)row * K;
    float s0 = 0.0f, s1 = 0.0f, s2 = 0.0f, s3 = 0.0f;
    for (int k = lane * 16; k < K; k += 32 * 16) {
        const int4 q = *reinterpret_cast<const int4*>(wrow + k);
        const float4* xk = reinterpret_cast<const float4*>(x + k);
        s0 = dot4_i8(q.x, __ldg(xk + 0), s0);
        s1 = dot4_i8(q.y, __ldg(xk + 1), s1);
        s2 = dot4_i8(q.z, __ldg(xk + 2), s2);
        s3 = dot4_i8(q.w, __ldg(xk + 3), s3);
    }
    float total = (s0 + s1) + (s2 + s3);
#pragma unroll
    for (int m = 16; m >= 1; m /= 2) total += __shfl_xor_sync(FULL_MASK, total, m);
    if (lane == 0) y[row] = scale[row] * total;
}

extern "C" void launch_int8_gemv(const signed char* W, const float* x, const float* scale, float* y, int M, int K,
                                 cudaStream_t stream)
{
    int8_gemv<<<(M + WARPS - 1) / WARPS, THREADS, 0, stream>>>(W, x, scale, y, M, K);
}
