// Row-wise cosine similarity. One block of 128 threads per row; the three partial
// sums are reduced with a shared-memory tree (a __syncthreads per level).
#include <cuda_runtime.h>

#define THREADS 128

// kforecast: rows = 65536; dim = 512; A: f32[rows, dim] randn; B: f32[rows, dim] randn; out: f32[rows]; eps = 1e-8; rtol = 1e-3; atol = 1e-5
__global__ void cosine_similarity(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ out,
                                  int rows, int dim, float eps)
{
    __shared__ float s_dot[THREADS];
    __shared__ float s_na[THREADS];
    __shared__ float s_nb[THREADS];
    const int r = blockIdx.x;
    const int t = threadIdx.x;
    const float* a = A + (size_t)r * dim;
    const float* b = B + (size_t)r * dim;
    float dot = 0.0f, na = 0.0f, nb = 0.0f;
    for (int c = t; c < dim; c += THREADS) {
        const float x = a[c], y = b[c];
        dot += x * y;
        na += x * x;
        nb += y * y;
    }
    s_dot[t] = dot;
    s_na[t] = na;
    s_nb[t] = nb;
    __syncthreads();
    for (int s = THREADS / 2; s > 0; s >>= 1) {
        if (t < s) {
            s_dot[t] += s_dot[t + s];
            s_na[t] += s_na[t + s];
            s_nb[t] += s_nb[t + s];
        }
        __syncthreads();
    }
    if (t == 0) out[r] = s_dot[0] / fmaxf(sqrtf(s_na[0]) * sqrtf(s_nb[0]), eps);
}

extern "C" void launch_cosine_similarity(const float* A, const float* B, float* out, int rows, int dim, float eps,
                                         cudaStream_t stream)
{
    cosine_similarity<<<rows, THREADS, 0, stream>>>(A, B, out, rows, dim, eps);
}
