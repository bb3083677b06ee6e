// Top-8 values of each row (descending), one thread per row (uncoalesced), the top-8
// kept in registers by an unrolled compare-exchange chain instead of a local array.
#include <cuda_runtime.h>

#define THREADS 128
#define TOPK    8

// Inserts v into t (sorted descending, register-resident: compile-time indices only).
__device__ __forceinline__ void insert_top(float (&t)[TOPK], float v)
{
    if (v > t[TOPK - 1]) {
        t[TOPK - 1] = v;
#pragma unroll
        for (int j = TOPK - 1; j > 0; --j) {
            const float hi = fmaxf(t[j - 1], t[j]), lo = fminf(t[j - 1], t[j]);
            t[j - 1] = hi;
            t[j] = lo;
        }
    }
}

// kforecast: rows = 16384; cols = 1024; x: f32[rows, cols] randn; out: f32[rows, 8]; rtol = 0; atol = 0
__global__ void row_topk(const float* __restrict__ x, float* __restrict__ out, int rows, int cols)
{
    const int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= rows) return;
    const float* xr = x + (size_t)r * cols;
    float top[TOPK];
#pragma unroll
    for (int j = 0; j < TOPK; ++j) top[j] = -INFINITY;
    for (int c = 0; c < cols; ++c) insert_top(top, xr[c]);
#pragma unroll
    for (int j = 0; j < TOPK; ++j) out[(size_t)r * TOPK + j] = top[j];
}

extern "C" void launch_row_topk(const float* x, float* out, int rows, int cols, cudaStream_t stream)
{
    row_topk<<<(rows + THREADS - 1) / THREADS, THREADS, 0, stream>>>(x, out, rows, cols);
}
