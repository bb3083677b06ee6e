// im2col 3x3 (pad 1, stride 1), NCHW float32. 2-D blocks with threadIdx.x along the C*9 row index of cols and threadIdx.y along the output position: lanes of a warp store 32 different cols rows H*W floats apart (uncoalesced stores).
#include <cuda_runtime.h>

#define BX 32
#define BY 8
#define KS 3
#define PAD 1

// kforecast: N = 8; C = 64; H = 128; W = 128; in: f32[N, C, H, W] randn; cols: f32[N, C * 9, H * W]; rtol = 0; atol = 0
__global__ void im2col(const float* __restrict__ in, float* __restrict__ cols, int N, int C, int H, int W)
{
    const int k = blockIdx.x * BX + threadIdx.x;
    const int p = blockIdx.y * BY + threadIdx.y;
    const int n = blockIdx.z;
    const int K = C * KS * KS;
    if (k >= K || p >= H * W) return;
    const int c = k / (KS * KS);
    const int tap = k - c * KS * KS;
    const int kh = tap / KS;
    const int kw = tap - kh * KS;
    const int h = p / W;
    const int w = p - h * W;
    const int ih = h + kh - PAD;
    const int iw = w + kw - PAD;
    float v = 0.0f;
    if (ih >= 0 && ih < H && iw >= 0 && iw < W) v = in[(((size_t)n * C + c) * H + ih) * W + iw];
    cols[((size_t)n * K + k) * H * W + p] = v;
}

extern "C" void launch_im2col(const float* in, float* cols, int N, int C, int H, int W, cudaStream_t stream)
{
    dim3 block(BX, BY);
    dim3 grid((C * KS * KS + BX - 1) / BX, (H * W + BY - 1) / BY, N);
    im2col<<<grid, block, 0, stream>>>(in, cols, N, C, H, W);
}
