// Batched tridiagonal solve (Thomas algorithm), 32 systems per 32-thread block: the block's contiguous
// 32 x n chunk of a, b, c, d is copied into shared memory with consecutive threads on consecutive words
// (coalesced), each thread solves its system there (c', d', x in place) and x is copied back the same
// way. Rows padded to 65 words so the lanes of a solve step fall in 32 different banks.
#include <cuda_runtime.h>

#define T    32   /* systems (= threads) per block */
#define NMAX 64   /* n <= NMAX */
#define LD   (NMAX + 1) /* padded: lane t starts in bank t, no bank conflicts */

// Sub-diagonal a (a[0] unused), diagonal b, super-diagonal c (c[n-1] unused), right-hand side d.
// kforecast: nsys = 131072; n = 64; a: f32[nsys, n] rand; b: f32[nsys, n] randint(3,6); c: f32[nsys, n] rand; d: f32[nsys, n] randn; x: f32[nsys, n]; cp: f32[nsys, n] zeros; dp: f32[nsys, n] zeros; outputs = x; rtol = 1e-4; atol = 1e-5
__global__ void __launch_bounds__(T)
tridiag_batched(const float* __restrict__ a, const float* __restrict__ b, const float* __restrict__ c,
                const float* __restrict__ d, float* __restrict__ x, float* __restrict__ cp,
                float* __restrict__ dp, int nsys, int n)
{
    __shared__ float sa[T * LD], sb[T * LD], sc[T * LD], sd[T * LD];
    const int t = threadIdx.x;
    const int s0 = blockIdx.x * T;
    const int ns = min(T, nsys - s0);
    const int cnt = ns * n;
    const size_t g0 = (size_t)s0 * n;
#pragma unroll 4
    for (int e = t; e < cnt; e += T) {
        const int r = e / n;
        const int o = r * LD + (e - r * n);
        sa[o] = a[g0 + e];
        sb[o] = b[g0 + e];
        sc[o] = c[g0 + e];
        sd[o] = d[g0 + e];
    }
    __syncthreads();
    if (t < ns) {
        const float* A = sa + t * LD;
        const float* B = sb + t * LD;
        float* C = sc + t * LD;
        float* D = sd + t * LD;
        float cprev = C[0] / B[0];
        float dprev = D[0] / B[0];
        C[0] = cprev;
        D[0] = dprev;
        for (int i = 1; i < n; ++i) {
            const float m = 1.0f / (B[i] - A[i] * cprev);
            cprev = C[i] * m;
            dprev = (D[i] - A[i] * dprev) * m;
            C[i] = cprev;
            D[i] = dprev;
        }
        float xn = dprev;
        for (int i = n - 2; i >= 0; --i) {
            xn = D[i] - C[i] * xn;
            D[i] = xn;
        }
    }
    __syncthreads();
#pragma unroll 4
    for (int e = t; e < cnt; e += T) {
        const int r = e / n;
        x[g0 + e] = sd[r * LD + (e - r * n)];
    }
}

extern "C" void launch_tridiag_batched(const float* a, const float* b, const float* c, const float* d, float* x,
                                       float* cp, float* dp, int nsys, int n, cudaStream_t stream)
{
    tridiag_batched<<<(nsys + T - 1) / T, T, 0, stream>>>(a, b, c, d, x, cp, dp, nsys, n);
}
