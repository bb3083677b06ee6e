// Sobel edge magnitude, sqrt(gx^2 + gy^2), of a float32 image with clamp-to-edge borders.
// Every global access goes through small __device__ helpers (clamped load, store); one thread
// per output pixel on 16x16 blocks, all nine taps loaded from global memory.
#include <cstdio>
#include <cuda_runtime.h>

#define CUDA_TRY(expr)                                                              \
    do {                                                                            \
        cudaError_t e_ = (expr);                                                    \
        if (e_ != cudaSuccess) {                                                    \
            fprintf(stderr, "sobel: %s failed: %s\n", #expr, cudaGetErrorString(e_)); \
            return (int)e_;                                                         \
        }                                                                           \
    } while (0)

__device__ __forceinline__ int clampi(int v, int lo, int hi) { return v < lo ? lo : (v > hi ? hi : v); }

__device__ float load_pixel(const float* img, int x, int y, int width, int height) {
    x = clampi(x, 0, width - 1);
    y = clampi(y, 0, height - 1);
    return img[(size_t)y * width + x];
}

__device__ void store_pixel(float* img, int x, int y, int width, float v) {
    img[(size_t)y * width + x] = v;
}

__device__ float sobel_magnitude_at(const float* img, int x, int y, int width, int height) {
    float tl = load_pixel(img, x - 1, y - 1, width, height);
    float tc = load_pixel(img, x, y - 1, width, height);
    float tr = load_pixel(img, x + 1, y - 1, width, height);
    float ml = load_pixel(img, x - 1, y, width, height);
    float mr = load_pixel(img, x + 1, y, width, height);
    float bl = load_pixel(img, x - 1, y + 1, width, height);
    float bc = load_pixel(img, x, y + 1, width, height);
    float br = load_pixel(img, x + 1, y + 1, width, height);
    float gx = (tr + 2.0f * mr + br) - (tl + 2.0f * ml + bl);
    float gy = (bl + 2.0f * bc + br) - (tl + 2.0f * tc + tr);
    return sqrtf(gx * gx + gy * gy);
}

__global__ void sobel_kernel(const float* img, float* out, int width, int height) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= width || y >= height) return;
    store_pixel(out, x, y, width, sobel_magnitude_at(img, x, y, width, height));
}

extern "C" int sobel_edges(const float* d_img, float* d_out, int width, int height) {
    dim3 block(16, 16);
    dim3 grid((width + block.x - 1) / block.x, (height + block.y - 1) / block.y);
    sobel_kernel<<<grid, block>>>(d_img, d_out, width, height);
    CUDA_TRY(cudaGetLastError());
    return 0;
}
