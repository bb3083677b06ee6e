// int4 -> fp32 dequantisation, w[k][n] = (q - zero) * scale with per-group (128 rows of K)
// scales/zeros; naive: one thread per output element, each re-reads its packed 8-nibble word.
#include <cuda_runtime.h>

#define THREADS 256
#define GROUP   128

// kforecast: K = 4096; N = 4096; qweight: u32[K, N / 8] randint(0, 2147483647); scales: f32[K / 128, N] rand; zeros: f32[K / 128, N] rand; w: f32[K, N]; rtol = 1e-5; atol = 1e-5
__global__ void dequantize_int4(const unsigned int* __restrict__ qweight, const float* __restrict__ scales,
                const float* __restrict__ zeros, float* __restrict__ w, int K, int N)
{
    const long long idx = (long long)blockIdx.x * THREADS + threadIdx.x;
    if (idx >= (long long)K * N) return;
    const int k = (int)(idx / N);
    const int n = (int)(idx - (long long)k * N);
    const unsigned int word = qweight[(size_t)k * (N / 8) + n / 8];
    const unsigned int q = (word >> ((n % 8) * 4)) & 0xFu;
    const int g = k / GROUP;
    w[idx] = ((float)q - zeros[(size_t)g * N + n]) * scales[(size_t)g * N + n];
}

extern "C" void launch_dequantize_int4(const unsigned int* qweight, const float* scales, const float* zeros, float* w,
                                       int K, int N, cudaStream_t stream)
{
    const int blocks = (K * N + THREADS - 1) / THREADS;
    dequantize_int4<<<blocks, THREADS, 0, stream>>>(qweight, scales, zeros, w, K, N);
}
