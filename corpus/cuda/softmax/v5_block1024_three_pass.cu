// Row-wise softmax, one block of 1024 threads per row, three passes over the row
// (max, sum of exp, normalised write), warp-shuffle block reductions.
#include <cuda_runtime.h>
#include <math.h>

#define THREADS   1024  // one element per thread for 1024-wide rows
#define FULL_MASK 0xffffffffu

__device__ __forceinline__ float warp_max(float v)
{
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) v = fmaxf(v, __shfl_xor_sync(FULL_MASK, v, o));
    return v;
}

__device__ __forceinline__ float warp_sum(float v)
{
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(FULL_MASK, v, o);
    return v;
}

// kforecast: rows = 16384; cols = 1024; in: f32[rows, cols] randn; out: f32[rows, cols]; rtol = 1e-3; atol = 1e-6
__global__ void __launch_bounds__(THREADS)
softmax_rows(const float* __restrict__ in, float* __restrict__ out, int rows, int cols)
{
    __shared__ float red[THREADS / 32];
    const float* x = in + (size_t)blockIdx.x * cols;
    float* y = out + (size_t)blockIdx.x * cols;
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;

    float m = -INFINITY;
    for (int i = threadIdx.x; i < cols; i += THREADS) m = fmaxf(m, x[i]);
    m = warp_max(m);
    if (lane == 0) red[warp] = m;
    __syncthreads();
    m = warp_max(lane < THREADS / 32 ? red[lane] : -INFINITY);
    __syncthreads();

    float s = 0.0f;
    for (int i = threadIdx.x; i < cols; i += THREADS) s += __expf(x[i] - m);
    s = warp_sum(s);
    if (lane == 0) red[warp] = s;
    __syncthreads();
    s = warp_sum(lane < THREADS / 32 ? red[lane] : 0.0f);

    const float inv = 1.0f / s;
    for (int i = threadIdx.x; i < cols; i += THREADS) y[i] = __expf(x[i] - m) * inv;
}

extern "C" void launch_softmax(const float* in, float* out, int rows, int cols, cudaStream_t stream)
{
    softmax_rows<<<rows, THREADS, 0, stream>>>(in, out, rows, cols);
}
