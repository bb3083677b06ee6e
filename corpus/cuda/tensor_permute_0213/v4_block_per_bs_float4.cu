// Attention head reshape (D % 4 == 0): one block per (b, s) copies all H heads of that token (H*D contiguous floats read as float4), writing each head's D floats into its own (b, h) plane.
#include <cuda_runtime.h>

#define THREADS 256

// kforecast: B = 8; S = 2048; H = 16; D = 64; x: f32[B, S, H, D] randn; out: f32[B, H, S, D]; rtol = 0; atol = 0
__global__ void __launch_bounds__(THREADS)
tensor_permute_0213(const float* __restrict__ x, float* __restrict__ out, int B, int S, int H, int D)
{
    const int bs = blockIdx.x;
    const int b = bs / S, s = bs % S;
    const int D4 = D >> 2;
    const float4* src = reinterpret_cast<const float4*>(x) + (size_t)bs * H * D4;
    float4* dst = reinterpret_cast<float4*>(out) + ((size_t)b * H * S + s) * D4;
    const size_t plane4 = (size_t)S * D4;
    for (int i = threadIdx.x; i < H * D4; i += THREADS) {
        const int h = i / D4, d4 = i - h * D4;
        dst[h * plane4 + d4] = src[i];
    }
}

extern "C" void launch_tensor_permute_0213(const float* x, float* out, int B, int S, int H, int D, cudaStream_t stream)
{
    tensor_permute_0213<<<B * S, THREADS, 0, stream>>>(x, out, B, S, H, D);
}
