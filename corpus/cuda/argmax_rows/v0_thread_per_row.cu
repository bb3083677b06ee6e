// Per-row argmax (maximum value and its first column) of a row-major matrix.
// One thread per row scanning it left to right: a warp reads 32 rows 16 KB apart
// per step (uncoalesced), and 8192 rows give only 32 blocks of 256 threads.
#include <cuda_runtime.h>

#define THREADS 256

// kforecast: rows = 8192; cols = 4096; x: f32[rows, cols] randn; out_val: f32[rows]; out_idx: i32[rows]; rtol = 0; atol = 0
__global__ void argmax_rows(const float* __restrict__ x, float* __restrict__ out_val, int* __restrict__ out_idx, int rows, int cols)
{
    const int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= rows) return;
    const float* p = x + (size_t)r * cols;
    float best = p[0];
    int arg = 0;
    for (int c = 1; c < cols; ++c) {
        const float v = p[c];
        if (v > best) {
            best = v;
            arg = c;
        }
    }
    out_val[r] = best;
    out_idx[r] = arg;
}

extern "C" void launch_argmax_rows(const float* x, float* out_val, int* out_idx, int rows, int cols, cudaStream_t stream)
{
    argmax_rows<<<(rows + THREADS - 1) / THREADS, THREADS, 0, stream>>>(x, out_val, out_idx, rows, cols);
}
