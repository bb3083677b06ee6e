// Direct 3x3 convolution with threadIdx.x walking down a column: neighbouring threads of a
// warp touch pixels a whole row apart, so every load and store is uncoalesced.
#include <cstdio>
#include <cuda_runtime.h>

#define CHECK(call)                                                                      \
    do {                                                                                 \
        cudaError_t e_ = (call);                                                         \
        if (e_ != cudaSuccess) {                                                         \
            fprintf(stderr, "CUDA: %s (%s:%d)\n", cudaGetErrorString(e_), __FILE__, __LINE__); \
            return (int)e_;                                                              \
        }                                                                                \
    } while (0)

__global__ void conv_3x3_colmajor(const float* __restrict__ in, const float* __restrict__ weight,
                                  float* __restrict__ out, int cin, int cout, int h, int w) {
    int y = blockIdx.x * blockDim.x + threadIdx.x;  // rows on the fast thread index
    int x = blockIdx.y * blockDim.y + threadIdx.y;
    int n = blockIdx.z / cout;
    int co = blockIdx.z % cout;
    if (x >= w || y >= h) return;

    float acc = 0.0f;
    for (int ci = 0; ci < cin; ++ci) {
        const float* plane = in + ((size_t)n * cin + ci) * h * w;
        const float* k = weight + ((size_t)co * cin + ci) * 9;
        for (int ky = 0; ky < 3; ++ky) {
            int iy = y + ky - 1;
            if (iy < 0 || iy >= h) continue;
            for (int kx = 0; kx < 3; ++kx) {
                int ix = x + kx - 1;
                if (ix < 0 || ix >= w) continue;
                acc += plane[(size_t)iy * w + ix] * k[ky * 3 + kx];
            }
        }
    }
    out[(((size_t)n * cout + co) * h + y) * w + x] = acc;
}

extern "C" int conv2d_3x3(const float* in, const float* weight, float* out, int n, int cin, int cout,
                          int h, int w) {
    if (n <= 0 || h <= 0 || w <= 0 || cout <= 0) return 0;
    dim3 block(32, 8);
    dim3 grid((h + block.x - 1) / block.x, (w + block.y - 1) / block.y, n * cout);
    conv_3x3_colmajor<<<grid, block>>>(in, weight, out, cin, cout, h, w);
    CHECK(cudaGetLastError());
    return 0;
}
