// Column sums: like the split-rows version, but each thread owns 4 neighbouring
// columns and reads them as one float4 (cols % 4 == 0), chunks of 128 rows.
#include <cuda_runtime.h>

#define THREADS        128
#define ROWS_PER_BLOCK 128

// kforecast: rows = 4096; cols = 4096; x: f32[rows, cols] randn; out: f32[cols] zeros; rtol = 1e-3; atol = 1e-2
__global__ void col_sum(const float* __restrict__ x, float* __restrict__ out, int rows, int cols)
{
    const int c4 = blockIdx.x * blockDim.x + threadIdx.x;
    if (c4 * 4 >= cols) return;
    const int r0 = blockIdx.y * ROWS_PER_BLOCK;
    const int r1 = min(r0 + ROWS_PER_BLOCK, rows);
    float4 s = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    for (int r = r0; r < r1; ++r) {
        const float4 v = *reinterpret_cast<const float4*>(x + (size_t)r * cols + (size_t)c4 * 4);
        s.x += v.x;
        s.y += v.y;
        s.z += v.z;
        s.w += v.w;
    }
    atomicAdd(&out[c4 * 4 + 0], s.x);
    atomicAdd(&out[c4 * 4 + 1], s.y);
    atomicAdd(&out[c4 * 4 + 2], s.z);
    atomicAdd(&out[c4 * 4 + 3], s.w);
}

extern "C" void launch_col_sum(const float* x, float* out, int rows, int cols, cudaStream_t stream)
{
    dim3 block(THREADS);
    dim3 grid((cols / 4 + THREADS - 1) / THREADS, (rows + ROWS_PER_BLOCK - 1) / ROWS_PER_BLOCK);
    col_sum<<<grid, block, 0, stream>>>(x, out, rows, cols);
}
