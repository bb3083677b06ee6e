// int4 -> fp32 dequantisation, one thread per packed word with float4 I/O (as the word/float4
// version) with renamed variables, the nibbles unpacked inline and the statements reordered.
#include <cuda_runtime.h>

#define THREADS 256
#define GROUP   128

// kforecast: K = 4096; N = 4096; qweight: u32[K, N / 8] randint(0, 2147483647); scales: f32[K / 128, N] rand; zeros: f32[K / 128, N] rand; w: f32[K, N]; rtol = 1e-5; atol = 1e-5
__global__ void __launch_bounds__(THREADS) dequantize_int4(const unsigned int* __restrict__ qweight, const float* __restrict__ scales,
                const float* __restrict__ zeros, float* __restrict__ w, int K, int N)
{
    const int wpr = N >> 3;
    const long long t = (long long)blockIdx.x * THREADS + threadIdx.x;
    if (t >= (long long)K * wpr) return;
    const int row = (int)(t / wpr);
    const int col = (int)(t % wpr) << 3;
    const size_t p = (size_t)(row / GROUP) * N + col;
    const float4 za = *reinterpret_cast<const float4*>(zeros + p);
    const float4 zb = *reinterpret_cast<const float4*>(zeros + p + 4);
    const float4 sa = *reinterpret_cast<const float4*>(scales + p);
    const float4 sb = *reinterpret_cast<const float4*>(scales + p + 4);
    const unsigned int packed = qweight[t];
    float4 oa, ob;
    oa.x = ((float)(packed & 15u) - za.x) * sa.x;
    oa.y = ((float)((packed >> 4) & 15u) - za.y) * sa.y;
    oa.z = ((float)((packed >> 8) & 15u) - za.z) * sa.z;
    oa.w = ((float)((packed >> 12) & 15u) - za.w) * sa.w;
    ob.x = ((float)((packed >> 16) & 15u) - zb.x) * sb.x;
    ob.y = ((float)((packed >> 20) & 15u) - zb.y) * sb.y;
    ob.z = ((float)((packed >> 24) & 15u) - zb.z) * sb.z;
    ob.w = ((float)(packed >> 28) - zb.w) * sb.w;
    float* out = w + (size_t)row * N + col;
    *reinterpret_cast<float4*>(out) = oa;
    *reinterpret_cast<float4*>(out + 4) = ob;
}

extern "C" void launch_dequantize_int4(const unsigned int* qweight, const float* scales, const float* zeros, float* w,
                                       int K, int N, cudaStream_t stream)
{
    const int blocks = (K * (N / 8) + THREADS - 1) / THREADS;
    dequantize_int4<<<blocks, THREADS, 0, stream>>>(qweight, scales, zeros, w, K, N);
}
