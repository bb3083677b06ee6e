// Box blur, direct: every output sums its (2r+1) x (2r+1) window straight from global memory.
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

__global__ void box_blur_direct(const float* __restrict__ in, float* __restrict__ out, int H,
                                int W, int r) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= W || y >= H) return;
    const float* plane = in + (size_t)blockIdx.z * H * W;
    float acc = 0.f;
    for (int dy = -r; dy <= r; ++dy) {
        int yy = y + dy;
        if (yy < 0 || yy >= H) continue;
        for (int dx = -r; dx <= r; ++dx) {
            int xx = x + dx;
            if (xx >= 0 && xx < W) acc += plane[(size_t)yy * W + xx];
        }
    }
    float k = (float)(2 * r + 1);
    out[(size_t)blockIdx.z * H * W + (size_t)y * W + x] = acc / (k * k);
}

extern "C" int box_blur(const float* in, float* out, int planes, int H, int W, int radius) {
    if (planes <= 0 || H <= 0 || W <= 0) return 0;
    if (radius < 0) return (int)cudaErrorInvalidValue;
    dim3 block(32, 8);
    dim3 grid((W + block.x - 1) / block.x, (H + block.y - 1) / block.y, planes);
    box_blur_direct<<<grid, block>>>(in, out, H, W, radius);
    CUDA_CHECK(cudaGetLastError());
    return 0;
}
