// Box blur as two 1-D passes through shared memory: the row pass stages 256 pixels plus a
// halo of r on each side, the column pass stages a 32-wide strip of 32 + 2r rows; the
// intermediate sums live in a cudaMalloc'd buffer kept between calls.
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

#define ROW_TILE 256
#define COL_W 32
#define COL_H 32
#define COL_THREADS_Y 8

__global__ void hpass_smem(const float* __restrict__ in, float* __restrict__ tmp, int H, int W,
                           int r) {
    extern __shared__ float s_row[];  // ROW_TILE + 2r
    int x0 = blockIdx.x * ROW_TILE;
    size_t row = ((size_t)blockIdx.z * H + blockIdx.y) * W;
    for (int t = threadIdx.x; t < ROW_TILE + 2 * r; t += ROW_TILE) {
        int xx = x0 - r + t;
        s_row[t] = (xx >= 0 && xx < W) ? in[row + xx] : 0.f;
    }
    __syncthreads();
    int x = x0 + threadIdx.x;
    if (x >= W) return;
    float s = 0.f;
    for (int j = 0; j <= 2 * r; ++j) s += s_row[threadIdx.x + j];
    tmp[row + x] = s;
}

__global__ void vpass_smem(const float* __restrict__ tmp, float* __restrict__ out, int H, int W,
                           int r, float scale) {
    extern __shared__ float s_col[];  // (COL_H + 2r) x COL_W
    int x = blockIdx.x * COL_W + threadIdx.x;
    int y0 = blockIdx.y * COL_H;
    const float* plane = tmp + (size_t)blockIdx.z * H * W;
    for (int t = threadIdx.y; t < COL_H + 2 * r; t += COL_THREADS_Y) {
        int yy = y0 - r + t;
        s_col[t * COL_W + threadIdx.x] =
            (yy >= 0 && yy < H && x < W) ? plane[(size_t)yy * W + x] : 0.f;
    }
    __syncthreads();
    if (x >= W) return;
    for (int q = threadIdx.y; q < COL_H; q += COL_THREADS_Y) {
        int y = y0 + q;
        if (y >= H) break;
        float s = 0.f;
        for (int j = 0; j <= 2 * r; ++j) s += s_col[(q + j) * COL_W + threadIdx.x];
        out[(size_t)blockIdx.z * H * W + (size_t)y * W + x] = s * scale;
    }
}

static float* d_scratch = nullptr;
static size_t scratch_bytes = 0;

extern "C" int box_blur(const float* in, float* out, int planes, int H, int W, int radius) {
    if (planes <= 0 || H <= 0 || W <= 0) return 0;
    if (radius < 0 || radius > 1024) return (int)cudaErrorInvalidValue;
    size_t need = (size_t)planes * H * W * sizeof(float);
    if (need > scratch_bytes) {
        if (d_scratch) CUDA_CHECK(cudaFree(d_scratch));
        d_scratch = nullptr;
        scratch_bytes = 0;
        CUDA_CHECK(cudaMalloc(&d_scratch, need));
        scratch_bytes = need;
    }
    float k = (float)(2 * radius + 1);

    dim3 hgrid((W + ROW_TILE - 1) / ROW_TILE, H, planes);
    size_t hsmem = (ROW_TILE + 2 * radius) * sizeof(float);
    hpass_smem<<<hgrid, ROW_TILE, hsmem>>>(in, d_scratch, H, W, radius);
    CUDA_CHECK(cudaGetLastError());

    dim3 vblock(COL_W, COL_THREADS_Y);
    dim3 vgrid((W + COL_W - 1) / COL_W, (H + COL_H - 1) / COL_H, planes);
    size_t vsmem = (size_t)(COL_H + 2 * radius) * COL_W * sizeof(float);
    vpass_smem<<<vgrid, vblock, vsmem>>>(d_scratch, out, H, W, radius, 1.0f / (k * k));
    CUDA_CHECK(cudaGetLastError());
    return 0;
}
