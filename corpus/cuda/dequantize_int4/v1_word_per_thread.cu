// int4 -> fp32 dequantisation, one thread per packed uint32 word: the word is loaded once and
// its 8 nibbles are written as 8 consecutive floats (scalar stores, 32-byte stride per lane).
#include <cuda_runtime.h>

#define THREADS 256
#define GROUP   128

// kforecast: K = 4096; N = 4096; qweight: u32[K, N / 8] randint(0, 2147483647); scales: f32[K / 128, N] rand; zeros: f32[K / 128, N] rand; w: f32[K, N]; rtol = 1e-5; atol = 1e-5
__global__ void dequantize_int4(const unsigned int* __restrict__ qweight, const float* __restrict__ scales,
                const float* __restrict__ zeros, float* __restrict__ w, int K, int N)
{
    const int words = N / 8;
    const long long idx = (long long)blockIdx.x * THREADS + threadIdx.x;
    if (idx >= (long long)K * words) return;
    const int k = (int)(idx / words);
    const int j = (int)(idx - (long long)k * words);
    const unsigned int word = qweight[idx];
    const int g = k / GROUP;
    const float* s = scales + (size_t)g * N + j * 8;
    const float* z = zeros + (size_t)g * N + j * 8;
    float* dst = w + (size_t)k * N + j * 8;
#pragma unroll
    for (int i = 0; i < 8; ++i) {
        const unsigned int q = (word >> (4 * i)) & 0xFu;
        dst[i] = ((float)q - z[i]) * s[i];
    }
}

extern "C" void launch_dequantize_int4(const unsigned int* qweight, const float* scales, const float* zeros, float* w,
                                       int K, int N, cudaStream_t stream)
{
    const int blocks = (K * (N / 8) + THREADS - 1) / THREADS;
    dequantize_int4<<<blocks, THREADS, 0, stream>>>(qweight, scales, zeros, w, K, N);
}
