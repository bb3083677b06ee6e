// c = a * b for n interleaved complex numbers: two complex numbers per thread as one 16-byte
// float4 load of a and b and one float4 store (odd n: the last complex is done by scalars).
#include <cuda_runtime.h>

#define THREADS 256

// kforecast: n = 1 << 24; a: f32[n, 2] randn; b: f32[n, 2] randn; c: f32[n, 2]; rtol = 1e-5; atol = 1e-5
__global__ void complex_mul(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c, int n)
{
    const int t = blockIdx.x * blockDim.x + threadIdx.x;
    const int pairs = n >> 1;
    if (t < pairs) {
        const float4 x = reinterpret_cast<const float4*>(a)[t];
        const float4 y = reinterpret_cast<const float4*>(b)[t];
        float4 z;
        z.x = x.x * y.x - x.y * y.y;
        z.y = x.x * y.y + x.y * y.x;
        z.z = x.z * y.z - x.w * y.w;
        z.w = x.z * y.w + x.w * y.z;
        reinterpret_cast<float4*>(c)[t] = z;
    } else if (t == pairs && (n & 1)) {
        const int i = n - 1;
        const float ar = a[2 * i], ai = a[2 * i + 1], br = b[2 * i], bi = b[2 * i + 1];
        c[2 * i] = ar * br - ai * bi;
        c[2 * i + 1] = ar * bi + ai * br;
    }
}

extern "C" void launch_complex_mul(const float* a, const float* b, float* c, int n, cudaStream_t stream)
{
    const int blocks = ((n >> 1) + 1 + THREADS - 1) / THREADS;
    complex_mul<<<blocks, THREADS, 0, stream>>>(a, b, c, n);
}
