// Rank-1 update A += alpha * x y^T with float4 along j (n % 4 == 0), 64 x 4 blocks: v3 with
// renamed variables, the row pointer formed first and the scalar factor computed last.
#include <cuda_runtime.h>

#define BX 64
#define BY 4

// kforecast: n = 8192; alpha = 0.5; A: f32[n, n] randn; x: f32[n] randn; y: f32[n] randn; outputs = A; rtol = 1e-5; atol = 1e-5
__global__ void outer_product(float* __restrict__ A, const float* __restrict__ x, const float* __restrict__ y,
                              float alpha, int n)
{
    const int row = threadIdx.y + BY * blockIdx.y;
    const int quad = threadIdx.x + BX * blockIdx.x;
    if (row >= n || quad >= n / 4) return;
    float4* dst = reinterpret_cast<float4*>(A) + (size_t)row * (n / 4) + quad;
    const float4 yq = reinterpret_cast<const float4*>(y)[quad];
    float4 v = *dst;
    const float s = alpha * x[row];
    v.x += s * yq.x;
    v.y += s * yq.y;
    v.z += s * yq.z;
    v.w += s * yq.w;
    *dst = v;
}

extern "C" void launch_outer_product(float* A, const float* x, const float* y, float alpha, int n,
                                     cudaStream_t stream)
{
    dim3 block(BX, BY);
    dim3 grid((n / 4 + BX - 1) / BX, (n + BY - 1) / BY);
    outer_product<<<grid, block, 0, stream>>>(A, x, y, alpha, n);
}
