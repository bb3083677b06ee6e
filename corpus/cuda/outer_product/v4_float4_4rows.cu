// Rank-1 update A += alpha * x y^T, float4 along j (n % 4 == 0) and 4 rows per thread: the
// float4 of y is loaded once and reused for the 4 rows, whose 4 loads of A are issued together.
#include <cuda_runtime.h>

#define BX 64
#define BY 4
#define ROWS 4

// kforecast: n = 8192; alpha = 0.5; A: f32[n, n] randn; x: f32[n] randn; y: f32[n] randn; outputs = A; rtol = 1e-5; atol = 1e-5
__global__ void outer_product(float* __restrict__ A, const float* __restrict__ x, const float* __restrict__ y,
                              float alpha, int n)
{
    const int j4 = blockIdx.x * BX + threadIdx.x;
    const int n4 = n >> 2;
    if (j4 >= n4) return;
    const float4 yv = __ldg(reinterpret_cast<const float4*>(y) + j4);
    const int i0 = blockIdx.y * (BY * ROWS) + threadIdx.y;
    float4 a[ROWS];
#pragma unroll
    for (int r = 0; r < ROWS; ++r) {
        const int i = i0 + r * BY;
        if (i < n) a[r] = reinterpret_cast<const float4*>(A + (size_t)i * n)[j4];
    }
#pragma unroll
    for (int r = 0; r < ROWS; ++r) {
        const int i = i0 + r * BY;
        if (i < n) {
            const float ax = alpha * __ldg(x + i);
            a[r].x += ax * yv.x;
            a[r].y += ax * yv.y;
            a[r].z += ax * yv.z;
            a[r].w += ax * yv.w;
            reinterpret_cast<float4*>(A + (size_t)i * n)[j4] = a[r];
        }
    }
}

extern "C" void launch_outer_product(float* A, const float* x, const float* y, float alpha, int n,
                                     cudaStream_t stream)
{
    dim3 block(BX, BY);
    dim3 grid((n / 4 + BX - 1) / BX, (n + BY * ROWS - 1) / (BY * ROWS));
    outer_product<<<grid, block, 0, stream>>>(A, x, y, alpha, n);
}
