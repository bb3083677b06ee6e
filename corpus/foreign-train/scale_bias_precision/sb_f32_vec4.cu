// out = relu(a * x + b), float32, four elements per thread through float4 (the tail by the
// last thread, element by element).
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

__device__ __forceinline__ float relu_affine(float v, float a, float b) { return fmaxf(a * v + b, 0.0f); }

__global__ void scale_bias_vec4(const float4* __restrict__ x4, float4* __restrict__ o4, const float* __restrict__ x,
                                float* __restrict__ o, long long quads, long long n, float a, float b) {
    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < quads) {
        float4 v = x4[i];
        v.x = relu_affine(v.x, a, b);
        v.y = relu_affine(v.y, a, b);
        v.z = relu_affine(v.z, a, b);
        v.w = relu_affine(v.w, a, b);
        o4[i] = v;
    } else if (i == quads) {
        for (long long k = quads * 4; k < n; ++k) o[k] = relu_affine(x[k], a, b);
    }
}

extern "C" int scale_bias(const void* x, void* out, long long n, float a, float b) {
    if (n <= 0) return 0;
    long long quads = n / 4;
    const int block = 256;
    scale_bias_vec4<<<(unsigned)((quads + 1 + block - 1) / block), block>>>((const float4*)x, (float4*)out,
                                                                           (const float*)x, (float*)out, quads, n, a, b);
    CHECK(cudaGetLastError());
    return 0;
}
