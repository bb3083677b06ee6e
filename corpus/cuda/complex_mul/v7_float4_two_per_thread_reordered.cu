// c = a * b for n interleaved complex numbers: the float4 two-per-thread version with renamed
// variables, the imaginary parts computed first and the pair index written as (blockIdx.x << 8) | tid.
#include <cuda_runtime.h>

#define THREADS 256

// kforecast: n = 1 << 24; a: f32[n, 2] randn; b: f32[n, 2] randn; c: f32[n, 2]; rtol = 1e-5; atol = 1e-5
__global__ void complex_mul(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c, int n)
{
    const int pair = (blockIdx.x << 8) | threadIdx.x;
    const int num_pairs = n / 2;
    if (pair < num_pairs) {
        const float4 lhs = __ldg(reinterpret_cast<const float4*>(a) + pair);
        const float4 rhs = __ldg(reinterpret_cast<const float4*>(b) + pair);
        const float im0 = lhs.x * rhs.y + lhs.y * rhs.x;
        const float im1 = lhs.z * rhs.w + lhs.w * rhs.z;
        const float re0 = lhs.x * rhs.x - lhs.y * rhs.y;
        const float re1 = lhs.z * rhs.z - lhs.w * rhs.w;
        reinterpret_cast<float4*>(c)[pair] = make_float4(re0, im0, re1, im1);
    } else if (pair == num_pairs && n % 2 == 1) {
        const int last = 2 * (n - 1);
        const float ar = a[last], ai = a[last + 1], br = b[last], bi = b[last + 1];
        c[last + 1] = ar * bi + ai * br;
        c[last] = ar * br - ai * bi;
    }
}

extern "C" void launch_complex_mul(const float* a, const float* b, float* c, int n, cudaStream_t stream)
{
    const int blocks = (n / 2 + THREADS) / THREADS;
    complex_mul<<<blocks, THREADS, 0, stream>>>(a, b, c, n);
}
