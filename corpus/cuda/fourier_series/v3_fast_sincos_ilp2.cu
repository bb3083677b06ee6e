// 16-term sine series: __sincosf once per point, angle-addition recurrence, two
// points per thread (independent recurrences interleave), launch bounds 256.
#include <cuda_runtime.h>
#include <math.h>

#define TERMS   16
#define THREADS 256

// kforecast: n = 1 << 22; x: f32[n] rand; coef: f32[16] randn; y: f32[n]; rtol = 1e-3; atol = 1e-3
__global__ void __launch_bounds__(THREADS)
fourier_series(const float* __restrict__ x, const float* __restrict__ coef, float* __restrict__ y, int n)
{
    __shared__ float c[TERMS];
    if (threadIdx.x < TERMS) c[threadIdx.x] = coef[threadIdx.x];
    __syncthreads();
    const int i0 = blockIdx.x * (2 * THREADS) + threadIdx.x;
    const int i1 = i0 + THREADS;
    float sa, ca, sb, cb;
    __sincosf(i0 < n ? x[i0] : 0.0f, &sa, &ca);
    __sincosf(i1 < n ? x[i1] : 0.0f, &sb, &cb);
    float ska = sa, cka = ca, skb = sb, ckb = cb;
    float acc_a = c[0] * ska, acc_b = c[0] * skb;
#pragma unroll
    for (int k = 1; k < TERMS; ++k) {
        const float sna = ska * ca + cka * sa, cna = cka * ca - ska * sa;
        const float snb = skb * cb + ckb * sb, cnb = ckb * cb - skb * sb;
        ska = sna; cka = cna;
        skb = snb; ckb = cnb;
        acc_a += c[k] * ska;
        acc_b += c[k] * skb;
    }
    if (i0 < n) y[i0] = acc_a;
    if (i1 < n) y[i1] = acc_b;
}

extern "C" void launch_fourier_series(const float* x, const float* coef, float* y, int n, cudaStream_t stream)
{
    fourier_series<<<(n + 2 * THREADS - 1) / (2 * THREADS), THREADS, 0, stream>>>(x, coef, y, n);
}
