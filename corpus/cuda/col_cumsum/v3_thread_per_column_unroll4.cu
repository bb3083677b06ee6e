// Inclusive cumulative sum down every column: one thread per column, rows unrolled by 4 with
// the 4 loads issued before the dependent adds (4 independent loads in flight per thread).
#include <cuda_runtime.h>

#define THREADS 256

// kforecast: rows = 8192; cols = 8192; x: f32[rows, cols] randn; out: f32[rows, cols]; rtol = 1e-3; atol = 1e-2
__global__ void __launch_bounds__(THREADS)
col_cumsum(const float* __restrict__ x, float* __restrict__ out, int rows, int cols)
{
    const int c = blockIdx.x * blockDim.x + threadIdx.x;
    if (c >= cols) return;
    const size_t ld = cols;
    const float* xp = x + c;
    float* op = out + c;
    float s = 0.0f;
    int r = 0;
    for (; r + 4 <= rows; r += 4) {
        const float a0 = xp[(r + 0) * ld];
        const float a1 = xp[(r + 1) * ld];
        const float a2 = xp[(r + 2) * ld];
        const float a3 = xp[(r + 3) * ld];
        s += a0; op[(r + 0) * ld] = s;
        s += a1; op[(r + 1) * ld] = s;
        s += a2; op[(r + 2) * ld] = s;
        s += a3; op[(r + 3) * ld] = s;
    }
    for (; r < rows; ++r) {
        s += xp[r * ld];
        op[r * ld] = s;
    }
}

extern "C" void launch_col_cumsum(const float* x, float* out, int rows, int cols, cudaStream_t stream)
{
    col_cumsum<<<(cols + THREADS - 1) / THREADS, THREADS, 0, stream>>>(x, out, rows, cols);
}
