// Rank-1 update A += alpha * x y^T, A viewed as n*n/4 float4s (n % 4 == 0) covered by a
// grid-stride loop over a fixed grid of 1056 blocks of 256 threads.
#include <cuda_runtime.h>

#define THREADS 256
#define BLOCKS  1056

// kforecast: n = 8192; alpha = 0.5; A: f32[n, n] randn; x: f32[n] randn; y: f32[n] randn; outputs = A; rtol = 1e-5; atol = 1e-5
__global__ void outer_product(float* __restrict__ A, const float* __restrict__ x, const float* __restrict__ y,
                              float alpha, int n)
{
    const int n4 = n >> 2;
    const int total4 = n * n4;
    float4* A4 = reinterpret_cast<float4*>(A);
    const float4* y4 = reinterpret_cast<const float4*>(y);
    for (int k = blockIdx.x * blockDim.x + threadIdx.x; k < total4; k += gridDim.x * blockDim.x) {
        const int i = k / n4;
        const int j4 = k - i * n4;
        const float ax = alpha * x[i];
        const float4 yv = y4[j4];
        float4 a = A4[k];
        a.x += ax * yv.x;
        a.y += ax * yv.y;
        a.z += ax * yv.z;
        a.w += ax * yv.w;
        A4[k] = a;
    }
}

extern "C" void launch_outer_product(float* A, const float* x, const float* y, float alpha, int n,
                                     cudaStream_t stream)
{
    outer_product<<<BLOCKS, THREADS, 0, stream>>>(A, x, y, alpha, n);
}
