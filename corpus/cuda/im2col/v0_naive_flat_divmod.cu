// im2col for a 3x3 convolution (pad 1, stride 1), NCHW float32 -> cols[N][C*9][H*W]. Naive: one thread per output element on a flat grid, all coordinates by division and modulo.
#include <cuda_runtime.h>

#define THREADS 256
#define KS 3
#define PAD 1

// kforecast: N = 8; C = 64; H = 128; W = 128; in: f32[N, C, H, W] randn; cols: f32[N, C * 9, H * W]; rtol = 0; atol = 0
__global__ void im2col(const float* __restrict__ in, float* __restrict__ cols, int N, int C, int H, int W)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    const int total = N * C * KS * KS * H * W;
    if (i >= total) return;
    const int w = i % W;
    const int h = (i / W) % H;
    const int k = (i / (W * H)) % (C * KS * KS);
    const int n = i / (W * H * C * KS * KS);
    const int kw = k % KS;
    const int kh = (k / KS) % KS;
    const int c = k / (KS * KS);
    const int ih = h + kh - PAD;
    const int iw = w + kw - PAD;
    float v = 0.0f;
    if (ih >= 0 && ih < H && iw >= 0 && iw < W) v = in[((n * C + c) * H + ih) * W + iw];
    cols[i] = v;
}

extern "C" void launch_im2col(const float* in, float* cols, int N, int C, int H, int W, cudaStream_t stream)
{
    const int total = N * C * KS * KS * H * W;
    im2col<<<(total + THREADS - 1) / THREADS, THREADS, 0, stream>>>(in, cols, N, C, H, W);
}
