// Box blur, direct K x K sums over a shared-memory tile: a 32 x 32 block of outputs stages
// its (32 + 2r)^2 input window once, each of the 32 x 8 threads computes four outputs.
#include <cstdio>
#include <cuda_runtime.h>

#define CUDA_CHECK(call)                                                        \
    do {                                                                        \
        cudaError_t err_ = (call);                                              \
        if (err_ != cudaSuccess) {                                              \
            fprintf(stderr, "box_blur: %s at %s:%d\n", cudaGetErrorString(err_), \
                    __FILE__, __LINE__);                                        \
            return (int)err_;                                                   \
        }                                                                       \
    } while (0)

#define TILE 32
#define TY 8

__global__ void box_blur_tile2d(const float* __restrict__ in, float* __restrict__ out, int H,
                                int W, int r, float scale) {
    extern __shared__ float win[];  // (TILE + 2r) x (TILE + 2r)
    const int span = TILE + 2 * r;
    const int x0 = blockIdx.x * TILE, y0 = blockIdx.y * TILE;
    const size_t plane = (size_t)blockIdx.z * H * W;

    for (int j = threadIdx.y; j < span; j += TY) {
        int yy = y0 - r + j;
        for (int i = threadIdx.x; i < span; i += TILE) {
            int xx = x0 - r + i;
            win[j * span + i] =
                (yy >= 0 && yy < H && xx >= 0 && xx < W) ? in[plane + (size_t)yy * W + xx] : 0.f;
        }
    }
    __syncthreads();

    int x = x0 + threadIdx.x;
    if (x >= W) return;
    for (int q = threadIdx.y; q < TILE; q += TY) {
        int y = y0 + q;
        if (y >= H) break;
        float acc = 0.f;
        for (int dy = 0; dy <= 2 * r; ++dy)
            for (int dx = 0; dx <= 2 * r; ++dx) acc += win[(q + dy) * span + threadIdx.x + dx];
        out[plane + (size_t)y * W + x] = acc * scale;
    }
}

extern "C" int box_blur(const float* in, float* out, int planes, int H, int W, int radius) {
    if (planes <= 0 || H <= 0 || W <= 0) return 0;
    if (radius < 0) return (int)cudaErrorInvalidValue;
    size_t smem = (size_t)(TILE + 2 * radius) * (TILE + 2 * radius) * sizeof(float);
    if (smem > 48 * 1024) {
        fprintf(stderr, "box_blur: radius %d too large for the shared tile\n", radius);
        return (int)cudaErrorInvalidValue;
    }
    float k = (float)(2 * radius + 1);
    dim3 block(TILE, TY);
    dim3 grid((W + TILE - 1) / TILE, (H + TILE - 1) / TILE, planes);
    box_blur_tile2d<<<grid, block, smem>>>(in, out, H, W, radius, 1.0f / (k * k));
    CUDA_CHECK(cudaGetLastError());
    return 0;
}
