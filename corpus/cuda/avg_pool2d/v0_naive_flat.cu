// 3x3 average pooling, stride 2, padding 1 (padding counted, divisor 9), NCHW
// float32. Naive: one thread per output on a flat 1-D grid, coordinates by
// division and modulo, nine bounds-checked global loads per output.
#include <cuda_runtime.h>

#define THREADS 256
#define K 3
#define S 2
#define P 1

// kforecast: planes = 256; H = 512; W = 512; OH = 256; OW = 256; in: f32[planes, H, W] randn; out: f32[planes, OH, OW]; rtol = 1e-5; atol = 1e-6
__global__ void avg_pool2d(const float* __restrict__ in, float* __restrict__ out, int planes, int H, int W, int OH, int OW)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= planes * OH * OW) return;
    const int ow = i % OW;
    const int oh = (i / OW) % OH;
    const int pl = i / (OW * OH);
    const float* src = in + (size_t)pl * H * W;
    float sum = 0.0f;
    for (int kh = 0; kh < K; ++kh) {
        const int h = oh * S - P + kh;
        if (h < 0 || h >= H) continue;
        for (int kw = 0; kw < K; ++kw) {
            const int w = ow * S - P + kw;
            if (w < 0 || w >= W) continue;
            sum += src[h * W + w];
        }
    }
    out[i] = sum / (K * K);
}

extern "C" void launch_avg_pool2d(const float* in, float* out, int planes, int H, int W, int OH, int OW, cudaStream_t stream)
{
    const int total = planes * OH * OW;
    avg_pool2d<<<(total + THREADS - 1) / THREADS, THREADS, 0, stream>>>(in, out, planes, H, W, OH, OW);
}
