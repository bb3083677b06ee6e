// Sobel edge magnitude with clamp-to-edge borders, helpers for every global access, one thread
// per pixel on a 1-D grid whose thread index runs down the columns (y fastest): neighbouring
// threads touch pixels a whole row apart.
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

__global__ void sobel_kernel_ymajor(const float* img, float* out, int width, int height) {
    long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= (long long)width * height) return;
    int y = (int)(t % height);
    int x = (int)(t / height);
    store_pixel(out, x, y, width, sobel_magnitude_at(img, x, y, width, height));
}

extern "C" int sobel_edges(const float* d_img, float* d_out, int width, int height) {
    const int threads = 256;
    long long pixels = (long long)width * height;
    unsigned int blocks = (unsigned int)((pixels + threads - 1) / threads);
    sobel_kernel_ymajor<<<blocks, threads>>>(d_img, d_out, width, height);
    CUDA_TRY(cudaGetLastError());
    return 0;
}
