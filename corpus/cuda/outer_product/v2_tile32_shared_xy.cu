// Rank-1 update A += alpha * x y^T, 32 x 32 tiles per 32 x 8 block: the tile's alpha*x and y
// slices are staged once in shared memory, y[j] kept in a register, each thread does 4 rows.
#include <cuda_runtime.h>

#define TILE 32
#define BY   8

// kforecast: n = 8192; alpha = 0.5; A: f32[n, n] randn; x: f32[n] randn; y: f32[n] randn; outputs = A; rtol = 1e-5; atol = 1e-5
__global__ void outer_product(float* __restrict__ A, const float* __restrict__ x, const float* __restrict__ y,
                              float alpha, int n)
{
    __shared__ float sx[TILE];
    __shared__ float sy[TILE];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int row0 = blockIdx.y * TILE;
    const int j = blockIdx.x * TILE + tx;
    if (ty == 0) sy[tx] = j < n ? y[j] : 0.0f;
    if (ty == 1) sx[tx] = row0 + tx < n ? alpha * x[row0 + tx] : 0.0f;
    __syncthreads();
    if (j >= n) return;
    const float yj = sy[tx];
#pragma unroll
    for (int r = ty; r < TILE; r += BY) {
        const int i = row0 + r;
        if (i < n) A[(size_t)i * n + j] += sx[r] * yj;
    }
}

extern "C" void launch_outer_product(float* A, const float* x, const float* y, float alpha, int n,
                                     cudaStream_t stream)
{
    dim3 block(TILE, BY);
    dim3 grid((n + TILE - 1) / TILE, (n + TILE - 1) / TILE);
    outer_product<<<grid, block, 0, stream>>>(A, x, y, alpha, n);
}
