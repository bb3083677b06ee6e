// 1-D transposed convolution (stride 2, kernel 4, padding 1): the pair x 8-channel version with
// renamed variables, the odd output accumulated first and the x row walked by pointer increments.
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
    __shared__ float4 wtile[MAX_CIN][COB];
    const int batch = blockIdx.z;
    const int chan0 = blockIdx.y * COB;
    for (int t = threadIdx.x; t < cin * COB; t += THREADS)
        wtile[t / COB][t % COB] = *reinterpret_cast<const float4*>(w + ((t / COB) * cout + chan0 + t % COB) * KS);
    __syncthreads();

    const int pos = blockIdx.x * THREADS + threadIdx.x;
    if (pos >= l) return;
    float out_odd[COB], out_even[COB];
#pragma unroll
    for (int c = 0; c < COB; ++c) {
        out_odd[c] = bias[chan0 + c];
        out_even[c] = out_odd[c];
    }
    const float* src = x + (size_t)batch * cin * l + pos;
    for (int ci = 0; ci < cin; ++ci, src += l) {
        const float mid = src[0];
        const float right = pos + 1 < l ? src[1] : 0.0f;
        const float left = pos > 0 ? src[-1] : 0.0f;
#pragma unroll
        for (int c = 0; c < COB; ++c) {
            const float4 k4 = wtile[ci][c];
            out_odd[c] += right * k4.x + mid * k4.z;
            out_even[c] += mid * k4.y + left * k4.w;
        }
    }
    const size_t out_len = (size_t)l * STRIDE;
    float* dst = y + ((size_t)batch * cout + chan0) * out_len + 2 * pos;
#pragma unroll
    for (int c = 0; c < COB; ++c, dst += out_len) *reinterpret_cast<float2*>(dst) = make_float2(out_even[c], out_odd[c]);
}

extern "C" void launch_conv_transpose1d(const float* x, const float* w, const float* bias, float* y, int n, int cin, int cout, int l, cudaStream_t stream)
{
    dim3 grid((l + THREADS - 1) / THREADS, cout / COB, n);
    conv_transpose1d<<<grid, THREADS, 0, stream>>>(x, w, bias, y, n, cin, cout, l);
}
