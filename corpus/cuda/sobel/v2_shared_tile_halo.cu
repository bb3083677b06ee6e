// Sobel edge magnitude (zero padding): a 32 x 8 block stages its (8+2) x (32+2) input tile with a
// one-pixel halo in shared memory (zeros outside the image), then each thread reads its 3x3 window there.
#include <cuda_runtime.h>
#include <math.h>

#define BX 32
#define BY 8
#define TW (BX + 2)
#define TH (BY + 2)

// kforecast: H = 8192; W = 8192; in: f32[H, W] randn; out: f32[H, W]; rtol = 1e-4; atol = 1e-4
__global__ void __launch_bounds__(BX * BY)
sobel(const float* __restrict__ in, float* __restrict__ out, int H, int W)
{
    __shared__ float tile[TH][TW];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int tid = ty * BX + tx;
    const int x0 = blockIdx.x * BX - 1;
    const int y0 = blockIdx.y * BY - 1;
    for (int e = tid; e < TH * TW; e += BX * BY) {
        const int r = e / TW;
        const int c = e - r * TW;
        const int yy = y0 + r, xx = x0 + c;
        tile[r][c] = (yy >= 0 && yy < H && xx >= 0 && xx < W) ? in[yy * W + xx] : 0.0f;
    }
    __syncthreads();
    const int x = blockIdx.x * BX + tx;
    const int y = blockIdx.y * BY + ty;
    if (x >= W || y >= H) return;
    const float gx = (tile[ty][tx + 2] + 2.0f * tile[ty + 1][tx + 2] + tile[ty + 2][tx + 2])
                   - (tile[ty][tx] + 2.0f * tile[ty + 1][tx] + tile[ty + 2][tx]);
    const float gy = (tile[ty + 2][tx] + 2.0f * tile[ty + 2][tx + 1] + tile[ty + 2][tx + 2])
                   - (tile[ty][tx] + 2.0f * tile[ty][tx + 1] + tile[ty][tx + 2]);
    out[y * W + x] = sqrtf(gx * gx + gy * gy);
}

extern "C" void launch_sobel(const float* in, float* out, int H, int W, cudaStream_t stream)
{
    dim3 block(BX, BY);
    dim3 grid((W + BX - 1) / BX, (H + BY - 1) / BY);
    sobel<<<grid, block, 0, stream>>>(in, out, H, W);
}
