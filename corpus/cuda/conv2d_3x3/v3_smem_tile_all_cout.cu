// Direct 3x3 convolution, 16 -> 16 channels, zero padding. Each 32x8 block computes
// all 16 output channels of its tile (16 accumulators per thread), so every input
// tile (with halo, in shared memory) is loaded once instead of 16 times; all
// weights sit in shared memory as [ci][tap][co] and are read as float4 broadcasts.
#include <cuda_runtime.h>

#define CIN 16
#define COUT 16
#define TX 32
#define TY 8
#define NT (TX * TY)

// kforecast: H = 768; W = 768; in: f32[16, H, W] randn; w: f32[16, 16, 3, 3] randn; out: f32[16, H, W]; rtol = 1e-3; atol = 1e-3
__global__ void __launch_bounds__(NT)
conv2d_3x3(const float* __restrict__ in, const float* __restrict__ w, float* __restrict__ out, int H, int W)
{
    __shared__ float tile[TY + 2][TX + 2];
    __shared__ float4 wsh[CIN * 9][COUT / 4];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int tid = ty * TX + tx;
    const int bx0 = blockIdx.x * TX, by0 = blockIdx.y * TY;
    float* wflat = reinterpret_cast<float*>(&wsh[0][0]);
    for (int e = tid; e < COUT * CIN * 9; e += NT) {
        const int co = e / (CIN * 9), r = e % (CIN * 9);
        wflat[r * COUT + co] = w[e];
    }
    float acc[COUT];
#pragma unroll
    for (int co = 0; co < COUT; ++co) acc[co] = 0.0f;
    for (int ci = 0; ci < CIN; ++ci) {
        __syncthreads();
        for (int e = tid; e < (TY + 2) * (TX + 2); e += NT) {
            const int ly = e / (TX + 2), lx = e % (TX + 2);
            const int gy = by0 + ly - 1, gx = bx0 + lx - 1;
            tile[ly][lx] = (gy >= 0 && gy < H && gx >= 0 && gx < W) ? in[((size_t)ci * H + gy) * W + gx] : 0.0f;
        }
        __syncthreads();
#pragma unroll
        for (int ky = 0; ky < 3; ++ky)
#pragma unroll
            for (int kx = 0; kx < 3; ++kx) {
                const float v = tile[ty + ky][tx + kx];
#pragma unroll
                for (int q = 0; q < COUT / 4; ++q) {
                    const float4 wv = wsh[ci * 9 + ky * 3 + kx][q];
                    acc[4 * q + 0] += v * wv.x;
                    acc[4 * q + 1] += v * wv.y;
                    acc[4 * q + 2] += v * wv.z;
                    acc[4 * q + 3] += v * wv.w;
                }
            }
    }
    const int x = bx0 + tx, y = by0 + ty;
    if (x >= W || y >= H) return;
#pragma unroll
    for (int co = 0; co < COUT; ++co) out[((size_t)co * H + y) * W + x] = acc[co];
}

extern "C" void launch_conv2d_3x3(const float* in, const float* w, float* out, int H, int W, cudaStream_t stream)
{
    dim3 block(TX, TY);
    dim3 grid((W + TX - 1) / TX, (H + TY - 1) / TY);
    conv2d_3x3<<<grid, block, 0, stream>>>(in, w, out, H, W);
}
