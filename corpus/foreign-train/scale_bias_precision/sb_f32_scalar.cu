// out = relu(a * x + b), float32, one element per thread.
#include <cstdio>
#include <cuda_runtime.h>

#define CHECK(call)                                                                        \
    do {                                                                                   \
        cudaError_t e_ = (call);                                                           \
        if (e_ != cudaSuccess) {                                                           \
            fprintf(stderr, "scale_bias: %s (%s:%d)\n", cudaGetErrorString(e_), __FILE__, __LINE__); \
            return (int)e_;                                                                \
        }                                                                                  \
    } while (0)

__global__ void scale_bias_relu_f32(const float* __restrict__ x, float* __restrict__ out, long long n, float a,
                                    float b) {
    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = fmaxf(a * x[i] + b, 0.0f);
}

extern "C" int scale_bias(const void* x, void* out, long long n, float a, float b) {
    if (n <= 0) return 0;
    const int threads = 256;
    long long blocks = (n + threads - 1) / threads;
    scale_bias_relu_f32<<<(unsigned)blocks, threads>>>((const float*)x, (float*)out, n, a, b);
    CHECK(cudaGetLastError());
    return 0;
}
