// 16-term sine series with accurate sinf, the term loop kept rolled and blocks of
// 128 threads (a small variation of the straightforward version).
#include <cuda_runtime.h>
#include <math.h>

#define TERMS   16
#define THREADS 128

// kforecast: n = 1 << 22; x: f32[n] rand; coef: f32[16] randn; y: f32[n]; rtol = 1e-3; atol = 1e-3
__global__ void fourier_series(const float* __restrict__ x, const float* __restrict__ coef, float* __restrict__ y,
                               int n)
{
    const int gid = threadIdx.x + blockIdx.x * blockDim.x;
    if (gid < n) {
        const float t = x[gid];
        float sum = 0.0f;
#pragma unroll 1
        for (int k = 1; k <= TERMS; ++k) sum += coef[k - 1] * sinf(k * t);
        y[gid] = sum;
    }
}

extern "C" void launch_fourier_series(const float* x, const float* coef, float* y, int n, cudaStream_t stream)
{
    fourier_series<<<(n + THREADS - 1) / THREADS, THREADS, 0, stream>>>(x, coef, y, n);
}
