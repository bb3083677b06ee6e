// hardswish, one element per thread, fp16 and bf16 instances stamped out by a macro.
#include <cstdio>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#define CUDA_RETURN_IF_ERROR(expr)                                                       \
    do {                                                                                 \
        cudaError_t e__ = (expr);                                                        \
        if (e__ != cudaSuccess) {                                                        \
            fprintf(stderr, "CUDA error %s (%s:%d)\n", cudaGetErrorString(e__), __FILE__, __LINE__); \
            return (int)e__;                                                             \
        }                                                                                \
    } while (0)

#define HSWISH_F32(v) ((v) * fminf(fmaxf((v) + 3.0f, 0.0f), 6.0f) * (1.0f / 6.0f))
#define BLOCK_THREADS 256

#define DEFINE_HARDSWISH(SUFFIX, T, TO_FLOAT, FROM_FLOAT)                                 \
    __global__ void hardswish_kernel_##SUFFIX(const T* __restrict__ x, T* __restrict__ y,   \
                                              long long n) {                              \
        long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;                   \
        if (i < n) {                                                                      \
            float v = TO_FLOAT(x[i]);                                                     \
            y[i] = FROM_FLOAT(HSWISH_F32(v));                                             \
        }                                                                                 \
    }                                                                                     \
    extern "C" int hardswish_##SUFFIX(const void* x, void* y, long long n) {              \
        if (n <= 0) return 0;                                                             \
        long long blocks = (n + BLOCK_THREADS - 1) / BLOCK_THREADS;                       \
        hardswish_kernel_##SUFFIX<<<(unsigned)blocks, BLOCK_THREADS>>>(                   \
            static_cast<const T*>(x), static_cast<T*>(y), n);                             \
        CUDA_RETURN_IF_ERROR(cudaGetLastError());                                         \
        return 0;                                                                         \
    }

DEFINE_HARDSWISH(f16, __half, __half2float, __float2half_rn)
DEFINE_HARDSWISH(bf16, __nv_bfloat16, __bfloat162float, __float2bfloat16_rn)
