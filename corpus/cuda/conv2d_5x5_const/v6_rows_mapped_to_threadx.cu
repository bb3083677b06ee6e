// 5x5 convolution, zero padding: as v1 (filter in shared memory, image taps from global memory) but with
// threadIdx.x mapped to image rows in 32x8 blocks, so each warp reads and writes down a column
// (32 different rows per access: uncoalesced).
#include <cuda_runtime.h>

#define BR 32
#define BC 8
#define R  2
#define KS (2 * R + 1)

// kforecast: H = 4096; W = 4096; in: f32[H, W] randn; filt: f32[25] randn; out: f32[H, W]; rtol = 1e-4; atol = 1e-4
__global__ void __launch_bounds__(BR * BC)
conv2d_5x5(const float* __restrict__ in, const float* __restrict__ filt, float* __restrict__ out, int H, int W)
{
    __shared__ float fs[KS * KS];
    const int tid = threadIdx.y * BR + threadIdx.x;
    if (tid < KS * KS) fs[tid] = filt[tid];
    __syncthreads();
    const int y = blockIdx.y * BR + threadIdx.x;
    const int x = blockIdx.x * BC + threadIdx.y;
    if (x >= W || y >= H) return;
    float acc = 0.0f;
    for (int ky = 0; ky < KS; ++ky) {
        const int iy = y + ky - R;
        if (iy < 0 || iy >= H) continue;
        const float* row = in + (size_t)iy * W;
        for (int kx = 0; kx < KS; ++kx) {
            const int ix = x + kx - R;
            if (ix >= 0 && ix < W) acc += fs[ky * KS + kx] * row[ix];
        }
    }
    out[(size_t)y * W + x] = acc;
}

extern "C" void launch_conv2d_5x5(const float* in, const float* filt, float* out, int H, int W, cudaStream_t stream)
{
    dim3 block(BR, BC);
    dim3 grid((W + BC - 1) / BC, (H + BR - 1) / BR);
    conv2d_5x5<<<grid, block, 0, stream>>>(in, filt, out, H, W);
}
