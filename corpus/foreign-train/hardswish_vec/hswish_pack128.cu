// hardswish with 128-bit packed accesses: each thread loads one uint4 (8 halves or 8 bf16),
// converts the four pairs, stores one uint4; a second kernel does the n % 8 tail.
#include <cstdio>
#include <cstdint>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#define CUDA_CHECK_RET(x)                                                                \
    do {                                                                                 \
        cudaError_t r_ = (x);                                                            \
        if (r_ != cudaSuccess) {                                                         \
            fprintf(stderr, "CUDA %s failed: %s\n", #x, cudaGetErrorString(r_));          \
            return (int)r_;                                                              \
        }                                                                                \
    } while (0)

#define HSW(v) ((v) * fminf(fmaxf((v) + 3.0f, 0.0f), 6.0f) * (1.0f / 6.0f))
#define VEC 8
#define THREADS 256

#define DEFINE_PACKED(SUF, T, T2, P2F, F2P, TOF, FROMF)                                    \
    __global__ void __launch_bounds__(THREADS) hsw_pack_##SUF(const uint4* __restrict__ src, \
                                                               uint4* __restrict__ dst,    \
                                                               long long n_vec) {          \
        long long i = (long long)blockIdx.x * THREADS + threadIdx.x;                       \
        if (i >= n_vec) return;                                                            \
        uint4 raw = src[i];                                                                \
        T2* pr = reinterpret_cast<T2*>(&raw);                                              \
        _Pragma("unroll") for (int k = 0; k < 4; ++k) {                                    \
            float2 f = P2F(pr[k]);                                                         \
            pr[k] = F2P(HSW(f.x), HSW(f.y));                                               \
        }                                                                                  \
        dst[i] = raw;                                                                      \
    }                                                                                      \
    __global__ void hsw_tail_##SUF(const T* __restrict__ src, T* __restrict__ dst,         \
                                   long long start, long long n) {                         \
        long long i = start + threadIdx.x;                                                 \
        if (i < n) {                                                                       \
            float v = TOF(src[i]);                                                         \
            dst[i] = FROMF(HSW(v));                                                        \
        }                                                                                  \
    }                                                                                      \
    extern "C" int hardswish_##SUF(const void* x, void* y, long long n) {                  \
        if (n <= 0) return 0;                                                              \
        if ((reinterpret_cast<uintptr_t>(x) | reinterpret_cast<uintptr_t>(y)) & 15) {      \
            fprintf(stderr, "hardswish_" #SUF ": pointers must be 16-byte aligned\n");      \
            return (int)cudaErrorMisalignedAddress;                                        \
        }                                                                                  \
        const long long n_vec = n / VEC;                                                   \
        if (n_vec > 0) {                                                                   \
            hsw_pack_##SUF<<<(unsigned)((n_vec + THREADS - 1) / THREADS), THREADS>>>(      \
                (const uint4*)x, (uint4*)y, n_vec);                                        \
            CUDA_CHECK_RET(cudaGetLastError());                                            \
        }                                                                                  \
        if (n_vec * VEC < n) {                                                             \
            hsw_tail_##SUF<<<1, VEC>>>((const T*)x, (T*)y, n_vec * VEC, n);                \
            CUDA_CHECK_RET(cudaGetLastError());                                            \
        }                                                                                  \
        return 0;                                                                          \
    }

DEFINE_PACKED(f16, __half, __half2, __half22float2, __floats2half2_rn, __half2float, __float2half_rn)
DEFINE_PACKED(bf16, __nv_bfloat16, __nv_bfloat162, __bfloat1622float2, __floats2bfloat162_rn,
              __bfloat162float, __float2bfloat16_rn)
