// Row-wise cosine similarity. Two rows per warp: each half-warp (16 lanes) owns a
// row, float4 loads (dim % 4 == 0), 4-step shuffle reduction inside the half-warp.
#include <cuda_runtime.h>

#define THREADS   256
#define ROWS_PER_BLOCK (THREADS / 16)
#define FULL_MASK 0xffffffffu

// kforecast: rows = 65536; dim = 512; A: f32[rows, dim] randn; B: f32[rows, dim] randn; out: f32[rows]; eps = 1e-8; rtol = 1e-3; atol = 1e-5
__global__ void __launch_bounds__(THREADS)
cosine_similarity(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ out, int rows, int dim,
                  float eps)
{
    const int sub = threadIdx.x & 15;
    const int r = blockIdx.x * ROWS_PER_BLOCK + (threadIdx.x >> 4);
    const bool valid = r < rows;
    const float4* a4 = reinterpret_cast<const float4*>(A + (size_t)(valid ? r : 0) * dim);
    const float4* b4 = reinterpret_cast<const float4*>(B + (size_t)(valid ? r : 0) * dim);
    const int n4 = valid ? (dim >> 2) : 0;
    float dot = 0.0f, na = 0.0f, nb = 0.0f;
    for (int c = sub; c < n4; c += 16) {
        const float4 x = a4[c], y = b4[c];
        dot += x.x * y.x + x.y * y.y + x.z * y.z + x.w * y.w;
        na += x.x * x.x + x.y * x.y + x.z * x.z + x.w * x.w;
        nb += y.x * y.x + y.y * y.y + y.z * y.z + y.w * y.w;
    }
#pragma unroll
    for (int o = 8; o > 0; o >>= 1) {
        dot += __shfl_xor_sync(FULL_MASK, dot, o);
        na += __shfl_xor_sync(FULL_MASK, na, o);
        nb += __shfl_xor_sync(FULL_MASK, nb, o);
    }
    if (valid && sub == 0) out[r] = dot / fmaxf(sqrtf(na) * sqrtf(nb), eps);
}

extern "C" void launch_cosine_similarity(const float* A, const float* B, float* out, int rows, int dim, float eps,
                                         cudaStream_t stream)
{
    cosine_similarity<<<(rows + ROWS_PER_BLOCK - 1) / ROWS_PER_BLOCK, THREADS, 0, stream>>>(A, B, out, rows, dim, eps);
}
