// y = A x, ELLPACK row-major: 4 lanes per row with int4 + float4 slot loads, the x gathers
// through the read-only cache (__ldg), unrolled slot loop, 128-thread blocks.
#include <cuda_runtime.h>

#define THREADS   128
#define LANES     4
#define ROWS_BLK  (THREADS / LANES)
#define FULL_MASK 0xffffffffu

// kforecast: rows = 1 << 20; K = 16; n = 1 << 20; cols: i32[rows, K] randint(0, 1048576); vals: f32[rows, K] randn; x: f32[n] randn; y: f32[rows]; rtol = 1e-3; atol = 1e-4
__global__ void __launch_bounds__(THREADS)
spmv_ell(const int* __restrict__ cols, const float* __restrict__ vals, const float* __restrict__ x, float* __restrict__ y,
         int rows, int K)
{
    const int sub = threadIdx.x & (LANES - 1);
    const int r = blockIdx.x * ROWS_BLK + threadIdx.x / LANES;
    float acc = 0.0f;
    if (r < rows) {
        const int4* c4 = reinterpret_cast<const int4*>(cols + (size_t)r * K);
        const float4* v4 = reinterpret_cast<const float4*>(vals + (size_t)r * K);
        const int k4 = K >> 2;
#pragma unroll 2
        for (int q = sub; q < k4; q += LANES) {
            const int4 c = c4[q];
            const float4 v = v4[q];
            acc += v.x * __ldg(&x[c.x]) + v.y * __ldg(&x[c.y]) + v.z * __ldg(&x[c.z]) + v.w * __ldg(&x[c.w]);
        }
    }
    acc += __shfl_xor_sync(FULL_MASK, acc, 2, LANES);
    acc += __shfl_xor_sync(FULL_MASK, acc, 1, LANES);
    if (r < rows && sub == 0) y[r] = acc;
}

extern "C" void launch_spmv_ell(const int* cols, const float* vals, const float* x, float* y, int rows, int K,
                                cudaStream_t stream)
{
    spmv_ell<<<(rows + ROWS_BLK - 1) / ROWS_BLK, THREADS, 0, stream>>>(cols, vals, x, y, rows, K);
}
