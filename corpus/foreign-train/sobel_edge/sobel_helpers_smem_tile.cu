// Sobel edge magnitude with clamp-to-edge borders. A 32x8 block stages its tile plus a
// one-pixel halo in shared memory through the clamped-load helper, then computes the nine-tap
// filters from shared memory and stores through the store helper.
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

#define BX 32
#define BY 8

__device__ float sobel_from_tile(const float (*t)[BX + 2], int tx, int ty) {
    float tl = t[ty][tx], tc = t[ty][tx + 1], tr = t[ty][tx + 2];
    float ml = t[ty + 1][tx], mr = t[ty + 1][tx + 2];
    float bl = t[ty + 2][tx], bc = t[ty + 2][tx + 1], br = t[ty + 2][tx + 2];
    float gx = (tr + 2.0f * mr + br) - (tl + 2.0f * ml + bl);
    float gy = (bl + 2.0f * bc + br) - (tl + 2.0f * tc + tr);
    return sqrtf(gx * gx + gy * gy);
}

__global__ void sobel_tiled_kernel(const float* img, float* out, int width, int height) {
    __shared__ float tile[BY + 2][BX + 2];
    const int x0 = blockIdx.x * BX - 1;
    const int y0 = blockIdx.y * BY - 1;
    const int tid = threadIdx.y * BX + threadIdx.x;
    for (int k = tid; k < (BY + 2) * (BX + 2); k += BX * BY) {
        int ty = k / (BX + 2);
        int tx = k % (BX + 2);
        tile[ty][tx] = load_pixel(img, x0 + tx, y0 + ty, width, height);
    }
    __syncthreads();
    int x = blockIdx.x * BX + threadIdx.x;
    int y = blockIdx.y * BY + threadIdx.y;
    if (x < width && y < height) store_pixel(out, x, y, width, sobel_from_tile(tile, threadIdx.x, threadIdx.y));
}

extern "C" int sobel_edges(const float* d_img, float* d_out, int width, int height) {
    dim3 block(BX, BY);
    dim3 grid((width + BX - 1) / BX, (height + BY - 1) / BY);
    sobel_tiled_kernel<<<grid, block>>>(d_img, d_out, width, height);
    CUDA_TRY(cudaGetLastError());
    return 0;
}
