// Box blur with sliding-window running sums: each thread walks a 64-pixel segment of a
// row (then, in the second kernel, of a column), adding the pixel entering the window and
// subtracting the one leaving it: O(1) work per pixel whatever the radius.
#include <cstdio>
#include <cuda_runtime.h>

#define CK(call)                                                                  \
    do {                                                                          \
        cudaError_t e = (call);                                                   \
        if (e != cudaSuccess) {                                                   \
            fprintf(stderr, "box_blur: %s (line %d)\n", cudaGetErrorString(e), __LINE__); \
            return (int)e;                                                        \
        }                                                                         \
    } while (0)

#define SEG 64

__device__ __forceinline__ float at_or_zero(const float* p, int i, int n) {
    return (i >= 0 && i < n) ? p[i] : 0.f;
}

// one thread per (plane, row, 64-pixel segment)
__global__ void row_running_sum(const float* __restrict__ in, float* __restrict__ tmp,
                                int planes, int H, int W, int r) {
    int segs = (W + SEG - 1) / SEG;
    long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= (long long)planes * H * segs) return;
    int seg = (int)(t % segs);
    long long row = t / segs;  // plane * H + y
    const float* src = in + row * W;
    float* dst = tmp + row * W;
    int x0 = seg * SEG;
    int x1 = min(x0 + SEG, W);
    float s = 0.f;
    for (int xx = x0 - r; xx <= x0 + r; ++xx) s += at_or_zero(src, xx, W);
    dst[x0] = s;
    for (int x = x0 + 1; x < x1; ++x) {
        s += at_or_zero(src, x + r, W) - at_or_zero(src, x - r - 1, W);
        dst[x] = s;
    }
}

// one thread per (plane, 64-row segment, column): neighbouring threads, neighbouring columns
__global__ void col_running_sum(const float* __restrict__ tmp, float* __restrict__ out, int H,
                                int W, int r, float scale) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    if (x >= W) return;
    int y0 = blockIdx.y * SEG;
    int y1 = min(y0 + SEG, H);
    size_t plane = (size_t)blockIdx.z * H * W;
    const float* src = tmp + plane + x;
    float* dst = out + plane + x;
    float s = 0.f;
    for (int yy = y0 - r; yy <= y0 + r; ++yy)
        if (yy >= 0 && yy < H) s += src[(size_t)yy * W];
    dst[(size_t)y0 * W] = s * scale;
    for (int y = y0 + 1; y < y1; ++y) {
        int yin = y + r, yout = y - r - 1;
        if (yin < H) s += src[(size_t)yin * W];
        if (yout >= 0) s -= src[(size_t)yout * W];
        dst[(size_t)y * W] = s * scale;
    }
}

static float* ws = nullptr;
static size_t ws_size = 0;

extern "C" int box_blur(const float* in, float* out, int planes, int H, int W, int radius) {
    if (planes <= 0 || H <= 0 || W <= 0) return 0;
    if (radius < 0) return (int)cudaErrorInvalidValue;
    size_t need = (size_t)planes * H * W * sizeof(float);
    if (need > ws_size) {
        if (ws) CK(cudaFree(ws));
        ws = nullptr;
        ws_size = 0;
        CK(cudaMalloc(&ws, need));
        ws_size = need;
    }
    float k = (float)(2 * radius + 1);

    long long row_threads = (long long)planes * H * ((W + SEG - 1) / SEG);
    int tpb = 128;
    row_running_sum<<<(unsigned)((row_threads + tpb - 1) / tpb), tpb>>>(in, ws, planes, H, W,
                                                                       radius);
    CK(cudaGetLastError());

    dim3 grid((W + 127) / 128, (H + SEG - 1) / SEG, planes);
    col_running_sum<<<grid, 128>>>(ws, out, H, W, radius, 1.0f / (k * k));
    CK(cudaGetLastError());
    return 0;
}
