// int4 -> fp32 dequantisation, one thread per uint4 (4 packed words = 32 outputs): a 16-byte
// load of the weights, 8 float4 loads each of scales and zeros, 8 float4 stores. N % 32 == 0.
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
    const int vecs = N / 32;
    const long long idx = (long long)blockIdx.x * THREADS + threadIdx.x;
    if (idx >= (long long)K * vecs) return;
    const int k = (int)(idx / vecs);
    const int j = (int)(idx - (long long)k * vecs);
    const uint4 q = reinterpret_cast<const uint4*>(qweight)[idx];
    const size_t gofs = (size_t)(k / GROUP) * N + j * 32;
    const float4* s4 = reinterpret_cast<const float4*>(scales + gofs);
    const float4* z4 = reinterpret_cast<const float4*>(zeros + gofs);
    float4* dst = reinterpret_cast<float4*>(w + (size_t)k * N + j * 32);
    const unsigned int words[4] = {q.x, q.y, q.z, q.w};
#pragma unroll
    for (int i = 0; i < 4; ++i) {
        dst[2 * i] = dq4(words[i], z4[2 * i], s4[2 * i]);
        dst[2 * i + 1] = dq4(words[i] >> 16, z4[2 * i + 1], s4[2 * i + 1]);
    }
}

extern "C" void launch_dequantize_int4(const unsigned int* qweight, const float* scales, const float* zeros, float* w,
                                       int K, int N, cudaStream_t stream)
{
    const int blocks = (K * (N / 32) + THREADS - 1) / THREADS;
    dequantize_int4<<<blocks, THREADS, 0, stream>>>(qweight, scales, zeros, w, K, N);
}
