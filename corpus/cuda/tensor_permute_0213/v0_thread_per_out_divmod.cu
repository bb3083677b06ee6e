// Attention head reshape out[b][h][s][d] = x[b][s][h][d] (permute 0,2,1,3): naive, one thread per output element, the output index decomposed with div/mod.
#include <cuda_runtime.h>

#define THREADS 256

// kforecast: B = 8; S = 2048; H = 16; D = 64; x: f32[B, S, H, D] randn; out: f32[B, H, S, D]; rtol = 0; atol = 0
__global__ void tensor_permute_0213(const float* __restrict__ x, float* __restrict__ out, int B, int S, int H, int D)
{
    const int idx = blockIdx.x * blockDim.x + threadIdx.x;
    const int total = B * H * S * D;
    if (idx >= total) return;
    const int d = idx % D;
    int t = idx / D;
    const int s = t % S;
    t /= S;
    const int h = t % H;
    const int b = t / H;
    out[idx] = x[((b * S + s) * H + h) * D + d];
}

extern "C" void launch_tensor_permute_0213(const float* x, float* out, int B, int S, int H, int D, cudaStream_t stream)
{
    const int total = B * H * S * D;
    tensor_permute_0213<<<(total + THREADS - 1) / THREADS, THREADS, 0, stream>>>(x, out, B, S, H, D);
}
