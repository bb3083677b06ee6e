// Column sums: rows are split into chunks of ROWS_PER_BLOCK along blockIdx.y, so
// there are cols/256 x rows/256 blocks; each thread sums its column over the chunk
// and adds the partial sum with one atomicAdd. out must start zeroed.
#include <cuda_runtime.h>

#define THREADS        256
#define ROWS_PER_BLOCK 256

// kforecast: rows = 4096; cols = 4096; x: f32[rows, cols] randn; out: f32[cols] zeros; rtol = 1e-3; atol = 1e-2
__global__ void col_sum(const float* __restrict__ x, float* __restrict__ out, int rows, int cols)
{
    const int c = blockIdx.x * blockDim.x + threadIdx.x;
    if (c >= cols) return;
    const int r0 = blockIdx.y * ROWS_PER_BLOCK;
    const int r1 = r0 + ROWS_PER_BLOCK < rows ? r0 + ROWS_PER_BLOCK : rows;
    float s = 0.0f;
    for (int r = r0; r < r1; ++r) s += x[(size_t)r * cols + c];
    atomicAdd(&out[c], s);
}

extern "C" void launch_col_sum(const float* x, float* out, int rows, int cols, cudaStream_t stream)
{
    dim3 block(THREADS);
    dim3 grid((cols + THREADS - 1) / THREADS, (rows + ROWS_PER_BLOCK - 1) / ROWS_PER_BLOCK);
    col_sum<<<grid, block, 0, stream>>>(x, out, rows, cols);
}
