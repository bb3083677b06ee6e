// Parallel sum in one launch: float4 loads in a grid-stride loop, warp shuffles, and
// one atomicAdd per warp into the (zeroed) result.
#include <cstdio>
#include <cuda_runtime.h>

#define THREADS 512
#define CUDA_CHECK(x)                                                                     \
    do {                                                                                  \
        cudaError_t e = (x);                                                              \
        if (e != cudaSuccess) {                                                           \
            fprintf(stderr, "reduce: %s at %s:%d\n", cudaGetErrorString(e), __FILE__, __LINE__); \
            return (int)e;                                                                \
        }                                                                                 \
    } while (0)

__global__ void sum_vec4_atomic(const float4* __restrict__ x4, const float* __restrict__ x, long long n, float* out)
{
    const long long n4 = n >> 2;
    float s = 0.f;
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n4; i += (long long)gridDim.x * blockDim.x) {
        const float4 v = x4[i];
        s += (v.x + v.y) + (v.z + v.w);
    }
    if (blockIdx.x == 0 && threadIdx.x < (n & 3)) s += x[n4 * 4 + threadIdx.x];
    for (int o = 16; o > 0; o >>= 1) s += __shfl_xor_sync(0xffffffffu, s, o);
    if ((threadIdx.x & 31) == 0) atomicAdd(out, s);
}

extern "C" int reduce_sum_f32(const float* x, float* out, long long n)
{
    static int blocks = 0;
    if (!blocks) {
        int dev, sms;
        CUDA_CHECK(cudaGetDevice(&dev));
        CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
        blocks = sms * 4;
    }
    CUDA_CHECK(cudaMemsetAsync(out, 0, sizeof(float)));
    sum_vec4_atomic<<<blocks, THREADS>>>(reinterpret_cast<const float4*>(x), x, n, out);
    CUDA_CHECK(cudaGetLastError());
    return 0;
}
