// out = relu(a * x + b) in double precision: twice the bytes of float per element.
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

__global__ void sb_relu_double(const double* __restrict__ src, double* __restrict__ dst, long long count,
                               double alpha, double beta) {
    long long idx = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (idx < count) {
        double v = alpha * src[idx] + beta;
        dst[idx] = v > 0.0 ? v : 0.0;
    }
}

extern "C" int scale_bias(const void* x, void* out, long long n, float a, float b) {
    if (n <= 0) return 0;
    long long grid = (n + 255) / 256;
    sb_relu_double<<<(unsigned)grid, 256>>>((const double*)x, (double*)out, n, (double)a, (double)b);
    CHECK(cudaGetLastError());
    return 0;
}
