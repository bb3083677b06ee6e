// NV12 (Y plane + interleaved UV at half resolution) to interleaved RGB, BT.601 full range:
// one thread per pixel on a 2-D grid of 16x16 blocks, float arithmetic, byte loads and stores.
#include <cuda_runtime.h>

#define BX 16
#define BY 16

__device__ __forceinline__ unsigned char to_u8(float v)
{
    return (unsigned char)__float2int_rn(fminf(fmaxf(v, 0.0f), 255.0f));
}

// kforecast: width = 4096; height = 4096; luma: u8[height, width] randint(0,256); uv: u8[height / 2, width / 2, 2] randint(0,256); rgb: u8[height, width, 3]; rtol = 0; atol = 1
__global__ void yuv_to_rgb(const unsigned char* __restrict__ luma, const unsigned char* __restrict__ uv,
                           unsigned char* __restrict__ rgb, int width, int height)
{
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= width || y >= height) return;
    const size_t p = (size_t)y * width + x;
    const size_t c = ((size_t)(y >> 1) * (width >> 1) + (x >> 1)) * 2;
    const float yf = (float)luma[p];
    const float uf = (float)uv[c] - 128.0f;
    const float vf = (float)uv[c + 1] - 128.0f;
    rgb[3 * p + 0] = to_u8(yf + 1.402f * vf);
    rgb[3 * p + 1] = to_u8(yf - 0.344136f * uf - 0.714136f * vf);
    rgb[3 * p + 2] = to_u8(yf + 1.772f * uf);
}

extern "C" void launch_yuv_to_rgb(const unsigned char* luma, const unsigned char* uv, unsigned char* rgb, int width,
                                  int height, cudaStream_t stream)
{
    dim3 block(BX, BY);
    dim3 grid((width + BX - 1) / BX, (height + BY - 1) / BY);
    yuv_to_rgb<<<grid, block, 0, stream>>>(luma, uv, rgb, width, height);
}
