// ShuffleNet channel shuffle, NCHW: the float4 block-per-plane copy with 128-thread blocks, the source channel written as c' / g + (c' % g) * (C/g) and variables renamed.
#include <cuda_runtime.h>

#define THREADS 128

// kforecast: N = 32; C = 256; H = 56; W = 56; groups = 8; x: f32[N, C, H, W] randn; out: f32[N, C, H, W]; rtol = 0; atol = 0
__global__ void __launch_bounds__(THREADS)
channel_shuffle(const float* __restrict__ x, float* __restrict__ out, int N, int C, int H, int W, int groups)
{
    const int plane_len = H * W;
    const int out_ch = blockIdx.x;
    const int in_ch = out_ch / groups + (out_ch % groups) * (C / groups);
    const size_t in_off = ((size_t)blockIdx.y * C + in_ch) * plane_len;
    const size_t out_off = ((size_t)blockIdx.y * C + out_ch) * plane_len;
    if (plane_len % 4 == 0) {
        const float4* from = reinterpret_cast<const float4*>(x + in_off);
        float4* to = reinterpret_cast<float4*>(out + out_off);
        for (int k = threadIdx.x; k < plane_len / 4; k += THREADS) to[k] = from[k];
    } else {
        for (int k = threadIdx.x; k < plane_len; k += THREADS) out[out_off + k] = x[in_off + k];
    }
}

extern "C" void launch_channel_shuffle(const float* x, float* out, int N, int C, int H, int W, int groups, cudaStream_t stream)
{
    dim3 grid(C, N);
    channel_shuffle<<<grid, THREADS, 0, stream>>>(x, out, N, C, H, W, groups);
}
