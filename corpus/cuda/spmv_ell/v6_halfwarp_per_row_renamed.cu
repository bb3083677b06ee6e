// y = A x, ELLPACK row-major: a half-warp per row (same mapping as the half-warp version),
// names changed, row/slot by division and modulo, base offset hoisted, shuffle-down sum.
#include <cuda_runtime.h>

#define BLOCK_SIZE    256
#define GROUP         16
#define ROWS_PER_BLK  (BLOCK_SIZE / GROUP)

// kforecast: rows = 1 << 20; K = 16; n = 1 << 20; cols: i32[rows, K] randint(0, 1048576); vals: f32[rows, K] randn; x: f32[n] randn; y: f32[rows]; rtol = 1e-3; atol = 1e-4
__global__ void spmv_ell(const int* __restrict__ cols, const float* __restrict__ vals, const float* __restrict__ x,
                         float* __restrict__ y, int rows, int K)
{
    const int slot = threadIdx.x % GROUP;
    const int row = blockIdx.x * ROWS_PER_BLK + threadIdx.x / GROUP;
    const bool active = row < rows;
    const size_t base = (size_t)row * K;
    float sum = 0.0f;
    if (active)
        for (int k = slot; k < K; k += GROUP) sum += x[cols[base + k]] * vals[base + k];
    for (int delta = GROUP / 2; delta >= 1; delta /= 2) sum += __shfl_down_sync(0xffffffffu, sum, delta, GROUP);
    if (active && slot == 0) y[row] = sum;
}

extern "C" void launch_spmv_ell(const int* cols, const float* vals, const float* x, float* y, int rows, int K,
                                cudaStream_t stream)
{
    const int grid = (rows + ROWS_PER_BLK - 1) / ROWS_PER_BLK;
    spmv_ell<<<grid, BLOCK_SIZE, 0, stream>>>(cols, vals, x, y, rows, K);
}
