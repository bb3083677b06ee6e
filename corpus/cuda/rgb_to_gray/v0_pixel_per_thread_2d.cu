// Interleaved RGB (uchar) to 8-bit luma. Naive: 16x16 blocks on a 2-D grid, one pixel
// per thread, three byte loads and one byte store.
#include <cuda_runtime.h>

#define BX 16
#define BY 16

// BT.601 luma in 8.8 fixed point: (77 R + 150 G + 29 B + 128) >> 8, exact in integers.
__device__ __forceinline__ unsigned luma(unsigned r, unsigned g, unsigned b)
{
    return (77u * r + 150u * g + 29u * b + 128u) >> 8;
}

// kforecast: width = 8192; height = 8192; rgb: u8[height, width, 3] randint(0,256); gray: u8[height, width]; rtol = 0; atol = 0
__global__ void rgb_to_gray(const unsigned char* __restrict__ rgb, unsigned char* __restrict__ gray, int width, int height)
{
    const int x = blockIdx.x * BX + threadIdx.x;
    const int y = blockIdx.y * BY + threadIdx.y;
    if (x >= width || y >= height) return;
    const size_t p = (size_t)y * width + x;
    const unsigned char r = rgb[3 * p + 0];
    const unsigned char g = rgb[3 * p + 1];
    const unsigned char b = rgb[3 * p + 2];
    gray[p] = (unsigned char)luma(r, g, b);
}

extern "C" void launch_rgb_to_gray(const unsigned char* rgb, unsigned char* gray, int width, int height,
                                   cudaStream_t stream)
{
    dim3 block(BX, BY);
    dim3 grid((width + BX - 1) / BX, (height + BY - 1) / BY);
    rgb_to_gray<<<grid, block, 0, stream>>>(rgb, gray, width, height);
}
