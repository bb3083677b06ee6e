// Depthwise 3x3 convolution, NCHW, zero padding 1. A 32x8 block stages its
// (8+2) x (32+2) input tile with halo (zeros outside the image) and the channel's
// 9 taps in shared memory, then each thread computes one output from shared memory.
#include <cuda_runtime.h>

#define TX 32
#define TY 8
#define NT (TX * TY)

// kforecast: N = 4; C = 64; H = 256; W = 256; in: f32[N, C, H, W] randn; w: f32[C, 3, 3] randn; out: f32[N, C, H, W]; rtol = 1e-4; atol = 1e-4
__global__ void __launch_bounds__(NT)
depthwise_conv2d(const float* __restrict__ in, const float* __restrict__ w, float* __restrict__ out, int N, int C, int H, int W)
{
    __shared__ float tile[TY + 2][TX + 2];
    __shared__ float fs[9];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int tid = ty * TX + tx;
    const int p = blockIdx.z;
    const int x0 = blockIdx.x * TX, y0 = blockIdx.y * TY;
    const float* src = in + (size_t)p * H * W;
    if (tid < 9) fs[tid] = w[(p % C) * 9 + tid];
    for (int e = tid; e < (TY + 2) * (TX + 2); e += NT) {
        const int ly = e / (TX + 2), lx = e % (TX + 2);
        const int gy = y0 + ly - 1, gx = x0 + lx - 1;
        tile[ly][lx] = (gy >= 0 && gy < H && gx >= 0 && gx < W) ? src[gy * W + gx] : 0.0f;
    }
    __syncthreads();
    const int x = x0 + tx, y = y0 + ty;
    if (x >= W || y >= H) return;
    float acc = 0.0f;
#pragma unroll
    for (int ky = 0; ky < 3; ++ky)
#pragma unroll
        for (int kx = 0; kx < 3; ++kx) acc += tile[ty + ky][tx + kx] * fs[ky * 3 + kx];
    out[(size_t)p * H * W + y * W + x] = acc;
}

extern "C" void launch_depthwise_conv2d(const float* in, const float* w, float* out, int N, int C, int H, int W, cudaStream_t stream)
{
    dim3 block(TX, TY);
    dim3 grid((W + TX - 1) / TX, (H + TY - 1) / TY, N * C);
    depthwise_conv2d<<<grid, block, 0, stream>>>(in, w, out, N, C, H, W);
}
