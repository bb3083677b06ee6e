// Dot product: a grid-stride loop sized to fill the GPU, a warp-shuffle reduction inside
// each warp, the warp sums through shared memory, one atomicAdd per block.
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

__device__ __forceinline__ float warp_sum(float v) {
#pragma unroll
    for (int off = 16; off > 0; off >>= 1) v += __shfl_xor_sync(0xffffffffu, v, off);
    return v;
}

template <int BLOCK>
__global__ void __launch_bounds__(BLOCK)
dot_shfl(const float* __restrict__ x, const float* __restrict__ y, float* __restrict__ out,
         long long n) {
    __shared__ float warp_sums[BLOCK / 32];
    float s = 0.f;
    long long stride = (long long)gridDim.x * BLOCK;
    for (long long i = (long long)blockIdx.x * BLOCK + threadIdx.x; i < n; i += stride)
        s = fmaf(x[i], y[i], s);
    s = warp_sum(s);
    int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    if (lane == 0) warp_sums[warp] = s;
    __syncthreads();
    if (warp == 0) {
        s = lane < BLOCK / 32 ? warp_sums[lane] : 0.f;
        s = warp_sum(s);
        if (lane == 0) atomicAdd(out, s);
    }
}

template <int BLOCK>
static int launch_dot(const float* x, const float* y, float* out, long long n) {
    static int sms = 0;
    if (sms == 0) {
        int dev;
        CUDA_CHECK(cudaGetDevice(&dev));
        CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    }
    CUDA_CHECK(cudaMemsetAsync(out, 0, sizeof(float)));
    if (n <= 0) return 0;
    long long need = (n + BLOCK - 1) / BLOCK;
    long long fill = (long long)sms * (2048 / BLOCK);
    dot_shfl<BLOCK><<<(unsigned)(need < fill ? need : fill), BLOCK>>>(x, y, out, n);
    CUDA_CHECK(cudaGetLastError());
    return 0;
}

extern "C" int dot(const float* x, const float* y, float* out, long long n) {
    return launch_dot<512>(x, y, out, n);
}
