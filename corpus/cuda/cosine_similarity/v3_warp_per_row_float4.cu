// Row-wise cosine similarity. One warp per row with float4 loads of both rows
// (dim % 4 == 0), shuffle reduction, rsqrtf for the norm product.
#include <cuda_runtime.h>

#define THREADS   256
#define WARPS     (THREADS / 32)
#define FULL_MASK 0xffffffffu

// kforecast: rows = 65536; dim = 512; A: f32[rows, dim] randn; B: f32[rows, dim] randn; out: f32[rows]; eps = 1e-8; rtol = 1e-3; atol = 1e-5
__global__ void __launch_bounds__(THREADS)
cosine_similarity(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ out, int rows, int dim,
                  float eps)
{
    const int lane = threadIdx.x & 31;
    const int r = blockIdx.x * WARPS + (threadIdx.x >> 5);
    if (r >= rows) return;
    const float4* a4 = reinterpret_cast<const float4*>(A + (size_t)r * dim);
    const float4* b4 = reinterpret_cast<const float4*>(B + (size_t)r * dim);
    const int n4 = dim >> 2;
    float dot = 0.0f, na = 0.0f, nb = 0.0f;
    for (int c = lane; c < n4; c += 32) {
        const float4 x = a4[c], y = b4[c];
        dot += x.x * y.x + x.y * y.y + x.z * y.z + x.w * y.w;
        na += x.x * x.x + x.y * x.y + x.z * x.z + x.w * x.w;
        nb += y.x * y.x + y.y * y.y + y.z * y.z + y.w * y.w;
    }
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) {
        dot += __shfl_xor_sync(FULL_MASK, dot, o);
        na += __shfl_xor_sync(FULL_MASK, na, o);
        nb += __shfl_xor_sync(FULL_MASK, nb, o);
    }
    if (lane == 0) out[r] = dot * rsqrtf(fmaxf(na * nb, eps * eps));
}

extern "C" void launch_cosine_similarity(const float* A, const float* B, float* out, int rows, int dim, float eps,
                                         cudaStream_t stream)
{
    cosine_similarity<<<(rows + WARPS - 1) / WARPS, THREADS, 0, stream>>>(A, B, out, rows, dim, eps);
}
