// y = A^T x for a row-major A [m, n], one block of 32x8 threads per 32 columns: the 8 rows
// of threads stride down the matrix, partial sums are added in (padded) shared memory.
#include <cuda_runtime.h>

#define TX 32
#define TY 8

// kforecast: m = 8192; n = 4096; A: f32[m, n] randn; x: f32[m] randn; y: f32[n] zeros; rtol = 1e-3; atol = 1e-2
__global__ void __launch_bounds__(TX * TY)
gemv_t(const float* __restrict__ A, const float* __restrict__ x, float* __restrict__ y, int m, int n)
{
    __shared__ float part[TY][TX + 1];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int col = blockIdx.x * TX + tx;
    float acc = 0.0f;
    if (col < n)
        for (int i = ty; i < m; i += TY) acc += A[(size_t)i * n + col] * x[i];
    part[ty][tx] = acc;
    __syncthreads();
    if (ty == 0 && col < n) {
        float s = part[0][tx];
#pragma unroll
        for (int k = 1; k < TY; ++k) s += part[k][tx];
        y[col] = s;
    }
}

extern "C" void launch_gemv_t(const float* A, const float* x, float* y, int m, int n, cudaStream_t stream)
{
    dim3 block(TX, TY);
    gemv_t<<<(n + TX - 1) / TX, block, 0, stream>>>(A, x, y, m, n);
}
