// 3x3 median filter, edges clamped: each thread computes 4 adjacent pixels of a row; the 6
// input columns are sorted once (3 exchanges each) and shared, median = med3(max of column
// minima, median of column medians, min of column maxima); float4 store when aligned.
#include <cuda_runtime.h>

#define BX 32
#define BY 8
#define PX 4

// Compare-exchange: a gets the smaller, b the larger value.
__device__ __forceinline__ void sort2(float& a, float& b)
{
    const float lo = fminf(a, b);
    b = fmaxf(a, b);
    a = lo;
}

// Median of three values.
__device__ __forceinline__ float med3(float a, float b, float c)
{
    return fmaxf(fminf(a, b), fminf(fmaxf(a, b), c));
}

// kforecast: H = 4096; W = 4096; in: f32[H, W] randn; out: f32[H, W]; rtol = 0; atol = 0
__global__ void __launch_bounds__(BX * BY) median_filter3x3(const float* __restrict__ in, float* __restrict__ out, int H, int W)
{
    const int x0 = (blockIdx.x * BX + threadIdx.x) * PX;
    const int y = blockIdx.y * BY + threadIdx.y;
    if (x0 >= W || y >= H) return;
    const float* r0 = in + max(y - 1, 0) * W;
    const float* r1 = in + y * W;
    const float* r2 = in + min(y + 1, H - 1) * W;
    float lo[PX + 2], md[PX + 2], hi[PX + 2];
#pragma unroll
    for (int c = 0; c < PX + 2; ++c) {
        const int xx = min(max(x0 - 1 + c, 0), W - 1);
        float a = r0[xx], b = r1[xx], d = r2[xx];
        sort2(a, b); sort2(b, d); sort2(a, b);
        lo[c] = a;
        md[c] = b;
        hi[c] = d;
    }
    float res[PX];
#pragma unroll
    for (int p = 0; p < PX; ++p) {
        const float max_lo = fmaxf(fmaxf(lo[p], lo[p + 1]), lo[p + 2]);
        const float med_md = med3(md[p], md[p + 1], md[p + 2]);
        const float min_hi = fminf(fminf(hi[p], hi[p + 1]), hi[p + 2]);
        res[p] = med3(max_lo, med_md, min_hi);
    }
    float* o = out + y * W + x0;
    if ((W & 3) == 0 && x0 + PX <= W) {
        *reinterpret_cast<float4*>(o) = make_float4(res[0], res[1], res[2], res[3]);
    } else {
#pragma unroll
        for (int p = 0; p < PX; ++p)
            if (x0 + p < W) o[p] = res[p];
    }
}

extern "C" void launch_median_filter3x3(const float* in, float* out, int H, int W, cudaStream_t stream)
{
    dim3 block(BX, BY);
    dim3 grid((W + BX * PX - 1) / (BX * PX), (H + BY - 1) / BY);
    median_filter3x3<<<grid, block, 0, stream>>>(in, out, H, W);
}
