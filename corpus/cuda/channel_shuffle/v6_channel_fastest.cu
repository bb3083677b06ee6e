// ShuffleNet channel shuffle, NCHW: one thread per output element but the flat index runs over channels first, so consecutive threads read and write planes H*W*4 bytes apart (uncoalesced).
#include <cuda_runtime.h>

#define THREADS 256

// kforecast: N = 32; C = 256; H = 56; W = 56; groups = 8; x: f32[N, C, H, W] randn; out: f32[N, C, H, W]; rtol = 0; atol = 0
__global__ void channel_shuffle(const float* __restrict__ x, float* __restrict__ out, int N, int C, int H, int W, int groups)
{
    const int idx = blockIdx.x * blockDim.x + threadIdx.x;
    const int hw = H * W;
    const int total = N * C * hw;
    if (idx >= total) return;
    const int co = idx % C;
    const int t = idx / C;
    const int s = t % hw;
    const int n = t / hw;
    const int cpg = C / groups;
    const int ci = (co % groups) * cpg + co / groups;
    out[((size_t)n * C + co) * hw + s] = x[((size_t)n * C + ci) * hw + s];
}

extern "C" void launch_channel_shuffle(const float* x, float* out, int N, int C, int H, int W, int groups, cudaStream_t stream)
{
    const int total = N * C * H * W;
    channel_shuffle<<<(total + THREADS - 1) / THREADS, THREADS, 0, stream>>>(x, out, N, C, H, W, groups);
}
