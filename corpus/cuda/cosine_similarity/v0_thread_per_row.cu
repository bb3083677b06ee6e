// Row-wise cosine similarity out[r] = dot(a,b) / max(|a|*|b|, eps). Naive: one
// thread per row walks the whole row (each warp reads 32 different rows: uncoalesced).
#include <cuda_runtime.h>

#define THREADS 256

// kforecast: rows = 65536; dim = 512; A: f32[rows, dim] randn; B: f32[rows, dim] randn; out: f32[rows]; eps = 1e-8; rtol = 1e-3; atol = 1e-5
__global__ void cosine_similarity(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ out,
                                  int rows, int dim, float eps)
{
    const int r = blockIdx.x * THREADS + threadIdx.x;
    if (r >= rows) return;
    const float* a = A + (size_t)r * dim;
    const float* b = B + (size_t)r * dim;
    float dot = 0.0f, na = 0.0f, nb = 0.0f;
    for (int c = 0; c < dim; ++c) {
        const float x = a[c], y = b[c];
        dot += x * y;
        na += x * x;
        nb += y * y;
    }
    out[r] = dot / fmaxf(sqrtf(na) * sqrtf(nb), eps);
}

extern "C" void launch_cosine_similarity(const float* A, const float* B, float* out, int rows, int dim, float eps,
                                         cudaStream_t stream)
{
    cosine_similarity<<<(rows + THREADS - 1) / THREADS, THREADS, 0, stream>>>(A, B, out, rows, dim, eps);
}
