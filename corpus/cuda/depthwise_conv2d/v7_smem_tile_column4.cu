// Depthwise 3x3 convolution, NCHW, zero padding 1. A 32x8 block stages a
// (32+2) x (32+2) halo tile in shared memory and each thread computes a column of
// 4 outputs, sliding a 3x3 register window down the tile (taps in registers).
#include <cuda_runtime.h>

#define TX 32
#define TY 8
#define RPT 4
#define OH (TY * RPT)
#define NT (TX * TY)

// kforecast: N = 4; C = 64; H = 256; W = 256; in: f32[N, C, H, W] randn; w: f32[C, 3, 3] randn; out: f32[N, C, H, W]; rtol = 1e-4; atol = 1e-4
__global__ void __launch_bounds__(NT)
depthwise_conv2d(const float* __restrict__ in, const float* __restrict__ w, float* __restrict__ out, int N, int C, int H, int W)
{
    __shared__ float tile[OH + 2][TX + 2];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int tid = ty * TX + tx;
    const int p = blockIdx.z;
    const int x0 = blockIdx.x * TX, y0 = blockIdx.y * OH;
    const float* src = in + (size_t)p * H * W;
    const float* f = w + (p % C) * 9;
    float k[9];
#pragma unroll
    for (int i = 0; i < 9; ++i) k[i] = __ldg(&f[i]);
    for (int e = tid; e < (OH + 2) * (TX + 2); e += NT) {
        const int ly = e / (TX + 2), lx = e % (TX + 2);
        const int gy = y0 + ly - 1, gx = x0 + lx - 1;
        tile[ly][lx] = (gy >= 0 && gy < H && gx >= 0 && gx < W) ? src[gy * W + gx] : 0.0f;
    }
    __syncthreads();
    const int x = x0 + tx;
    if (x >= W) return;
    const int r0 = ty * RPT;
    float a0 = tile[r0][tx], a1 = tile[r0][tx + 1], a2 = tile[r0][tx + 2];
    float b0 = tile[r0 + 1][tx], b1 = tile[r0 + 1][tx + 1], b2 = tile[r0 + 1][tx + 2];
    float* dst = out + (size_t)p * H * W;
#pragma unroll
    for (int o = 0; o < RPT; ++o) {
        const float c0 = tile[r0 + o + 2][tx], c1 = tile[r0 + o + 2][tx + 1], c2 = tile[r0 + o + 2][tx + 2];
        float acc = a0 * k[0] + a1 * k[1] + a2 * k[2];
        acc += b0 * k[3] + b1 * k[4] + b2 * k[5];
        acc += c0 * k[6] + c1 * k[7] + c2 * k[8];
        const int y = y0 + r0 + o;
        if (y < H) dst[y * W + x] = acc;
        a0 = b0; a1 = b1; a2 = b2;
        b0 = c0; b1 = c1; b2 = c2;
    }
}

extern "C" void launch_depthwise_conv2d(const float* in, const float* w, float* out, int N, int C, int H, int W, cudaStream_t stream)
{
    dim3 block(TX, TY);
    dim3 grid((W + TX - 1) / TX, (H + OH - 1) / OH, N * C);
    depthwise_conv2d<<<grid, block, 0, stream>>>(in, w, out, N, C, H, W);
}
