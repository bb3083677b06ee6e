// ShuffleNet channel shuffle, NCHW: naive, one thread per output element, (n, c', h*w) by div/mod and the source channel c = (c' % g) * (C/g) + c' / g.
#include <cuda_runtime.h>

#define THREADS 256

// kforecast: N = 32; C = 256; H = 56; W = 56; groups = 8; x: f32[N, C, H, W] randn; out: f32[N, C, H, W]; rtol = 0; atol = 0
__global__ void channel_shuffle(const float* __restrict__ x, float* __restrict__ out, int N, int C, int H, int W, int groups)
{
    const int idx = blockIdx.x * blockDim.x + threadIdx.x;
    const int hw = H * W;
    const int total = N * C * hw;
    if (idx >= total) return;
    const int s = idx % hw;
    const int t = idx / hw;
    const int co = t % C;
    const int n = t / C;
    const int cpg = C / groups;
    const int ci = (co % groups) * cpg + co / groups;
    out[idx] = x[((size_t)n * C + ci) * hw + s];
}

extern "C" void launch_channel_shuffle(const float* x, float* out, int N, int C, int H, int W, int groups, cudaStream_t stream)
{
    const int total = N * C * H * W;
    channel_shuffle<<<(total + THREADS - 1) / THREADS, THREADS, 0, stream>>>(x, out, N, C, H, W, groups);
}
