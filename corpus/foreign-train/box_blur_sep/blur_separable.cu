// Box blur as two 1-D passes: a horizontal sum into a temporary buffer (cudaMalloc'd once
// and kept, grown when a bigger image comes), then a vertical sum scaled into the output.
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

__global__ void blur_rows(const float* __restrict__ in, float* __restrict__ tmp, int H, int W,
                          int r) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y;
    if (x >= W) return;
    size_t row = ((size_t)blockIdx.z * H + y) * W;
    float s = 0.f;
    for (int dx = -r; dx <= r; ++dx) {
        int xx = x + dx;
        if (xx >= 0 && xx < W) s += in[row + xx];
    }
    tmp[row + x] = s;
}

__global__ void blur_cols(const float* __restrict__ tmp, float* __restrict__ out, int H, int W,
                          int r, float scale) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= W || y >= H) return;
    const float* plane = tmp + (size_t)blockIdx.z * H * W;
    float s = 0.f;
    for (int dy = -r; dy <= r; ++dy) {
        int yy = y + dy;
        if (yy >= 0 && yy < H) s += plane[(size_t)yy * W + x];
    }
    out[(size_t)blockIdx.z * H * W + (size_t)y * W + x] = s * scale;
}

static float* g_tmp = nullptr;
static size_t g_tmp_bytes = 0;

static int ensure_workspace(size_t bytes) {
    if (bytes <= g_tmp_bytes) return 0;
    if (g_tmp) CUDA_CHECK(cudaFree(g_tmp));
    g_tmp = nullptr;
    g_tmp_bytes = 0;
    CUDA_CHECK(cudaMalloc(&g_tmp, bytes));
    g_tmp_bytes = bytes;
    return 0;
}

extern "C" int box_blur(const float* in, float* out, int planes, int H, int W, int radius) {
    if (planes <= 0 || H <= 0 || W <= 0) return 0;
    if (radius < 0) return (int)cudaErrorInvalidValue;
    int rc = ensure_workspace((size_t)planes * H * W * sizeof(float));
    if (rc) return rc;
    float k = (float)(2 * radius + 1);

    dim3 hblock(256);
    dim3 hgrid((W + 255) / 256, H, planes);
    blur_rows<<<hgrid, hblock>>>(in, g_tmp, H, W, radius);
    CUDA_CHECK(cudaGetLastError());

    dim3 vblock(32, 8);
    dim3 vgrid((W + 31) / 32, (H + 7) / 8, planes);
    blur_cols<<<vgrid, vblock>>>(g_tmp, out, H, W, radius, 1.0f / (k * k));
    CUDA_CHECK(cudaGetLastError());
    return 0;
}
