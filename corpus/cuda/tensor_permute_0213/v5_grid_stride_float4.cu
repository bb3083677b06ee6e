// Attention head reshape (D % 4 == 0): a fixed grid of 1056 blocks walks the output in float4s with a grid-stride loop, each float4 index decomposed with div/mod.
#include <cuda_runtime.h>

#define THREADS 256
#define BLOCKS  1056

// kforecast: B = 8; S = 2048; H = 16; D = 64; x: f32[B, S, H, D] randn; out: f32[B, H, S, D]; rtol = 0; atol = 0
__global__ void __launch_bounds__(THREADS)
tensor_permute_0213(const float* __restrict__ x, float* __restrict__ out, int B, int S, int H, int D)
{
    const int D4 = D >> 2;
    const int total4 = B * H * S * D4;
    const float4* x4 = reinterpret_cast<const float4*>(x);
    float4* out4 = reinterpret_cast<float4*>(out);
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < total4; i += gridDim.x * blockDim.x) {
        const int d4 = i % D4;
        int t = i / D4;
        const int s = t % S;
        t /= S;
        const int h = t % H;
        const int b = t / H;
        out4[i] = x4[((b * S + s) * H + h) * D4 + d4];
    }
}

extern "C" void launch_tensor_permute_0213(const float* x, float* out, int B, int S, int H, int D, cudaStream_t stream)
{
    tensor_permute_0213<<<BLOCKS, THREADS, 0, stream>>>(x, out, B, S, H, D);
}
