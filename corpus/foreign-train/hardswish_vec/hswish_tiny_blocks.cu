// hardswish, one element per thread in blocks of 32 threads (one warp per block), fp16 and
// bf16 kernels from one macro.
#include <cstdio>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#define CHECK_LAUNCH()                                                                   \
    do {                                                                                 \
        cudaError_t e_ = cudaGetLastError();                                             \
        if (e_ != cudaSuccess) {                                                         \
            fprintf(stderr, "launch failed: %s (%s:%d)\n", cudaGetErrorString(e_), __FILE__, __LINE__); \
            return (int)e_;                                                              \
        }                                                                                \
    } while (0)

#define WARP_BLOCK 32
#define HSWISH(v) ((v) * fminf(fmaxf((v) + 3.0f, 0.0f), 6.0f) * (1.0f / 6.0f))

#define MAKE_HSWISH(TAG, T, LOADF, STOREF)                                                 \
    __global__ void hswish_warpblock_##TAG(const T* in, T* out, long long n) {             \
        const long long idx = (long long)blockIdx.x * WARP_BLOCK + threadIdx.x;            \
        if (idx >= n) return;                                                              \
        const float v = LOADF(in[idx]);                                                    \
        out[idx] = STOREF(HSWISH(v));                                                      \
    }                                                                                      \
    extern "C" int hardswish_##TAG(const void* x, void* y, long long n) {                  \
        if (n <= 0) return 0;                                                              \
        const long long blocks = (n + WARP_BLOCK - 1) / WARP_BLOCK;                        \
        hswish_warpblock_##TAG<<<(unsigned)blocks, WARP_BLOCK>>>((const T*)x, (T*)y, n);   \
        CHECK_LAUNCH();                                                                    \
        return 0;                                                                          \
    }

MAKE_HSWISH(f16, __half, __half2float, __float2half_rn)
MAKE_HSWISH(bf16, __nv_bfloat16, __bfloat162float, __float2bfloat16_rn)
