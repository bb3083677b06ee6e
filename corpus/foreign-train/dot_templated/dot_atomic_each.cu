// Dot product, every thread adds its own product into the result with atomicAdd:
// all the additions serialise on one address.
#include <cstdio>
#include <cuda_runtime.h>

#define CUDA_CHECK(call)                                                        \
    do {                                                                        \
        cudaError_t err_ = (call);                                              \
        if (err_ != cudaSuccess) {                                              \
            fprintf(stderr, "dot: %s at %s:%d\n", cudaGetErrorString(err_), __FILE__, __LINE__); \
            return (int)err_;                                                   \
        }                                                                       \
    } while (0)

template <int BLOCK>
__global__ void dot_atomic_per_element(const float* __restrict__ x, const float* __restrict__ y,
                                       float* __restrict__ out, long long n) {
    long long i = (long long)blockIdx.x * BLOCK + threadIdx.x;
    if (i < n) atomicAdd(out, x[i] * y[i]);
}

template <int BLOCK>
static int launch_dot(const float* x, const float* y, float* out, long long n) {
    CUDA_CHECK(cudaMemsetAsync(out, 0, sizeof(float)));
    if (n <= 0) return 0;
    long long blocks = (n + BLOCK - 1) / BLOCK;
    dot_atomic_per_element<BLOCK><<<(unsigned)blocks, BLOCK>>>(x, y, out, n);
    CUDA_CHECK(cudaGetLastError());
    return 0;
}

extern "C" int dot(const float* x, const float* y, float* out, long long n) {
    return launch_dot<256>(x, y, out, n);
}
