// y = (W_int8 @ x) * scale: the block stages x in shared memory (K <= 4096) in a
// lane-interleaved layout, then each warp computes 4 rows at once with int4 loads,
// four independent 16-byte loads in flight per lane and each x read reused 4 times.
#include <cuda_runtime.h>

#define THREADS       256
#define WARPS         (THREADS / 32)
#define ROWS_PER_WARP 4
#define ROWS_PER_BLK  (WARPS * ROWS_PER_WARP)
#define KMAX          4096
#define FULL_MASK     0xffffffffu

// acc + the dot product of the four int8 lanes packed in p (little-endian) with v.
__device__ __forceinline__ float dot4_i8(int p, float4 v, float acc)
{
    acc = fmaf((float)((int)((unsigned)p << 24) >> 24), v.x, acc);
    acc = fmaf((float)((int)((unsigned)p << 16) >> 24), v.y, acc);
    acc = fmaf((float)((int)((unsigned)p << 8) >> 24), v.z, acc);
    acc = fmaf((float)(p >> 24), v.w, acc);
    return acc;
}

// kforecast: M = 16384; K = 4096; W: i8[M, K] randint(-127,128); x: f32[K] randn; scale: f32[M] rand; y: f32[M]; rtol = 1e-3; atol = 0.1
__global__ void __launch_bounds__(THREADS)
int8_gemv(const signed char* __restrict__ W, const float* __restrict__ x, const float* __restrict__ scale,
          float* __restrict__ y, int M, int K)
{
    // xs[j][c] = x4[4 * c + j]: a warp reading xs[j][c..c+31] touches consecutive float4s.
    __shared__ float4 xs[4][KMAX / 16];
    const int n4 = K >> 2;
    const int n16 = K >> 4;
    const float4* x4 = reinterpret_cast<const float4*>(x);
    for (int i = threadIdx.x; i < n4; i += THREADS) xs[i & 3][i >> 2] = x4[i];
    __syncthreads();

    const int lane = threadIdx.x & 31;
    const int r0 = (blockIdx.x * WARPS + (threadIdx.x >> 5)) * ROWS_PER_WARP;
    if (r0 >= M) return;
    const int4* w16[ROWS_PER_WARP];
#pragma unroll
    for (int k = 0; k < ROWS_PER_WARP; ++k)
        w16[k] = reinterpret_cast<const int4*>(W + (size_t)min(r0 + k, M - 1) * K);
    float acc[ROWS_PER_WARP];
#pragma unroll
    for (int k = 0; k < ROWS_PER_WARP; ++k) acc[k] = 0.0f;
    for (int c = lane; c < n16; c += 32) {
        int4 p[ROWS_PER_WARP];
#pragma unroll
        for (int k = 0; k < ROWS_PER_WARP; ++k) p[k] = w16[k][c];
        const float4 v0 = xs[0][c], v1 = xs[1][c], v2 = xs[2][c], v3 = xs[3][c];
#pragma unroll
        for (int k = 0; k < ROWS_PER_WARP; ++k) {
            acc[k] = dot4_i8(p[k].x, v0, acc[k]);
            acc[k] = dot4_i8(p[k].y, v1, acc[k]);
            acc[k] = dot4_i8(p[k].z, v2, acc[k]);
            acc[k] = dot4_i8(p[k].w, v3, acc[k]);
        }
    }
#pragma unroll
    for (int k = 0; k < ROWS_PER_WARP; ++k) {
        float a = acc[k];
#pragma unroll
        for (int o = 16; o > 0; o >>= 1) a += __shfl_xor_sync(FULL_MASK, a, o);
        if (lane == 0 && r0 + k < M) y[r0 + k] = a * scale[r0 + k];
    }
}

extern "C" void launch_int8_gemv(const signed char* W, const float* x, const float* scale, float* y, int M, int K,
                                 cudaStream_t stream)
{
    int8_gemv<<<(M + ROWS_PER_BLK - 1) / ROWS_PER_BLK, THREADS, 0, stream>>>(W, x, scale, y, M, K);
}
