// y = (W_int8 @ x) * scale, one warp per row: lanes stride the row one byte each
// (32-byte warp loads), shuffle sum, scale applied by lane 0.
#include <cuda_runtime.h>

#define THREADS   256
#define WARPS     (THREADS / 32)
#define FULL_MASK 0xffffffffu

// kforecast: M = 16384; K = 4096; W: i8[M, K] randint(-127,128); x: f32[K] randn; scale: f32[M] rand; y: f32[M]; rtol = 1e-3; atol = 0.1
__global__ void __launch_bounds__(THREADS)
int8_gemv(const signed char* __restrict__ W, const float* __restrict__ x, const float* __restrict__ scale,
          float* __restrict__ y, int M, int K)
{
    const int lane = threadIdx.x & 31;
    const int r = blockIdx.x * WARPS + (threadIdx.x >> 5);
    if (r >= M) return;
    const signed char* w = W + (size_t)r * K;
    float acc = 0.0f;
    for (int c = lane; c < K; c += 32) acc = fmaf((float)w[c], __ldg(&x[c]), acc);
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) acc += __shfl_xor_sync(FULL_MASK, acc, o);
    if (lane == 0) y[r] = acc * scale[r];
}

extern "C" void launch_int8_gemv(const signed char* W, const float* x, const float* scale, float* y, int M, int K,
                                 cudaStream_t stream)
{
    int8_gemv<<<(M + WARPS - 1) / WARPS, THREADS, 0, stream>>>(W, x, scale, y, M, K);
}
