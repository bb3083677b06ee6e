// 1-D transposed convolution (stride 2, kernel 4, padding 1): blocks of 256 outputs of one (batch,
// cout) row stage w[:, co, :] in shared memory; the two taps come from the output's parity.
#include <cuda_runtime.h>

#define THREADS 256
#define KS 4
#define STRIDE 2
#define MAX_CIN 256

// kforecast: n = 16; cin = 64; cout = 64; l = 4096; x: f32[n, cin, l] randn; w: f32[cin, cout, 4] randn; bias: f32[cout] randn; y: f32[n, cout, 2 * l] zeros; outputs = y; rtol = 1e-3; atol = 1e-3
__global__ void __launch_bounds__(THREADS)
conv_transpose1d(const float* __restrict__ x, const float* __restrict__ w, const float* __restrict__ bias, float* __restrict__ y, int n, int cin, int cout, int l)
{
    __shared__ float ws[MAX_CIN * KS];
    const int co = blockIdx.y, b = blockIdx.z;
    for (int e = threadIdx.x; e < cin * KS; e += THREADS) ws[e] = w[((e / KS) * cout + co) * KS + (e % KS)];
    __syncthreads();

    const int lo = l * STRIDE;
    const int o = blockIdx.x * THREADS + threadIdx.x;
    if (o >= lo) return;
    // o = 2m: taps (i = m, k = 1) and (i = m - 1, k = 3); o = 2m + 1: (m + 1, 0) and (m, 2).
    const int m = o >> 1, par = o & 1;
    const int ia = m + par, ka = 1 - par;
    const int ib = m - 1 + par, kb = 3 - par;
    const bool va = ia < l, vb = ib >= 0;
    const float* xp = x + (size_t)b * cin * l;
    float acc = bias[co];
    for (int ci = 0; ci < cin; ++ci) {
        const float* xr = xp + (size_t)ci * l;
        if (va) acc += xr[ia] * ws[ci * KS + ka];
        if (vb) acc += xr[ib] * ws[ci * KS + kb];
    }
    y[((size_t)b * cout + co) * lo + o] = acc;
}

extern "C" void launch_conv_transpose1d(const float* x, const float* w, const float* bias, float* y, int n, int cin, int cout, int l, cudaStream_t stream)
{
    dim3 grid((l * STRIDE + THREADS - 1) / THREADS, cout, n);
    conv_transpose1d<<<grid, THREADS, 0, stream>>>(x, w, bias, y, n, cin, cout, l);
}
