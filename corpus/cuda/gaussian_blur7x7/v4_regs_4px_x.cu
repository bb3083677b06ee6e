// 7x7 Gaussian blur (sigma 1.5, clamped edges), 4 outputs per thread along x without shared
// memory: for each of the 7 rows a thread loads the 10 clamped inputs its 4 pixels share into
// registers (70 loads per 4 pixels instead of 196) and stores the 4 results as one float4.
#include <cuda_runtime.h>

#define BX  32
#define BY  8
#define PX  4
#define R   3
#define K   (2 * R + 1)
#define WIN (PX + 2 * R)

__constant__ float c_w[49] = {
    0.00134196552f, 0.00407653116f, 0.00793999806f, 0.00991585758f, 0.00793999806f, 0.00407653116f, 0.00134196552f,
    0.00407653116f, 0.0123834079f, 0.0241195839f, 0.0301217157f, 0.0241195839f, 0.0123834079f, 0.00407653116f,
    0.00793999806f, 0.0241195839f, 0.0469785333f, 0.0586690903f, 0.0469785333f, 0.0241195839f, 0.00793999806f,
    0.00991585758f, 0.0301217157f, 0.0586690903f, 0.0732688308f, 0.0586690903f, 0.0301217157f, 0.00991585758f,
    0.00793999806f, 0.0241195839f, 0.0469785333f, 0.0586690903f, 0.0469785333f, 0.0241195839f, 0.00793999806f,
    0.00407653116f, 0.0123834079f, 0.0241195839f, 0.0301217157f, 0.0241195839f, 0.0123834079f, 0.00407653116f,
    0.00134196552f, 0.00407653116f, 0.00793999806f, 0.00991585758f, 0.00793999806f, 0.00407653116f, 0.00134196552f};
// kforecast: C = 3; H = 4096; W = 4096; in: f32[C, H, W] randn; out: f32[C, H, W]; rtol = 1e-4; atol = 1e-5
__global__ void __launch_bounds__(BX * BY)
gaussian_blur7x7(const float* __restrict__ in, float* __restrict__ out, int C, int H, int W)
{
    const int x = (blockIdx.x * BX + threadIdx.x) * PX;
    const int y = blockIdx.y * BY + threadIdx.y;
    if (x >= W || y >= H) return;
    const float* src = in + (size_t)blockIdx.z * H * W;
    float acc[PX];
#pragma unroll
    for (int p = 0; p < PX; ++p) acc[p] = 0.0f;
#pragma unroll
    for (int dy = 0; dy < K; ++dy) {
        const float* row = src + min(max(y + dy - R, 0), H - 1) * W;
        float v[WIN];
#pragma unroll
        for (int i = 0; i < WIN; ++i) v[i] = row[min(max(x + i - R, 0), W - 1)];
#pragma unroll
        for (int dx = 0; dx < K; ++dx) {
            const float w = c_w[dy * K + dx];
#pragma unroll
            for (int p = 0; p < PX; ++p) acc[p] += w * v[p + dx];
        }
    }
    float* dst = out + (size_t)blockIdx.z * H * W + (size_t)y * W + x;
    if ((W & 3) == 0) {
        *reinterpret_cast<float4*>(dst) = make_float4(acc[0], acc[1], acc[2], acc[3]);
    } else {
#pragma unroll
        for (int p = 0; p < PX; ++p)
            if (x + p < W) dst[p] = acc[p];
    }
}

extern "C" void launch_gaussian_blur7x7(const float* in, float* out, int C, int H, int W, cudaStream_t stream)
{
    dim3 block(BX, BY);
    dim3 grid((W + BX * PX - 1) / (BX * PX), (H + BY - 1) / BY, C);
    gaussian_blur7x7<<<grid, block, 0, stream>>>(in, out, C, H, W);
}
