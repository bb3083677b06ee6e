// Row-wise cosine similarity. One warp per row: lanes stride along the row
// (coalesced), the three partial sums are combined with warp shuffles.
#include <cuda_runtime.h>

#define THREADS   256
#define WARPS     (THREADS / 32)
#define FULL_MASK 0xffffffffu

// kforecast: rows = 65536; dim = 512; A: f32[rows, dim] randn; B: f32[rows, dim] randn; out: f32[rows]; eps = 1e-8; rtol = 1e-3; atol = 1e-5
__global__ void cosine_similarity(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ out,
                                  int rows, int dim, float eps)
{
    const int lane = threadIdx.x & 31;
    const int r = blockIdx.x * WARPS + (threadIdx.x >> 5);
    if (r >= rows) return;
    const float* a = A + (size_t)r * dim;
    const float* b = B + (size_t)r * dim;
    float dot = 0.0f, na = 0.0f, nb = 0.0f;
    for (int c = lane; c < dim; c += 32) {
        const float x = a[c], y = b[c];
        dot += x * y;
        na += x * x;
        nb += y * y;
    }
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) {
        dot += __shfl_xor_sync(FULL_MASK, dot, o);
        na += __shfl_xor_sync(FULL_MASK, na, o);
        nb += __shfl_xor_sync(FULL_MASK, nb, o);
    }
    if (lane == 0) out[r] = dot / fmaxf(sqrtf(na) * sqrtf(nb), eps);
}

extern "C" void launch_cosine_similarity(const float* A, const float* B, float* out, int rows, int dim, float eps,
                                         cudaStream_t stream)
{
    cosine_similarity<<<(rows + WARPS - 1) / WARPS, THREADS, 0, stream>>>(A, B, out, rows, dim, eps);
}
