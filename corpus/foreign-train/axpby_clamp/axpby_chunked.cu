// axpby + clamp where every thread owns a contiguous chunk of 32 elements.
// Reads well on a CPU; on the GPU a warp's 32 lanes touch 32 different 128-byte lines
// on every step (uncoalesced).
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

static const int CHUNK = 32;

__global__ void axpby_clamp_chunk(const float* __restrict__ x, const float* __restrict__ y,
                                  float* __restrict__ out, long long n, float a, float b,
                                  float lo, float hi) {
    long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    long long begin = t * CHUNK;
    long long end = begin + CHUNK < n ? begin + CHUNK : n;
    for (long long i = begin; i < end; ++i) {
        float v = a * x[i] + b * y[i];
        out[i] = v < lo ? lo : (v > hi ? hi : v);
    }
}

extern "C" int axpby_clamp(const float* x, const float* y, float* out, long long n, float a,
                           float b, float lo, float hi) {
    if (n <= 0) return 0;
    long long nthreads = (n + CHUNK - 1) / CHUNK;
    const int threads = 128;
    long long blocks = (nthreads + threads - 1) / threads;
    axpby_clamp_chunk<<<(unsigned)blocks, threads>>>(x, y, out, n, a, b, lo, hi);
    CUDA_CHECK(cudaGetLastError());
    return 0;
}
