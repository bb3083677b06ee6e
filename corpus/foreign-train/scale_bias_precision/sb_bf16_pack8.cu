// out = relu(a * x + b) on bfloat16, eight elements per thread through one 16-byte load and
// store (uint4), the tail element by element.
#include <cstdio>
#include <cstdint>
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#define CHECK(call)                                                                        \
    do {                                                                                   \
        cudaError_t e_ = (call);                                                           \
        if (e_ != cudaSuccess) {                                                           \
            fprintf(stderr, "scale_bias: %s (%s:%d)\n", cudaGetErrorString(e_), __FILE__, __LINE__); \
            return (int)e_;                                                                \
        }                                                                                  \
    } while (0)

#define PACK 8

__global__ void affine_relu_bf16x8(const __nv_bfloat16* __restrict__ x, __nv_bfloat16* __restrict__ y, long long n,
                                   float a, float b) {
    long long base = ((long long)blockIdx.x * blockDim.x + threadIdx.x) * PACK;
    if (base + PACK <= n) {
        uint4 raw = *reinterpret_cast<const uint4*>(x + base);
        __nv_bfloat16* v = reinterpret_cast<__nv_bfloat16*>(&raw);
#pragma unroll
        for (int k = 0; k < PACK; ++k) v[k] = __float2bfloat16(fmaxf(a * __bfloat162float(v[k]) + b, 0.0f));
        *reinterpret_cast<uint4*>(y + base) = raw;
    } else {
        for (long long i = base; i < n; ++i) y[i] = __float2bfloat16(fmaxf(a * __bfloat162float(x[i]) + b, 0.0f));
    }
}

extern "C" int scale_bias(const void* x, void* out, long long n, float a, float b) {
    if (n <= 0) return 0;
    long long threads = (n + PACK - 1) / PACK;
    const int block = 128;
    affine_relu_bf16x8<<<(unsigned)((threads + block - 1) / block), block>>>((const __nv_bfloat16*)x,
                                                                             (__nv_bfloat16*)out, n, a, b);
    CHECK(cudaGetLastError());
    return 0;
}
