// Direct 3x3 convolution with the filter bank in __constant__ memory: every thread of a
// block reads the same weight at the same time (one output channel per block), a broadcast.
#include <cstdio>
#include <cuda_runtime.h>

#define CUDA_TRY(call)                                                                   \
    do {                                                                                 \
        cudaError_t e = (call);                                                          \
        if (e != cudaSuccess) {                                                          \
            fprintf(stderr, "CUDA failure '%s' at %s:%d\n", cudaGetErrorString(e), __FILE__, \
                    __LINE__);                                                           \
            return (int)e;                                                               \
        }                                                                                \
    } while (0)

#define MAX_FILTER_FLOATS 16384  // 64 KB of constant memory

__constant__ float c_filters[MAX_FILTER_FLOATS];

__global__ void conv3x3_cmem(const float* __restrict__ src, float* __restrict__ dst, int channels_in,
                             int channels_out, int height, int width) {
    const int col = blockIdx.x * blockDim.x + threadIdx.x;
    const int row = blockIdx.y * blockDim.y + threadIdx.y;
    const int img = blockIdx.z / channels_out;
    const int oc = blockIdx.z - img * channels_out;
    if (col >= width || row >= height) return;

    const size_t plane_size = (size_t)height * width;
    const float* src_img = src + (size_t)img * channels_in * plane_size;
    float sum = 0.0f;
    for (int ic = 0; ic < channels_in; ++ic) {
        const float* p = src_img + ic * plane_size;
        const float* f = &c_filters[(oc * channels_in + ic) * 9];
#pragma unroll
        for (int dy = -1; dy <= 1; ++dy) {
            const int r = row + dy;
            if (r < 0 || r >= height) continue;
#pragma unroll
            for (int dx = -1; dx <= 1; ++dx) {
                const int c = col + dx;
                if (c >= 0 && c < width) sum += p[(size_t)r * width + c] * f[(dy + 1) * 3 + dx + 1];
            }
        }
    }
    dst[((size_t)img * channels_out + oc) * plane_size + (size_t)row * width + col] = sum;
}

extern "C" int conv2d_3x3(const float* in, const float* weight, float* out, int n, int cin, int cout,
                          int h, int w) {
    const size_t filter_floats = (size_t)cout * cin * 9;
    if (filter_floats > MAX_FILTER_FLOATS) {
        fprintf(stderr, "conv2d_3x3: %zu filter weights do not fit in constant memory\n", filter_floats);
        return (int)cudaErrorInvalidValue;
    }
    if (n <= 0 || h <= 0 || w <= 0) return 0;
    CUDA_TRY(cudaMemcpyToSymbolAsync(c_filters, weight, filter_floats * sizeof(float), 0,
                                     cudaMemcpyDeviceToDevice, 0));
    const dim3 threads(32, 8);
    const dim3 blocks((w + threads.x - 1) / threads.x, (h + threads.y - 1) / threads.y, n * cout);
    conv3x3_cmem<<<blocks, threads>>>(in, out, cin, cout, h, w);
    CUDA_TRY(cudaGetLastError());
    return 0;
}
