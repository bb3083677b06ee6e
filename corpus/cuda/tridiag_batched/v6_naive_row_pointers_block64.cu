// Batched tridiagonal solve (Thomas algorithm), the thread-per-system version written with per-system
// row pointers instead of base + i, the same global scratch use (c' in cp, d' in x), 64-thread blocks.
#include <cuda_runtime.h>

#define THREADS 64

// Sub-diagonal a (a[0] unused), diagonal b, super-diagonal c (c[n-1] unused), right-hand side d.
// kforecast: nsys = 131072; n = 64; a: f32[nsys, n] rand; b: f32[nsys, n] randint(3,6); c: f32[nsys, n] rand; d: f32[nsys, n] randn; x: f32[nsys, n]; cp: f32[nsys, n] zeros; dp: f32[nsys, n] zeros; outputs = x; rtol = 1e-4; atol = 1e-5
__global__ void tridiag_batched(const float* __restrict__ a, const float* __restrict__ b, const float* __restrict__ c,
                                const float* __restrict__ d, float* __restrict__ x, float* __restrict__ cp,
                                float* __restrict__ dp, int nsys, int n)
{
    const int sys = blockIdx.x * THREADS + threadIdx.x;
    if (sys >= nsys) return;
    const size_t off = (size_t)sys * n;
    const float *lo = a + off, *diag = b + off, *up = c + off, *rhs = d + off;
    float* cs = cp + off;
    float* xs = x + off;
    float cc = up[0] / diag[0];
    float dd = rhs[0] / diag[0];
    cs[0] = cc;
    xs[0] = dd;
    for (int k = 1; k < n; ++k) {
        const float l = lo[k];
        const float inv = 1.0f / (diag[k] - l * cc);
        dd = (rhs[k] - l * dd) * inv;
        cc = up[k] * inv;
        xs[k] = dd;
        cs[k] = cc;
    }
    for (int k = n - 2; k >= 0; --k) {
        dd = xs[k] - cs[k] * dd;
        xs[k] = dd;
    }
}

extern "C" void launch_tridiag_batched(const float* a, const float* b, const float* c, const float* d, float* x,
                                       float* cp, float* dp, int nsys, int n, cudaStream_t stream)
{
    tridiag_batched<<<(nsys + THREADS - 1) / THREADS, THREADS, 0, stream>>>(a, b, c, d, x, cp, dp, nsys, n);
}
