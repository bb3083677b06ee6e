// 7x7 Gaussian blur (sigma 1.5, clamped edges), the 32x8 shared-tile kernel with renamed
// variables, the halo loaded by a 2-D strided loop and the tap loops swapped (dx outer): a near-tie.
#include <cuda_runtime.h>

#define TILE_X 32
#define TILE_Y 8
#define RAD    3
#define TAPS   (2 * RAD + 1)
#define SMEM_W (TILE_X + 2 * RAD)
#define SMEM_H (TILE_Y + 2 * RAD)

__constant__ float c_w[49] = {
    0.00134196552f, 0.00407653116f, 0.00793999806f, 0.00991585758f, 0.00793999806f, 0.00407653116f, 0.00134196552f,
    0.00407653116f, 0.0123834079f, 0.0241195839f, 0.0301217157f, 0.0241195839f, 0.0123834079f, 0.00407653116f,
    0.00793999806f, 0.0241195839f, 0.0469785333f, 0.0586690903f, 0.0469785333f, 0.0241195839f, 0.00793999806f,
    0.00991585758f, 0.0301217157f, 0.0586690903f, 0.0732688308f, 0.0586690903f, 0.0301217157f, 0.00991585758f,
    0.00793999806f, 0.0241195839f, 0.0469785333f, 0.0586690903f, 0.0469785333f, 0.0241195839f, 0.00793999806f,
    0.00407653116f, 0.0123834079f, 0.0241195839f, 0.0301217157f, 0.0241195839f, 0.0123834079f, 0.00407653116f,
    0.00134196552f, 0.00407653116f, 0.00793999806f, 0.00991585758f, 0.00793999806f, 0.00407653116f, 0.00134196552f};
// kforecast: C = 3; H = 4096; W = 4096; in: f32[C, H, W] randn; out: f32[C, H, W]; rtol = 1e-4; atol = 1e-5
__global__ void __launch_bounds__(TILE_X * TILE_Y)
gaussian_blur7x7(const float* __restrict__ in, float* __restrict__ out, int C, int H, int W)
{
    __shared__ float smem[SMEM_H][SMEM_W];
    const int lx = threadIdx.x, ly = threadIdx.y;
    const size_t plane = (size_t)blockIdx.z * H * W;
    const int gx0 = blockIdx.x * TILE_X - RAD;
    const int gy0 = blockIdx.y * TILE_Y - RAD;
    for (int i = ly; i < SMEM_H; i += TILE_Y) {
        const int gy = min(max(gy0 + i, 0), H - 1);
        for (int j = lx; j < SMEM_W; j += TILE_X) {
            const int gx = min(max(gx0 + j, 0), W - 1);
            smem[i][j] = in[plane + gy * W + gx];
        }
    }
    __syncthreads();
    const int gx = gx0 + RAD + lx;
    const int gy = gy0 + RAD + ly;
    if (gx < W && gy < H) {
        float acc = 0.0f;
#pragma unroll
        for (int j = 0; j < TAPS; ++j)
#pragma unroll
            for (int i = 0; i < TAPS; ++i) acc += c_w[i * TAPS + j] * smem[ly + i][lx + j];
        out[plane + gy * W + gx] = acc;
    }
}

extern "C" void launch_gaussian_blur7x7(const float* in, float* out, int C, int H, int W, cudaStream_t stream)
{
    dim3 block(TILE_X, TILE_Y);
    dim3 grid((W + TILE_X - 1) / TILE_X, (H + TILE_Y - 1) / TILE_Y, C);
    gaussian_blur7x7<<<grid, block, 0, stream>>>(in, out, C, H, W);
}
