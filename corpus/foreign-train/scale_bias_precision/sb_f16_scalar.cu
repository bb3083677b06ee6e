// out = relu(a * x + b) on __half elements, computed in float, one element per thread.
#include <cstdio>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#define CHECK(call)                                                                        \
    do {                                                                                   \
        cudaError_t e_ = (call);                                                           \
        if (e_ != cudaSuccess) {                                                           \
            fprintf(stderr, "scale_bias: %s (%s:%d)\n", cudaGetErrorString(e_), __FILE__, __LINE__); \
            return (int)e_;                                                                \
        }                                                                                  \
    } while (0)

__global__ void affine_relu_half(const __half* __restrict__ in, __half* __restrict__ res, long long n, float a,
                                 float b) {
    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float v = a * __half2float(in[i]) + b;
        res[i] = __float2half(v > 0.0f ? v : 0.0f);
    }
}

extern "C" int scale_bias(const void* x, void* out, long long n, float a, float b) {
    if (n <= 0) return 0;
    const int block = 256;
    affine_relu_half<<<(unsigned)((n + block - 1) / block), block>>>((const __half*)x, (__half*)out, n, a, b);
    CHECK(cudaGetLastError());
    return 0;
}
