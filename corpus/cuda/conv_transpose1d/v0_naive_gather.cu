// 1-D transposed convolution (stride 2, kernel 4, padding 1, y length 2L), naive gather: one thread
// per output on a flat grid, loops over cin and the 2 contributing taps found by modulo arithmetic.
#include <cuda_runtime.h>

#define THREADS 256
#define KS 4
#define STRIDE 2
#define PAD 1

// kforecast: n = 16; cin = 64; cout = 64; l = 4096; x: f32[n, cin, l] randn; w: f32[cin, cout, 4] randn; bias: f32[cout] randn; y: f32[n, cout, 2 * l] zeros; outputs = y; rtol = 1e-3; atol = 1e-3
__global__ void conv_transpose1d(const float* x, const float* w, const float* bias, float* y, int n, int cin, int cout, int l)
{
    const int lo = l * STRIDE;
    const int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx >= n * cout * lo) return;
    const int o = idx % lo;
    const int co = (idx / lo) % cout;
    const int b = idx / (lo * cout);
    float acc = bias[co];
    for (int ci = 0; ci < cin; ++ci) {
        for (int tap = 0; tap < KS / STRIDE; ++tap) {
            const int k = (o + PAD) % STRIDE + tap * STRIDE;
            const int i = (o + PAD - k) / STRIDE;
            if (i >= 0 && i < l) acc += x[((size_t)b * cin + ci) * l + i] * w[(ci * cout + co) * KS + k];
        }
    }
    y[idx] = acc;
}

extern "C" void launch_conv_transpose1d(const float* x, const float* w, const float* bias, float* y, int n, int cin, int cout, int l, cudaStream_t stream)
{
    const int total = n * cout * l * STRIDE;
    conv_transpose1d<<<(total + THREADS - 1) / THREADS, THREADS, 0, stream>>>(x, w, bias, y, n, cin, cout, l);
}
