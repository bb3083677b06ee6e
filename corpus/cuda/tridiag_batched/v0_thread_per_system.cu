// Batched tridiagonal solve (Thomas algorithm), one thread per system, systems stored contiguously
// (row s = elements s*n .. s*n+n-1): c' goes to the global scratch cp, d' to x, back-substitution in x.
// A warp's 32 threads touch 32 systems 256 bytes apart at every step (uncoalesced).
#include <cuda_runtime.h>

#define THREADS 256

// Sub-diagonal a (a[0] unused), diagonal b, super-diagonal c (c[n-1] unused), right-hand side d.
// kforecast: nsys = 131072; n = 64; a: f32[nsys, n] rand; b: f32[nsys, n] randint(3,6); c: f32[nsys, n] rand; d: f32[nsys, n] randn; x: f32[nsys, n]; cp: f32[nsys, n] zeros; dp: f32[nsys, n] zeros; outputs = x; rtol = 1e-4; atol = 1e-5
__global__ void tridiag_batched(const float* __restrict__ a, const float* __restrict__ b, const float* __restrict__ c,
                                const float* __restrict__ d, float* __restrict__ x, float* __restrict__ cp,
                                float* __restrict__ dp, int nsys, int n)
{
    const int s = blockIdx.x * blockDim.x + threadIdx.x;
    if (s >= nsys) return;
    const size_t base = (size_t)s * n;
    float cprev = c[base] / b[base];
    float dprev = d[base] / b[base];
    cp[base] = cprev;
    x[base] = dprev;
    for (int i = 1; i < n; ++i) {
        const float m = 1.0f / (b[base + i] - a[base + i] * cprev);
        cprev = c[base + i] * m;
        dprev = (d[base + i] - a[base + i] * dprev) * m;
        cp[base + i] = cprev;
        x[base + i] = dprev;
    }
    float xn = dprev;
    for (int i = n - 2; i >= 0; --i) {
        xn = x[base + i] - cp[base + i] * xn;
        x[base + i] = xn;
    }
}

extern "C" void launch_tridiag_batched(const float* a, const float* b, const float* c, const float* d, float* x,
                                       float* cp, float* dp, int nsys, int n, cudaStream_t stream)
{
    tridiag_batched<<<(nsys + THREADS - 1) / THREADS, THREADS, 0, stream>>>(a, b, c, d, x, cp, dp, nsys, n);
}
