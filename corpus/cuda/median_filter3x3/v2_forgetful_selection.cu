// 3x3 median filter, edges clamped, 32 x 8 blocks: forgetful selection (take six values, drop
// their min and max, add the next value, repeat), 16 min/max exchanges plus a median of three.
#include <cuda_runtime.h>

#define BX 32
#define BY 8

// Pixel (y, x) of the image with coordinates clamped to the edges.
__device__ __forceinline__ float at(const float* in, int y, int x, int H, int W)
{
    y = min(max(y, 0), H - 1);
    x = min(max(x, 0), W - 1);
    return in[y * W + x];
}

// Compare-exchange: a gets the smaller, b the larger value.
__device__ __forceinline__ void sort2(float& a, float& b)
{
    const float lo = fminf(a, b);
    b = fmaxf(a, b);
    a = lo;
}

// kforecast: H = 4096; W = 4096; in: f32[H, W] randn; out: f32[H, W]; rtol = 0; atol = 0
__global__ void median_filter3x3(const float* __restrict__ in, float* __restrict__ out, int H, int W)
{
    const int x = blockIdx.x * BX + threadIdx.x;
    const int y = blockIdx.y * BY + threadIdx.y;
    if (x >= W || y >= H) return;
    float v0 = at(in, y - 1, x - 1, H, W), v1 = at(in, y - 1, x, H, W), v2 = at(in, y - 1, x + 1, H, W);
    float v3 = at(in, y, x - 1, H, W), v4 = at(in, y, x, H, W), v5 = at(in, y, x + 1, H, W);
    // Six values: the min (to v0) and the max (to v5) cannot be the median.
    sort2(v0, v1); sort2(v2, v3); sort2(v4, v5);
    sort2(v0, v2); sort2(v0, v4);
    sort2(v1, v5); sort2(v3, v5);
    // Keep v1..v4, add the seventh: drop the min (to v1) and the max (to v6).
    float v6 = at(in, y + 1, x - 1, H, W);
    sort2(v1, v2); sort2(v3, v4);
    sort2(v1, v3); sort2(v1, v6);
    sort2(v2, v4); sort2(v4, v6);
    // Keep v2..v4, add the eighth: drop the min (to v2) and the max (to v7).
    float v7 = at(in, y + 1, x, H, W);
    sort2(v2, v3); sort2(v4, v7);
    sort2(v2, v4); sort2(v3, v7);
    // Median of the remaining two and the ninth.
    const float v8 = at(in, y + 1, x + 1, H, W);
    out[y * W + x] = fmaxf(fminf(v3, v4), fminf(fmaxf(v3, v4), v8));
}

extern "C" void launch_median_filter3x3(const float* in, float* out, int H, int W, cudaStream_t stream)
{
    dim3 block(BX, BY);
    dim3 grid((W + BX - 1) / BX, (H + BY - 1) / BY);
    median_filter3x3<<<grid, block, 0, stream>>>(in, out, H, W);
}
