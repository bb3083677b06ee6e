// 2x bicubic upsampling (Keys, a = -0.5), weights computed once, but threadIdx.x runs down the
// output column (oy): a warp reads 32 input rows and writes 32 output rows 4 KB apart (uncoalesced).
#include <cuda_runtime.h>
#include <math.h>

#define BX 32
#define BY 8

// Keys weights (a = -0.5) of the taps at distances 1 + t, t, 1 - t, 2 - t.
__device__ __forceinline__ void keys_weights(float t, float wt[4])
{
    const float a = -0.5f;
    const float d0 = 1.0f + t, d1 = t, d2 = 1.0f - t, d3 = 2.0f - t;
    wt[0] = ((a * d0 - 5.0f * a) * d0 + 8.0f * a) * d0 - 4.0f * a;
    wt[1] = ((a + 2.0f) * d1 - (a + 3.0f)) * d1 * d1 + 1.0f;
    wt[2] = ((a + 2.0f) * d2 - (a + 3.0f)) * d2 * d2 + 1.0f;
    wt[3] = ((a * d3 - 5.0f * a) * d3 + 8.0f * a) * d3 - 4.0f * a;
}

// kforecast: n = 4; c = 16; h = 512; w = 512; in: f32[n, c, h, w] randn; out: f32[n, c, 2 * h, 2 * w]; rtol = 1e-4; atol = 1e-4
__global__ void bicubic_upsample(const float* __restrict__ in, float* __restrict__ out, int n, int c, int h, int w)
{
    const int oy = blockIdx.x * BX + threadIdx.x;
    const int ox = blockIdx.y * BY + threadIdx.y;
    const int ow = 2 * w;
    if (ox >= ow || oy >= 2 * h) return;
    const size_t plane = blockIdx.z;
    const float* p = in + plane * h * w;

    // ox = 2j: taps j-2 .. j+1 with t = 0.75; ox = 2j+1: taps j-1 .. j+2 with t = 0.25.
    const int x0 = (ox >> 1) - 1 + (ox & 1);
    const int y0 = (oy >> 1) - 1 + (oy & 1);
    float wx[4], wy[4];
    keys_weights((ox & 1) ? 0.25f : 0.75f, wx);
    keys_weights((oy & 1) ? 0.25f : 0.75f, wy);
    int xs[4];
#pragma unroll
    for (int k = 0; k < 4; ++k) xs[k] = min(max(x0 - 1 + k, 0), w - 1);

    float sum = 0.0f;
#pragma unroll
    for (int m = 0; m < 4; ++m) {
        const float* r = p + min(max(y0 - 1 + m, 0), h - 1) * w;
        const float row = wx[0] * r[xs[0]] + wx[1] * r[xs[1]] + wx[2] * r[xs[2]] + wx[3] * r[xs[3]];
        sum += wy[m] * row;
    }
    out[plane * 4 * h * w + (size_t)oy * ow + ox] = sum;
}

extern "C" void launch_bicubic_upsample(const float* in, float* out, int n, int c, int h, int w, cudaStream_t stream)
{
    dim3 block(BX, BY);
    dim3 grid((2 * h + BX - 1) / BX, (2 * w + BY - 1) / BY, n * c);
    bicubic_upsample<<<grid, block, 0, stream>>>(in, out, n, c, h, w);
}
