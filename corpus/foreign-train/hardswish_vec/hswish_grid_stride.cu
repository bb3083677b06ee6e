// hardswish, grid-stride loop over pairs with a grid of 8 blocks per SM; the odd last element
// is done by thread 0 of block 0. fp16 and bf16 from one macro.
#include <cstdio>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#define CUDA_CHECK(call)                                                                 \
    do {                                                                                 \
        cudaError_t err_ = (call);                                                       \
        if (err_ != cudaSuccess) {                                                       \
            fprintf(stderr, "CUDA error %s at %s:%d\n", cudaGetErrorString(err_), __FILE__, __LINE__); \
            return (int)err_;                                                            \
        }                                                                                \
    } while (0)

#define HARDSWISH(v) ((v) * fminf(fmaxf((v) + 3.0f, 0.0f), 6.0f) * (1.0f / 6.0f))
#define BLOCKS_PER_SM 8
#define NTHREADS 256

static int sm_count() {
    static int sms = 0;
    if (sms == 0) {
        int dev = 0;
        cudaGetDevice(&dev);
        cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
        if (sms <= 0) sms = 80;
    }
    return sms;
}

#define GRID_STRIDE_HARDSWISH(TAG, T, T2, P2F, F2P, TOF, FROMF)                            \
    __global__ void hardswish_gs_##TAG(const T* __restrict__ x, T* __restrict__ y, long long n) { \
        const long long pairs = n / 2;                                                     \
        const T2* x2 = reinterpret_cast<const T2*>(x);                                     \
        T2* y2 = reinterpret_cast<T2*>(y);                                                 \
        for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < pairs;    \
             i += (long long)gridDim.x * blockDim.x) {                                     \
            const float2 f = P2F(x2[i]);                                                   \
            y2[i] = F2P(HARDSWISH(f.x), HARDSWISH(f.y));                                   \
        }                                                                                  \
        if ((n & 1) && blockIdx.x == 0 && threadIdx.x == 0) {                              \
            const float v = TOF(x[n - 1]);                                                 \
            y[n - 1] = FROMF(HARDSWISH(v));                                                \
        }                                                                                  \
    }                                                                                      \
    extern "C" int hardswish_##TAG(const void* x, void* y, long long n) {                  \
        if (n <= 0) return 0;                                                              \
        hardswish_gs_##TAG<<<sm_count() * BLOCKS_PER_SM, NTHREADS>>>((const T*)x, (T*)y, n); \
        CUDA_CHECK(cudaGetLastError());                                                    \
        return 0;                                                                          \
    }

GRID_STRIDE_HARDSWISH(f16, __half, __half2, __half22float2, __floats2half2_rn, __half2float, __float2half_rn)
GRID_STRIDE_HARDSWISH(bf16, __nv_bfloat16, __nv_bfloat162, __bfloat1622float2, __floats2bfloat162_rn,
                      __bfloat162float, __float2bfloat16_rn)
