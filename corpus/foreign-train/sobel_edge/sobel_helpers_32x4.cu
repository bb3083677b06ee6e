// Sobel edge magnitude (clamp-to-edge), one thread per pixel through __device__ fetch/put
// helpers, on 32x4 blocks; taps fetched row by row.
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

__device__ float fetch_clamped(const float* img, int x, int y, int width, int height) {
    x = clampi(x, 0, width - 1);
    y = clampi(y, 0, height - 1);
    return img[(size_t)y * width + x];
}

__device__ void put_pixel(float* img, int x, int y, int width, float v) {
    img[(size_t)y * width + x] = v;
}

__device__ float edge_strength(const float* img, int x, int y, int width, int height) {
    float bl = fetch_clamped(img, x - 1, y + 1, width, height);
    float bc = fetch_clamped(img, x, y + 1, width, height);
    float br = fetch_clamped(img, x + 1, y + 1, width, height);
    float ml = fetch_clamped(img, x - 1, y, width, height);
    float mr = fetch_clamped(img, x + 1, y, width, height);
    float tl = fetch_clamped(img, x - 1, y - 1, width, height);
    float tc = fetch_clamped(img, x, y - 1, width, height);
    float tr = fetch_clamped(img, x + 1, y - 1, width, height);
    float gy = (bl + 2.0f * bc + br) - (tl + 2.0f * tc + tr);
    float gx = (tr + 2.0f * mr + br) - (tl + 2.0f * ml + bl);
    return sqrtf(gx * gx + gy * gy);
}

__global__ void sobel_edges_32x4(const float* img, float* out, int width, int height) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= width || y >= height) return;
    put_pixel(out, x, y, width, edge_strength(img, x, y, width, height));
}

extern "C" int sobel_edges(const float* d_img, float* d_out, int width, int height) {
    dim3 block(32, 4);
    dim3 grid((width + block.x - 1) / block.x, (height + block.y - 1) / block.y);
    sobel_edges_32x4<<<grid, block>>>(d_img, d_out, width, height);
    CUDA_TRY(cudaGetLastError());
    return 0;
}
