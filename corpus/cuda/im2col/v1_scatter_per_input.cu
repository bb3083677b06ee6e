// im2col 3x3 (pad 1, stride 1), NCHW float32. Scatter-style: one thread per input position (n, c, h, w) loads its value once and writes it to the (up to) 9 column entries that use it; the thread also writes the zero entries of its own output position whose tap falls outside the image.
#include <cuda_runtime.h>

#define THREADS 256
#define KS 3
#define PAD 1

// kforecast: N = 8; C = 64; H = 128; W = 128; in: f32[N, C, H, W] randn; cols: f32[N, C * 9, H * W]; rtol = 0; atol = 0
__global__ void im2col(const float* __restrict__ in, float* __restrict__ cols, int N, int C, int H, int W)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= N * C * H * W) return;
    const int w = i % W;
    const int h = (i / W) % H;
    const int nc = i / (W * H);
    const int n = nc / C;
    const int c = nc - n * C;
    const int HW = H * W;
    const float v = in[i];
    float* base = cols + ((size_t)n * C + c) * KS * KS * HW;
    for (int kh = 0; kh < KS; ++kh) {
        for (int kw = 0; kw < KS; ++kw) {
            float* plane = base + (kh * KS + kw) * HW;
            // this input feeds output position (h - kh + PAD, w - kw + PAD) through tap (kh, kw)
            const int oh = h - kh + PAD;
            const int ow = w - kw + PAD;
            if (oh >= 0 && oh < H && ow >= 0 && ow < W) plane[oh * W + ow] = v;
            // tap (kh, kw) of this thread's own output position reads outside the image: zero
            const int sh = h + kh - PAD;
            const int sw = w + kw - PAD;
            if (sh < 0 || sh >= H || sw < 0 || sw >= W) plane[h * W + w] = 0.0f;
        }
    }
}

extern "C" void launch_im2col(const float* in, float* cols, int N, int C, int H, int W, cudaStream_t stream)
{
    const int total = N * C * H * W;
    im2col<<<(total + THREADS - 1) / THREADS, THREADS, 0, stream>>>(in, cols, N, C, H, W);
}
