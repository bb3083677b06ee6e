// Row-wise cosine similarity. Same as v1 (warp per row, shuffle sums) with renamed
// variables, warp index from blockDim, and a shfl_down reduction read by lane 0.
#include <cuda_runtime.h>

#define BLOCK 256

// kforecast: rows = 65536; dim = 512; A: f32[rows, dim] randn; B: f32[rows, dim] randn; out: f32[rows]; eps = 1e-8; rtol = 1e-3; atol = 1e-5
__global__ void cosine_similarity(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ out,
                                  int rows, int dim, float eps)
{
    const int warp = threadIdx.x / 32;
    const int lane = threadIdx.x % 32;
    const int row = blockIdx.x * (blockDim.x / 32) + warp;
    if (row >= rows) return;
    const size_t base = (size_t)row * dim;
    float ab = 0.0f, aa = 0.0f, bb = 0.0f;
    for (int k = lane; k < dim; k += 32) {
        const float u = A[base + k];
        const float v = B[base + k];
        aa += u * u;
        bb += v * v;
        ab += u * v;
    }
    for (int off = 16; off >= 1; off /= 2) {
        ab += __shfl_down_sync(0xffffffffu, ab, off);
        aa += __shfl_down_sync(0xffffffffu, aa, off);
        bb += __shfl_down_sync(0xffffffffu, bb, off);
    }
    if (lane == 0) {
        const float denom = fmaxf(sqrtf(aa) * sqrtf(bb), eps);
        out[row] = ab / denom;
    }
}

extern "C" void launch_cosine_similarity(const float* A, const float* B, float* out, int rows, int dim, float eps,
                                         cudaStream_t stream)
{
    const int rows_per_block = BLOCK / 32;
    cosine_similarity<<<(rows + rows_per_block - 1) / rows_per_block, BLOCK, 0, stream>>>(A, B, out, rows, dim, eps);
}
