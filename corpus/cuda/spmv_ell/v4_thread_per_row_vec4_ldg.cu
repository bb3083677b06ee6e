// y = A x, ELLPACK row-major: one thread per row, but the row's slots read as int4 + float4
// (4 x 16-byte loads for K = 16), fully unrolled, x gathered with __ldg, 4 partial sums.
#include <cuda_runtime.h>

#define THREADS 256

// kforecast: rows = 1 << 20; K = 16; n = 1 << 20; cols: i32[rows, K] randint(0, 1048576); vals: f32[rows, K] randn; x: f32[n] randn; y: f32[rows]; rtol = 1e-3; atol = 1e-4
__global__ void __launch_bounds__(THREADS)
spmv_ell(const int* __restrict__ cols, const float* __restrict__ vals, const float* __restrict__ x, float* __restrict__ y,
         int rows, int K)
{
    const int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= rows) return;
    const int4* c4 = reinterpret_cast<const int4*>(cols + (size_t)r * K);
    const float4* v4 = reinterpret_cast<const float4*>(vals + (size_t)r * K);
    const int k4 = K >> 2;
    float a0 = 0.0f, a1 = 0.0f, a2 = 0.0f, a3 = 0.0f;
#pragma unroll 4
    for (int q = 0; q < k4; ++q) {
        const int4 c = c4[q];
        const float4 v = v4[q];
        a0 += v.x * __ldg(&x[c.x]);
        a1 += v.y * __ldg(&x[c.y]);
        a2 += v.z * __ldg(&x[c.z]);
        a3 += v.w * __ldg(&x[c.w]);
    }
    y[r] = (a0 + a1) + (a2 + a3);
}

extern "C" void launch_spmv_ell(const int* cols, const float* vals, const float* x, float* y, int rows, int K,
                                cudaStream_t stream)
{
    spmv_ell<<<(rows + THREADS - 1) / THREADS, THREADS, 0, stream>>>(cols, vals, x, y, rows, K);
}
