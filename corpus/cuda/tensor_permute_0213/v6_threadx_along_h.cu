// Attention head reshape: 16 x 16 blocks with threadIdx.x along h and threadIdx.y along d, so neighbouring lanes read D floats apart and write S*D floats apart (uncoalesced both ways).
#include <cuda_runtime.h>

#define BX 16
#define BY 16

// kforecast: B = 8; S = 2048; H = 16; D = 64; x: f32[B, S, H, D] randn; out: f32[B, H, S, D]; rtol = 0; atol = 0
__global__ void __launch_bounds__(BX * BY)
tensor_permute_0213(const float* __restrict__ x, float* __restrict__ out, int B, int S, int H, int D)
{
    const int d = blockIdx.x * BY + threadIdx.y;
    const int s = blockIdx.y;
    const int b = blockIdx.z;
    if (d >= D) return;
    for (int h = threadIdx.x; h < H; h += BX)
        out[(((size_t)b * H + h) * S + s) * D + d] = x[(((size_t)b * S + s) * H + h) * D + d];
}

extern "C" void launch_tensor_permute_0213(const float* x, float* out, int B, int S, int H, int D, cudaStream_t stream)
{
    dim3 block(BX, BY);
    dim3 grid((D + BY - 1) / BY, S, B);
    tensor_permute_0213<<<grid, block, 0, stream>>>(x, out, B, S, H, D);
}
