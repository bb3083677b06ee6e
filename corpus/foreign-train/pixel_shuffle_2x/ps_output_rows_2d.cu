// Pixel shuffle, output-indexed with a 2-D grid: blockIdx.y walks the output rows (a stride of
// gridDim.y), the block's threads walk along the row; column coordinates computed once.
#include <cstdio>
#include <cuda_runtime.h>

#define CUDA_CHECK(call)                                                                 \
    do {                                                                                 \
        cudaError_t err_ = (call);                                                       \
        if (err_ != cudaSuccess) {                                                       \
            fprintf(stderr, "CUDA error %s at %s:%d\n", cudaGetErrorString(err_), __FILE__, __LINE__); \
            return (int)err_;                                                            \
        }                                                                                \
    } while (0)

template <typename T, int R, int THREADS>
__global__ void __launch_bounds__(THREADS)
pixel_shuffle_rows(const T* __restrict__ in, T* __restrict__ out, long long rows, int h, int w) {
    const int ox = blockIdx.x * THREADS + threadIdx.x;
    const int ow = w * R;
    if (ox >= ow) return;
    const int rows_per_plane = h * R;
    const int j = ox % R, x = ox / R;
    for (long long row = blockIdx.y; row < rows; row += gridDim.y) {
        const long long bk = row / rows_per_plane;
        const int oy = (int)(row - bk * rows_per_plane);
        const int i = oy % R;
        const T* src = in + ((bk * R * R + i * R + j) * h + oy / R) * (long long)w;
        out[row * ow + ox] = src[x];
    }
}

template <typename T, int R, int THREADS>
int pixel_shuffle_rows_launch(const T* in, T* out, int n, int c, int h, int w) {
    const long long rows = (long long)n * c * h * R;
    if (rows == 0 || w == 0) return 0;
    dim3 grid((w * R + THREADS - 1) / THREADS, rows > 65535 ? 65535u : (unsigned)rows);
    pixel_shuffle_rows<T, R, THREADS><<<grid, THREADS>>>(in, out, rows, h, w);
    CUDA_CHECK(cudaGetLastError());
    return 0;
}

extern "C" int pixel_shuffle2x(const float* in, float* out, int n, int c, int h, int w) {
    return pixel_shuffle_rows_launch<float, 2, 128>(in, out, n, c, h, w);
}
