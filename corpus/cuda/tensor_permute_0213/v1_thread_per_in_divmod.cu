// Attention head reshape: one thread per input element (reads in input order, fully coalesced; writes scattered into D-float runs of the (b, h, s) output rows), div/mod on the input index.
#include <cuda_runtime.h>

#define THREADS 256

// kforecast: B = 8; S = 2048; H = 16; D = 64; x: f32[B, S, H, D] randn; out: f32[B, H, S, D]; rtol = 0; atol = 0
__global__ void tensor_permute_0213(const float* __restrict__ x, float* __restrict__ out, int B, int S, int H, int D)
{
    const int idx = blockIdx.x * blockDim.x + threadIdx.x;
    const int total = B * S * H * D;
    if (idx >= total) return;
    const int d = idx % D;
    int t = idx / D;
    const int h = t % H;
    t /= H;
    const int s = t % S;
    const int b = t / S;
    out[((b * H + h) * S + s) * D + d] = x[idx];
}

extern "C" void launch_tensor_permute_0213(const float* x, float* out, int B, int S, int H, int D, cudaStream_t stream)
{
    const int total = B * S * H * D;
    tensor_permute_0213<<<(total + THREADS - 1) / THREADS, THREADS, 0, stream>>>(x, out, B, S, H, D);
}
