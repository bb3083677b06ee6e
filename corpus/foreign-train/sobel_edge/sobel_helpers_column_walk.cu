// Sobel edge magnitude with clamp-to-edge borders. Each thread walks 8 consecutive rows of
// one column keeping a rolling 3x3 window in registers, so every output after the first
// loads only the three new pixels of the next row (through the clamped-load helper).
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

#define ROWS_PER_THREAD 8

__device__ float sobel_window(float tl, float tc, float tr, float ml, float mr, float bl, float bc, float br) {
    float gx = (tr + 2.0f * mr + br) - (tl + 2.0f * ml + bl);
    float gy = (bl + 2.0f * bc + br) - (tl + 2.0f * tc + tr);
    return sqrtf(gx * gx + gy * gy);
}

__global__ void sobel_column_walk(const float* img, float* out, int width, int height) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y0 = blockIdx.y * ROWS_PER_THREAD;
    if (x >= width) return;
    float l0 = load_pixel(img, x - 1, y0 - 1, width, height);
    float c0 = load_pixel(img, x, y0 - 1, width, height);
    float r0 = load_pixel(img, x + 1, y0 - 1, width, height);
    float l1 = load_pixel(img, x - 1, y0, width, height);
    float c1 = load_pixel(img, x, y0, width, height);
    float r1 = load_pixel(img, x + 1, y0, width, height);
#pragma unroll
    for (int r = 0; r < ROWS_PER_THREAD; ++r) {
        int y = y0 + r;
        if (y >= height) break;
        float l2 = load_pixel(img, x - 1, y + 1, width, height);
        float c2 = load_pixel(img, x, y + 1, width, height);
        float r2 = load_pixel(img, x + 1, y + 1, width, height);
        store_pixel(out, x, y, width, sobel_window(l0, c0, r0, l1, r1, l2, c2, r2));
        l0 = l1; c0 = c1; r0 = r1;
        l1 = l2; c1 = c2; r1 = r2;
    }
}

extern "C" int sobel_edges(const float* d_img, float* d_out, int width, int height) {
    dim3 block(128, 1);
    dim3 grid((width + block.x - 1) / block.x, (height + ROWS_PER_THREAD - 1) / ROWS_PER_THREAD);
    sobel_column_walk<<<grid, block>>>(d_img, d_out, width, height);
    CUDA_TRY(cudaGetLastError());
    return 0;
}
