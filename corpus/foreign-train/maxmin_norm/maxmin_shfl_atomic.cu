// Per-image max-min normalisation in two launches: a grid-stride pass where each warp
// reduces with shuffles and one lane per warp folds its result into the image's min and max
// with integer atomics on an order-preserving encoding of the float, then the normalise pass.
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

// monotone map float -> unsigned: a < b  <=>  key(a) < key(b)
__device__ __forceinline__ unsigned int orderedKey(float f) {
    unsigned int u = __float_as_uint(f);
    return (u & 0x80000000u) ? ~u : (u | 0x80000000u);
}
__device__ __forceinline__ float orderedValue(unsigned int k) {
    unsigned int u = (k & 0x80000000u) ? (k & 0x7fffffffu) : ~k;
    return __uint_as_float(u);
}

__global__ void minmax_warp_atomic(const float* __restrict__ x, unsigned int* keyMin,
                                   unsigned int* keyMax, int pixels) {
    const float* img = x + (size_t)blockIdx.y * pixels;
    float mn = 3.402823466e+38f, mx = -3.402823466e+38f;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < pixels; i += gridDim.x * blockDim.x) {
        float v = img[i];
        mn = fminf(mn, v);
        mx = fmaxf(mx, v);
    }
    for (int off = 16; off > 0; off >>= 1) {
        mn = fminf(mn, __shfl_xor_sync(0xffffffffu, mn, off));
        mx = fmaxf(mx, __shfl_xor_sync(0xffffffffu, mx, off));
    }
    if ((threadIdx.x & 31) == 0) {
        atomicMin(keyMin + blockIdx.y, orderedKey(mn));
        atomicMax(keyMax + blockIdx.y, orderedKey(mx));
    }
}

__global__ void normalize_from_keys(const float* __restrict__ x, float* __restrict__ y,
                                    const unsigned int* keyMin, const unsigned int* keyMax,
                                    int pixels) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= pixels) return;
    float lo = orderedValue(keyMin[blockIdx.y]);
    float hi = orderedValue(keyMax[blockIdx.y]);
    size_t off = (size_t)blockIdx.y * pixels + i;
    y[off] = (x[off] - lo) / (hi - lo);
}

static unsigned int* d_keys = nullptr;
static int d_keyImages = 0;

extern "C" int maxmin_normalize(const float* d_x, float* d_y, int images, int pixels) {
    g_lastError = 0;
    if (images > d_keyImages) {
        if (d_keys) checkCudaErrors(cudaFree(d_keys));
        checkCudaErrors(cudaMalloc((void**)&d_keys, 2 * (size_t)images * sizeof(unsigned int)));
        d_keyImages = images;
    }
    if (g_lastError) return g_lastError;
    unsigned int* keyMin = d_keys;
    unsigned int* keyMax = d_keys + images;
    checkCudaErrors(cudaMemset(keyMin, 0xff, images * sizeof(unsigned int)));
    checkCudaErrors(cudaMemset(keyMax, 0x00, images * sizeof(unsigned int)));

    int device = 0, sms = 0;
    checkCudaErrors(cudaGetDevice(&device));
    checkCudaErrors(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    const int threads = 256;
    int perImage = (sms * 8 + images - 1) / images;  // ~8 blocks of 256 per SM in all
    int maxUseful = (pixels + threads - 1) / threads;
    if (perImage > maxUseful) perImage = maxUseful;
    if (perImage < 1) perImage = 1;
    minmax_warp_atomic<<<dim3(perImage, images), threads>>>(d_x, keyMin, keyMax, pixels);
    checkCudaErrors(cudaGetLastError());

    normalize_from_keys<<<dim3((pixels + threads - 1) / threads, images), threads>>>(
        d_x, d_y, keyMin, keyMax, pixels);
    checkCudaErrors(cudaGetLastError());
    return g_lastError;
}
