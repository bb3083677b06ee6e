// out[i] = clamp(a * x[i] + b * y[i], lo, hi), one element per thread.
#include <cstdio>
#include <cuda_runtime.h>

#define CUDA_CHECK(call)                                                        \
    do {                                                                        \
        cudaError_t err_ = (call);                                              \
        if (err_ != cudaSuccess) {                                              \
            fprintf(stderr, "CUDA error %s at %s:%d\n", cudaGetErrorString(err_), \
                    __FILE__, __LINE__);                                        \
            return (int)err_;                                                   \
        }                                                                       \
    } while (0)

__global__ void axpby_clamp_kernel(const float* __restrict__ x, const float* __restrict__ y,
                                   float* __restrict__ out, long long n, float a, float b,
                                   float lo, float hi) {
    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float v = a * x[i] + b * y[i];
        out[i] = fminf(fmaxf(v, lo), hi);
    }
}

extern "C" int axpby_clamp(const float* x, const float* y, float* out, long long n, float a,
                           float b, float lo, float hi) {
    if (n <= 0) return 0;
    const int threads = 256;
    long long blocks = (n + threads - 1) / threads;
    if (blocks > 0x7fffffffLL) {
        fprintf(stderr, "axpby_clamp: n=%lld too large for a 1-D grid\n", n);
        return (int)cudaErrorInvalidValue;
    }
    axpby_clamp_kernel<<<(unsigned)blocks, threads>>>(x, y, out, n, a, b, lo, hi);
    CUDA_CHECK(cudaGetLastError());
    return 0;
}
