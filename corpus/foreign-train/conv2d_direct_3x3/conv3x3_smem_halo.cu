// Direct 3x3 convolution with a shared-memory input tile: for every input channel the block
// stages its (TILE+2)^2 neighbourhood (tile plus a one-pixel halo), syncs, then convolves.
#include <cstdio>
#include <cuda_runtime.h>

#define CK(x)                                                                                  \
    do {                                                                                       \
        cudaError_t err = (x);                                                                 \
        if (err != cudaSuccess) {                                                              \
            fprintf(stderr, "%s failed: %s (%s:%d)\n", #x, cudaGetErrorString(err), __FILE__, __LINE__); \
            return (int)err;                                                                   \
        }                                                                                      \
    } while (0)

#define TILE 16
#define HALO_TILE (TILE + 2)

__global__ void conv3x3_tiled_halo(const float* __restrict__ input, const float* __restrict__ filt,
                                   float* __restrict__ output, int C_in, int C_out, int H, int W) {
    __shared__ float tile[HALO_TILE][HALO_TILE + 1];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int ox = blockIdx.x * TILE + tx;
    const int oy = blockIdx.y * TILE + ty;
    const int b = blockIdx.z / C_out;
    const int oc = blockIdx.z % C_out;
    const int x0 = blockIdx.x * TILE - 1;
    const int y0 = blockIdx.y * TILE - 1;
    const int tid = ty * TILE + tx;

    float acc = 0.f;
    for (int ic = 0; ic < C_in; ++ic) {
        const float* plane = input + ((size_t)b * C_in + ic) * H * W;
        __syncthreads();
        for (int i = tid; i < HALO_TILE * HALO_TILE; i += TILE * TILE) {
            const int ly = i / HALO_TILE, lx = i % HALO_TILE;
            const int gy = y0 + ly, gx = x0 + lx;
            tile[ly][lx] = (gy >= 0 && gy < H && gx >= 0 && gx < W) ? plane[(size_t)gy * W + gx] : 0.f;
        }
        __syncthreads();
        const float* k = filt + ((size_t)oc * C_in + ic) * 9;
#pragma unroll
        for (int ky = 0; ky < 3; ++ky)
#pragma unroll
            for (int kx = 0; kx < 3; ++kx) acc += tile[ty + ky][tx + kx] * k[ky * 3 + kx];
    }
    if (ox < W && oy < H) output[(((size_t)b * C_out + oc) * H + oy) * W + ox] = acc;
}

extern "C" int conv2d_3x3(const float* in, const float* weight, float* out, int n, int cin, int cout,
                          int h, int w) {
    if (n <= 0 || h <= 0 || w <= 0 || cout <= 0) return 0;
    dim3 block(TILE, TILE);
    dim3 grid((w + TILE - 1) / TILE, (h + TILE - 1) / TILE, n * cout);
    conv3x3_tiled_halo<<<grid, block>>>(in, weight, out, cin, cout, h, w);
    CK(cudaGetLastError());
    return 0;
}
