// 16-term sine series with one sincosf per point and the angle-addition
// recurrence sin((k+1)x) = sin(kx) cos(x) + cos(kx) sin(x) for the other terms;
// coefficients staged in shared memory.
#include <cuda_runtime.h>
#include <math.h>

#define TERMS   16
#define THREADS 256

// kforecast: n = 1 << 22; x: f32[n] rand; coef: f32[16] randn; y: f32[n]; rtol = 1e-3; atol = 1e-3
__global__ void fourier_series(const float* __restrict__ x, const float* __restrict__ coef, float* __restrict__ y,
                               int n)
{
    __shared__ float c[TERMS];
    if (threadIdx.x < TERMS) c[threadIdx.x] = coef[threadIdx.x];
    __syncthreads();
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float s1, c1;
    sincosf(x[i], &s1, &c1);
    float sk = s1, ck = c1;
    float acc = c[0] * sk;
#pragma unroll
    for (int k = 1; k < TERMS; ++k) {
        const float sn = sk * c1 + ck * s1;
        const float cn = ck * c1 - sk * s1;
        sk = sn;
        ck = cn;
        acc += c[k] * sk;
    }
    y[i] = acc;
}

extern "C" void launch_fourier_series(const float* x, const float* coef, float* y, int n, cudaStream_t stream)
{
    fourier_series<<<(n + THREADS - 1) / THREADS, THREADS, 0, stream>>>(x, coef, y, n);
}
