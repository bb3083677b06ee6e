// 1-D transposed convolution (stride 2, kernel 4, padding 1): input-centric scatter, one thread per
// (batch, cout, input position) sums over cin and atomicAdds its 4 tap results into y (zeroed).
#include <cuda_runtime.h>

#define THREADS 256
#define KS 4
#define STRIDE 2
#define PAD 1

// kforecast: n = 16; cin = 64; cout = 64; l = 4096; x: f32[n, cin, l] randn; w: f32[cin, cout, 4] randn; bias: f32[cout] randn; y: f32[n, cout, 2 * l] zeros; outputs = y; rtol = 1e-3; atol = 1e-3
__global__ void conv_transpose1d(const float* __restrict__ x, const float* __restrict__ w, const float* __restrict__ bias, float* __restrict__ y, int n, int cin, int cout, int l)
{
    const int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx >= n * cout * l) return;
    const int i = idx % l;
    const int co = (idx / l) % cout;
    const int b = idx / (l * cout);
    float acc[KS] = {0.0f, 0.0f, 0.0f, 0.0f};
    const float* xp = x + (size_t)b * cin * l + i;
    for (int ci = 0; ci < cin; ++ci) {
        const float xv = xp[(size_t)ci * l];
        const float* wp = w + (ci * cout + co) * KS;
#pragma unroll
        for (int k = 0; k < KS; ++k) acc[k] += xv * wp[k];
    }
    // Input i feeds outputs 2i - 1 + k; outputs 2i and 2i + 1 also receive the bias from this thread.
    float* yp = y + ((size_t)b * cout + co) * l * STRIDE;
    const int o0 = i * STRIDE - PAD;
    if (i > 0) atomicAdd(&yp[o0], acc[0]);
    atomicAdd(&yp[o0 + 1], acc[1] + bias[co]);
    atomicAdd(&yp[o0 + 2], acc[2] + bias[co]);
    if (i < l - 1) atomicAdd(&yp[o0 + 3], acc[3]);
}

extern "C" void launch_conv_transpose1d(const float* x, const float* w, const float* bias, float* y, int n, int cin, int cout, int l, cudaStream_t stream)
{
    const int total = n * cout * l;
    conv_transpose1d<<<(total + THREADS - 1) / THREADS, THREADS, 0, stream>>>(x, w, bias, y, n, cin, cout, l);
}
