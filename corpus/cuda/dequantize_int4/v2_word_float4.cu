// int4 -> fp32 dequantisation, one thread per packed word with vectorised I/O: scales and
// zeros read as two float4 each, the 8 results written as two float4 stores.
#include <cuda_runtime.h>

#define THREADS 256
#define GROUP   128

__device__ __forceinline__ float4 dq4(unsigned int word, float4 z, float4 s)
{
    float4 r;
    r.x = ((float)(word & 0xFu) - z.x) * s.x;
    r.y = ((float)((word >> 4) & 0xFu) - z.y) * s.y;
    r.z = ((float)((word >> 8) & 0xFu) - z.z) * s.z;
    r.w = ((float)((word >> 12) & 0xFu) - z.w) * s.w;
    return r;
}

// kforecast: K = 4096; N = 4096; qweight: u32[K, N / 8] randint(0, 2147483647); scales: f32[K / 128, N] rand; zeros: f32[K / 128, N] rand; w: f32[K, N]; rtol = 1e-5; atol = 1e-5
__global__ void __launch_bounds__(THREADS) dequantize_int4(const unsigned int* __restrict__ qweight, const float* __restrict__ scales,
                const float* __restrict__ zeros, float* __restrict__ w, int K, int N)
{
    const int words = N / 8;
    const long long idx = (long long)blockIdx.x * THREADS + threadIdx.x;
    if (idx >= (long long)K * words) return;
    const int k = (int)(idx / words);
    const int j = (int)(idx - (long long)k * words);
    const unsigned int word = qweight[idx];
    const size_t gofs = (size_t)(k / GROUP) * N + j * 8;
    const float4* s4 = reinterpret_cast<const float4*>(scales + gofs);
    const float4* z4 = reinterpret_cast<const float4*>(zeros + gofs);
    float4* dst = reinterpret_cast<float4*>(w + (size_t)k * N + j * 8);
    dst[0] = dq4(word, z4[0], s4[0]);
    dst[1] = dq4(word >> 16, z4[1], s4[1]);
}

extern "C" void launch_dequantize_int4(const unsigned int* qweight, const float* scales, const float* zeros, float* w,
                                       int K, int N, cudaStream_t stream)
{
    const int blocks = (K * (N / 8) + THREADS - 1) / THREADS;
    dequantize_int4<<<blocks, THREADS, 0, stream>>>(qweight, scales, zeros, w, K, N);
}
