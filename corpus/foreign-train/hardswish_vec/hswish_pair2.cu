// hardswish on pairs: __half2 / __nv_bfloat162 loads and stores, one pair per thread, the
// odd last element by the thread after the last pair. Macro-generated for both types.
#include <cstdio>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#define CK(expr)                                                                         \
    do {                                                                                 \
        cudaError_t st_ = (expr);                                                        \
        if (st_ != cudaSuccess) {                                                        \
            fprintf(stderr, "%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(st_));    \
            return (int)st_;                                                             \
        }                                                                                \
    } while (0)

#define HS(v) ((v) * fminf(fmaxf((v) + 3.0f, 0.0f), 6.0f) * (1.0f / 6.0f))

#define HSWISH_PAIR_IMPL(NAME, T, T2, PAIR_TO_F2, F2_TO_PAIR, TO_F, FROM_F)              \
    __global__ void NAME##_pairs(const T* __restrict__ in, T* __restrict__ out, long long n) { \
        const long long p = (long long)blockIdx.x * blockDim.x + threadIdx.x;             \
        const long long n_pairs = n >> 1;                                                 \
        if (p < n_pairs) {                                                                \
            float2 f = PAIR_TO_F2(reinterpret_cast<const T2*>(in)[p]);                     \
            reinterpret_cast<T2*>(out)[p] = F2_TO_PAIR(HS(f.x), HS(f.y));                  \
        } else if (p == n_pairs && (n & 1)) {                                             \
            float v = TO_F(in[n - 1]);                                                    \
            out[n - 1] = FROM_F(HS(v));                                                   \
        }                                                                                 \
    }                                                                                     \
    extern "C" int NAME(const void* x, void* y, long long n) {                            \
        if (n <= 0) return 0;                                                             \
        const int threads = 256;                                                          \
        const long long work = (n >> 1) + 1;                                              \
        NAME##_pairs<<<(unsigned)((work + threads - 1) / threads), threads>>>(            \
            (const T*)x, (T*)y, n);                                                       \
        CK(cudaGetLastError());                                                           \
        return 0;                                                                         \
    }

HSWISH_PAIR_IMPL(hardswish_f16, __half, __half2, __half22float2, __floats2half2_rn, __half2float,
                 __float2half_rn)
HSWISH_PAIR_IMPL(hardswish_bf16, __nv_bfloat16, __nv_bfloat162, __bfloat1622float2, __floats2bfloat162_rn,
                 __bfloat162float, __float2bfloat16_rn)
