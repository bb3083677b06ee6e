// Row-wise softmax, one warp per row, float4 loads and stores: each lane holds
// 8 float4 of a 1024-wide row in registers (cols must be a multiple of 4 and
// <= 1024). 8 rows per block of 256 threads.
#include <cuda_runtime.h>
#include <math.h>

#define THREADS      256
#define ROWS_PER_BLK (THREADS / 32)
#define VEC_PER_LANE 8
#define FULL_MASK    0xffffffffu

// kforecast: rows = 16384; cols = 1024; in: f32[rows, cols] randn; out: f32[rows, cols]; rtol = 1e-3; atol = 1e-6
__global__ void __launch_bounds__(THREADS)
softmax_rows(const float* __restrict__ in, float* __restrict__ out, int rows, int cols)
{
    const int lane = threadIdx.x & 31;
    const int row = blockIdx.x * ROWS_PER_BLK + (threadIdx.x >> 5);
    if (row >= rows) return;
    const float4* x = reinterpret_cast<const float4*>(in + (size_t)row * cols);
    float4* y = reinterpret_cast<float4*>(out + (size_t)row * cols);
    const int n4 = cols / 4;

    float4 v[VEC_PER_LANE];
    float m = -INFINITY;
#pragma unroll
    for (int k = 0; k < VEC_PER_LANE; ++k) {
        const int i = lane + k * 32;
        v[k] = i < n4 ? x[i] : make_float4(-INFINITY, -INFINITY, -INFINITY, -INFINITY);
        m = fmaxf(m, fmaxf(fmaxf(v[k].x, v[k].y), fmaxf(v[k].z, v[k].w)));
    }
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) m = fmaxf(m, __shfl_xor_sync(FULL_MASK, m, o));
    float s = 0.0f;
#pragma unroll
    for (int k = 0; k < VEC_PER_LANE; ++k) {
        if (lane + k * 32 < n4) {
            v[k].x = __expf(v[k].x - m);
            v[k].y = __expf(v[k].y - m);
            v[k].z = __expf(v[k].z - m);
            v[k].w = __expf(v[k].w - m);
            s += (v[k].x + v[k].y) + (v[k].z + v[k].w);
        }
    }
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) s += __shfl_xor_sync(FULL_MASK, s, o);
    const float inv = 1.0f / s;
#pragma unroll
    for (int k = 0; k < VEC_PER_LANE; ++k) {
        const int i = lane + k * 32;
        if (i < n4) y[i] = make_float4(v[k].x * inv, v[k].y * inv, v[k].z * inv, v[k].w * inv);
    }
}

extern "C" void launch_softmax(const float* in, float* out, int rows, int cols, cudaStream_t stream)
{
    const int blocks = (rows + ROWS_PER_BLK - 1) / ROWS_PER_BLK;
    softmax_rows<<<blocks, THREADS, 0, stream>>>(in, out, rows, cols);
}
