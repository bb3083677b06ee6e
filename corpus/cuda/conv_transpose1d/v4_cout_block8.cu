// 1-D transposed convolution (stride 2, kernel 4, padding 1): register blocking over channels, each
// thread computes one output position for 8 output channels, reusing its 2 x loads per cin 8 times.
#include <cuda_runtime.h>

#define THREADS 128
#define KS 4
#define STRIDE 2
#define COB 8
#define MAX_CIN 64

// kforecast: n = 16; cin = 64; cout = 64; l = 4096; x: f32[n, cin, l] randn; w: f32[cin, cout, 4] randn; bias: f32[cout] randn; y: f32[n, cout, 2 * l] zeros; outputs = y; rtol = 1e-3; atol = 1e-3
__global__ void __launch_bounds__(THREADS)
conv_transpose1d(const float* __restrict__ x, const float* __restrict__ w, const float* __restrict__ bias, float* __restrict__ y, int n, int cin, int cout, int l)
{
    __shared__ float ws[MAX_CIN][KS][COB];
    const int co0 = blockIdx.y * COB, b = blockIdx.z;
    for (int e = threadIdx.x; e < cin * KS * COB; e += THREADS) {
        const int ci = e / (KS * COB), k = (e / COB) % KS, c = e % COB;
        ws[ci][k][c] = w[(ci * cout + co0 + c) * KS + k];
    }
    __syncthreads();

    const int lo = l * STRIDE;
    const int o = blockIdx.x * THREADS + threadIdx.x;
    if (o >= lo) return;
    const int m = o >> 1, par = o & 1;
    const int ia = m + par, ka = 1 - par;
    const int ib = m - 1 + par, kb = 3 - par;
    const bool va = ia < l, vb = ib >= 0;
    const float* xp = x + (size_t)b * cin * l;
    float acc[COB];
#pragma unroll
    for (int c = 0; c < COB; ++c) acc[c] = bias[co0 + c];
    for (int ci = 0; ci < cin; ++ci) {
        const float* xr = xp + (size_t)ci * l;
        const float xa = va ? xr[ia] : 0.0f;
        const float xb = vb ? xr[ib] : 0.0f;
#pragma unroll
        for (int c = 0; c < COB; ++c) acc[c] += xa * ws[ci][ka][c] + xb * ws[ci][kb][c];
    }
    float* yp = y + ((size_t)b * cout + co0) * lo + o;
#pragma unroll
    for (int c = 0; c < COB; ++c) yp[(size_t)c * lo] = acc[c];
}

extern "C" void launch_conv_transpose1d(const float* x, const float* w, const float* bias, float* y, int n, int cin, int cout, int l, cudaStream_t stream)
{
    dim3 grid((l * STRIDE + THREADS - 1) / THREADS, cout / COB, n);
    conv_transpose1d<<<grid, THREADS, 0, stream>>>(x, w, bias, y, n, cin, cout, l);
}
