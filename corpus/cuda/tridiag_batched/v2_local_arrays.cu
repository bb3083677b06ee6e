// Batched tridiagonal solve (Thomas algorithm), one thread per system, contiguous systems; c' and d'
// live in per-thread arrays (n <= 64), dynamically indexed so they sit in local memory, which the
// hardware interleaves across threads (coalesced, L1-cached); x written once.
#include <cuda_runtime.h>

#define THREADS 256
#define NMAX    64

// Sub-diagonal a (a[0] unused), diagonal b, super-diagonal c (c[n-1] unused), right-hand side d.
// kforecast: nsys = 131072; n = 64; a: f32[nsys, n] rand; b: f32[nsys, n] randint(3,6); c: f32[nsys, n] rand; d: f32[nsys, n] randn; x: f32[nsys, n]; cp: f32[nsys, n] zeros; dp: f32[nsys, n] zeros; outputs = x; rtol = 1e-4; atol = 1e-5
__global__ void tridiag_batched(const float* __restrict__ a, const float* __restrict__ b, const float* __restrict__ c,
                                const float* __restrict__ d, float* __restrict__ x, float* __restrict__ cp,
                                float* __restrict__ dp, int nsys, int n)
{
    const int s = blockIdx.x * blockDim.x + threadIdx.x;
    if (s >= nsys) return;
    const size_t base = (size_t)s * n;
    float cl[NMAX], dl[NMAX];
    cl[0] = c[base] / b[base];
    dl[0] = d[base] / b[base];
    for (int i = 1; i < n; ++i) {
        const float ai = a[base + i];
        const float m = 1.0f / (b[base + i] - ai * cl[i - 1]);
        cl[i] = c[base + i] * m;
        dl[i] = (d[base + i] - ai * dl[i - 1]) * m;
    }
    float xn = dl[n - 1];
    x[base + n - 1] = xn;
    for (int i = n - 2; i >= 0; --i) {
        xn = dl[i] - cl[i] * xn;
        x[base + i] = xn;
    }
}

extern "C" void launch_tridiag_batched(const float* a, const float* b, const float* c, const float* d, float* x,
                                       float* cp, float* dp, int nsys, int n, cudaStream_t stream)
{
    tridiag_batched<<<(nsys + THREADS - 1) / THREADS, THREADS, 0, stream>>>(a, b, c, d, x, cp, dp, nsys, n);
}
