// Stream compaction of the positive values: every kept element takes its output slot with
// its own atomicAdd on one global counter.
#include <cstdio>
#include <cuda_runtime.h>

#define CUDA_CHECK(call)                                                                 \
    do {                                                                                 \
        cudaError_t err__ = (call);                                                      \
        if (err__ != cudaSuccess) {                                                      \
            fprintf(stderr, "CUDA error %s at %s:%d\n", cudaGetErrorString(err__), __FILE__, __LINE__); \
            return (int)err__;                                                           \
        }                                                                                \
    } while (0)

__global__ void compact_positive_atomic(const float* __restrict__ in, float* __restrict__ out,
                                        int* __restrict__ counter, long long n) {
    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float v = in[i];
        if (v > 0.0f) {
            int slot = atomicAdd(counter, 1);
            out[slot] = v;
        }
    }
}

extern "C" int compact_positive(const float* in, float* out, int* d_count, long long n) {
    CUDA_CHECK(cudaMemsetAsync(d_count, 0, sizeof(int)));
    if (n <= 0) return 0;
    const int threads = 256;
    const long long blocks = (n + threads - 1) / threads;
    compact_positive_atomic<<<(unsigned)blocks, threads>>>(in, out, d_count, n);
    CUDA_CHECK(cudaGetLastError());
    return 0;
}
