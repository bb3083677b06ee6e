// Per-image max-min normalisation in one kernel: one 1024-thread block per image finds the
// image's min and max (strided loads, shared-memory tree), then the same block rescales the
// image. One launch and no workspace, but only as many blocks as there are images.
#include <cstdio>
#include <cuda_runtime.h>

#define checkCudaErrors(val) check((val), #val, __FILE__, __LINE__)
static int g_lastError = 0;
static void check(cudaError_t result, const char* func, const char* file, int line) {
    if (result) {
        fprintf(stderr, "CUDA error at %s:%d code=%d(%s) \"%s\"\n", file, line, (int)result,
                cudaGetErrorString(result), func);
        g_lastError = (int)result;
    }
}

template <unsigned int blockSize>
__global__ void normalizeImageBlock(const float* __restrict__ x, float* __restrict__ y, int pixels) {
    __shared__ float smin[blockSize];
    __shared__ float smax[blockSize];
    const float* img = x + (size_t)blockIdx.x * pixels;
    float* out = y + (size_t)blockIdx.x * pixels;
    unsigned int tid = threadIdx.x;

    float mn = 3.402823466e+38f, mx = -3.402823466e+38f;
    for (int i = tid; i < pixels; i += blockSize) {
        float v = img[i];
        mn = fminf(mn, v);
        mx = fmaxf(mx, v);
    }
    smin[tid] = mn;
    smax[tid] = mx;
    __syncthreads();
#pragma unroll
    for (unsigned int s = blockSize / 2; s > 0; s >>= 1) {
        if (tid < s) {
            smin[tid] = fminf(smin[tid], smin[tid + s]);
            smax[tid] = fmaxf(smax[tid], smax[tid + s]);
        }
        __syncthreads();
    }
    float lo = smin[0];
    float hi = smax[0];
    for (int i = tid; i < pixels; i += blockSize) out[i] = (img[i] - lo) / (hi - lo);
}

extern "C" int maxmin_normalize(const float* d_x, float* d_y, int images, int pixels) {
    g_lastError = 0;
    normalizeImageBlock<1024><<<images, 1024>>>(d_x, d_y, pixels);
    checkCudaErrors(cudaGetLastError());
    return g_lastError;
}
