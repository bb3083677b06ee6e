// 16-term sine series with the fast-math intrinsic __sinf (SFU approximation,
// no range reduction; x in [0, 1) keeps the arguments below 16).
#include <cuda_runtime.h>
#include <math.h>

#define TERMS   16
#define THREADS 256

// kforecast: n = 1 << 22; x: f32[n] rand; coef: f32[16] randn; y: f32[n]; rtol = 1e-3; atol = 1e-3
__global__ void fourier_series(const float* __restrict__ x, const float* __restrict__ coef, float* __restrict__ y,
                               int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const float xi = x[i];
    float acc = 0.0f;
#pragma unroll
    for (int k = 0; k < TERMS; ++k) acc += coef[k] * __sinf((float)(k + 1) * xi);
    y[i] = acc;
}

extern "C" void launch_fourier_series(const float* x, const float* coef, float* y, int n, cudaStream_t stream)
{
    fourier_series<<<(n + THREADS - 1) / THREADS, THREADS, 0, stream>>>(x, coef, y, n);
}
