// Rank-1 update A += alpha * x y^T with float4 accesses along j (n % 4 == 0): each thread
// updates 4 consecutive elements of one row; 64 x 4 blocks.
#include <cuda_runtime.h>

#define BX 64
#define BY 4

// kforecast: n = 8192; alpha = 0.5; A: f32[n, n] randn; x: f32[n] randn; y: f32[n] randn; outputs = A; rtol = 1e-5; atol = 1e-5
__global__ void outer_product(float* __restrict__ A, const float* __restrict__ x, const float* __restrict__ y,
                              float alpha, int n)
{
    const int j4 = blockIdx.x * BX + threadIdx.x;
    const int i = blockIdx.y * BY + threadIdx.y;
    const int n4 = n >> 2;
    if (i >= n || j4 >= n4) return;
    const float ax = alpha * x[i];
    const float4 yv = reinterpret_cast<const float4*>(y)[j4];
    float4* row = reinterpret_cast<float4*>(A + (size_t)i * n);
    float4 a = row[j4];
    a.x += ax * yv.x;
    a.y += ax * yv.y;
    a.z += ax * yv.z;
    a.w += ax * yv.w;
    row[j4] = a;
}

extern "C" void launch_outer_product(float* A, const float* x, const float* y, float alpha, int n,
                                     cudaStream_t stream)
{
    dim3 block(BX, BY);
    dim3 grid((n / 4 + BX - 1) / BX, (n + BY - 1) / BY);
    outer_product<<<grid, block, 0, stream>>>(A, x, y, alpha, n);
}
