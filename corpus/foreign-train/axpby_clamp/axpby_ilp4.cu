// axpby + clamp, four independent elements per thread (ILP): a block covers
// 4 * blockDim.x consecutive elements, element k of a thread sits k * blockDim.x apart,
// so every load instruction of a warp stays coalesced.
#include <cstdio>
#include <cuda_runtime.h>

#define CK(x)                                                                     \
    do {                                                                          \
        cudaError_t st = (x);                                                     \
        if (st != cudaSuccess) {                                                  \
            fprintf(stderr, "cuda: %s at line %d\n", cudaGetErrorString(st), __LINE__); \
            return (int)st;                                                       \
        }                                                                         \
    } while (0)

#define ILP 4
#define BLOCK 256

__global__ void __launch_bounds__(BLOCK)
axpby_clamp_ilp(const float* __restrict__ x, const float* __restrict__ y,
                float* __restrict__ out, long long n, float a, float b, float lo, float hi) {
    long long base = (long long)blockIdx.x * (BLOCK * ILP) + threadIdx.x;
    float xs[ILP], ys[ILP];
#pragma unroll
    for (int k = 0; k < ILP; ++k) {
        long long i = base + (long long)k * BLOCK;
        xs[k] = i < n ? x[i] : 0.f;
        ys[k] = i < n ? y[i] : 0.f;
    }
#pragma unroll
    for (int k = 0; k < ILP; ++k) {
        long long i = base + (long long)k * BLOCK;
        if (i < n) out[i] = fminf(fmaxf(a * xs[k] + b * ys[k], lo), hi);
    }
}

extern "C" int axpby_clamp(const float* x, const float* y, float* out, long long n, float a,
                           float b, float lo, float hi) {
    if (n <= 0) return 0;
    long long per_block = (long long)BLOCK * ILP;
    long long blocks = (n + per_block - 1) / per_block;
    axpby_clamp_ilp<<<(unsigned)blocks, BLOCK>>>(x, y, out, n, a, b, lo, hi);
    CK(cudaGetLastError());
    return 0;
}
