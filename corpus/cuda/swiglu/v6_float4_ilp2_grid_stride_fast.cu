// SwiGLU out = silu(a) * b (a, b the two halves of each row of x [rows, 2d], d a multiple of 4): grid-
// stride over float4 columns, two float4 pairs loaded per iteration before either is computed, __expf.
#include <cuda_runtime.h>
#include <math.h>

#define THREADS       256
#define NUM_SMS       132   // H100 SXM
#define BLOCKS_PER_SM 8

__device__ __forceinline__ float silu_mul(float a, float b) { return __fdividef(a, 1.0f + __expf(-a)) * b; }

__device__ __forceinline__ float4 silu_mul4(float4 a, float4 b)
{
    return make_float4(silu_mul(a.x, b.x), silu_mul(a.y, b.y), silu_mul(a.z, b.z), silu_mul(a.w, b.w));
}

// kforecast: rows = 8192; d = 4096; x: f32[rows, 2 * d] randn; out: f32[rows, d]; rtol = 1e-4; atol = 1e-5
__global__ void __launch_bounds__(THREADS) swiglu(const float* __restrict__ x, float* __restrict__ out, int rows, int d)
{
    const int d4 = d >> 2;
    const int n4 = rows * d4;
    const float4* x4 = reinterpret_cast<const float4*>(x);
    float4* o4 = reinterpret_cast<float4*>(out);
    const int stride = gridDim.x * THREADS;
    int i = blockIdx.x * THREADS + threadIdx.x;
    for (; i + stride < n4; i += 2 * stride) {
        const int j = i + stride;
        const int ri = i / d4, rj = j / d4;
        const float4 a0 = x4[i + ri * d4];          // row ri, float4 column i - ri * d4
        const float4 b0 = x4[i + ri * d4 + d4];
        const float4 a1 = x4[j + rj * d4];
        const float4 b1 = x4[j + rj * d4 + d4];
        o4[i] = silu_mul4(a0, b0);
        o4[j] = silu_mul4(a1, b1);
    }
    if (i < n4) {
        const int ri = i / d4;
        o4[i] = silu_mul4(x4[i + ri * d4], x4[i + ri * d4 + d4]);
    }
}

extern "C" void launch_swiglu(const float* x, float* out, int rows, int d, cudaStream_t stream)
{
    const int n4 = rows * (d / 4);
    const int needed = (n4 + THREADS - 1) / THREADS;
    const int blocks = needed < NUM_SMS * BLOCKS_PER_SM ? needed : NUM_SMS * BLOCKS_PER_SM;
    swiglu<<<blocks, THREADS, 0, stream>>>(x, out, rows, d);
}
