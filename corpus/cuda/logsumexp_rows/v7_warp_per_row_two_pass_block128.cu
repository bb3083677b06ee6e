// logsumexp of each row, one warp per row, two coalesced passes with shuffle
// reductions, as v2 but 4 rows per block of 128 and renamed/reordered locals.
#include <cuda_runtime.h>
#include <math.h>

#define BLOCK_THREADS  128
#define WARPS_PER_BLK  (BLOCK_THREADS / 32)

// kforecast: rows = 16384; cols = 4096; x: f32[rows, cols] randn; out: f32[rows]; rtol = 1e-3; atol = 1e-4
__global__ void logsumexp_rows(const float* __restrict__ x, float* __restrict__ out, int rows, int cols)
{
    const int row = blockIdx.x * WARPS_PER_BLK + threadIdx.x / 32;
    const int lane = threadIdx.x % 32;
    if (row >= rows) return;
    const float* src = x + (size_t)row * cols;
    float row_max = -INFINITY;
    for (int j = lane; j < cols; j += 32) row_max = fmaxf(row_max, src[j]);
    for (int off = 16; off >= 1; off /= 2) row_max = fmaxf(row_max, __shfl_down_sync(0xffffffffu, row_max, off));
    row_max = __shfl_sync(0xffffffffu, row_max, 0);
    float total = 0.0f;
    for (int j = lane; j < cols; j += 32) total += __expf(src[j] - row_max);
    for (int off = 16; off >= 1; off /= 2) total += __shfl_down_sync(0xffffffffu, total, off);
    if (lane == 0) out[row] = row_max + __logf(total);
}

extern "C" void launch_logsumexp_rows(const float* x, float* out, int rows, int cols, cudaStream_t stream)
{
    const int grid = (rows + WARPS_PER_BLK - 1) / WARPS_PER_BLK;
    logsumexp_rows<<<grid, BLOCK_THREADS, 0, stream>>>(x, out, rows, cols);
}
