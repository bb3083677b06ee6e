// y = A^T x for a row-major A [m, n] (n % 4 == 0), blocks of 16x16 threads over 64 columns
// and a chunk of 512 rows: float4 loads, shared-memory sum over the 16 thread rows, one atomicAdd per column.
#include <cuda_runtime.h>

#define TX             16
#define TY             16
#define ROWS_PER_BLOCK 512

// kforecast: m = 8192; n = 4096; A: f32[m, n] randn; x: f32[m] randn; y: f32[n] zeros; rtol = 1e-3; atol = 1e-2
__global__ void __launch_bounds__(TX * TY)
gemv_t(const float* __restrict__ A, const float* __restrict__ x, float* __restrict__ y, int m, int n)
{
    __shared__ float4 part[TY][TX];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int c4 = blockIdx.x * TX + tx;
    const int n4 = n >> 2;
    const int r0 = blockIdx.y * ROWS_PER_BLOCK;
    const int r1 = r0 + ROWS_PER_BLOCK < m ? r0 + ROWS_PER_BLOCK : m;
    float4 acc = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    if (c4 < n4) {
        const float4* a4 = reinterpret_cast<const float4*>(A) + c4;
        for (int i = r0 + ty; i < r1; i += TY) {
            const float4 a = a4[(size_t)i * n4];
            const float xi = x[i];
            acc.x = fmaf(a.x, xi, acc.x);
            acc.y = fmaf(a.y, xi, acc.y);
            acc.z = fmaf(a.z, xi, acc.z);
            acc.w = fmaf(a.w, xi, acc.w);
        }
    }
    part[ty][tx] = acc;
    __syncthreads();
    // 64 threads finish: thread (tx, ty) with ty < 4 owns component ty of column group tx.
    if (ty < 4 && c4 < n4) {
        float s = 0.0f;
#pragma unroll
        for (int k = 0; k < TY; ++k) {
            const float4 p = part[k][tx];
            s += ty == 0 ? p.x : ty == 1 ? p.y : ty == 2 ? p.z : p.w;
        }
        atomicAdd(&y[4 * c4 + ty], s);
    }
}

extern "C" void launch_gemv_t(const float* A, const float* x, float* y, int m, int n, cudaStream_t stream)
{
    dim3 block(TX, TY);
    dim3 grid((n / 4 + TX - 1) / TX, (m + ROWS_PER_BLOCK - 1) / ROWS_PER_BLOCK);
    gemv_t<<<grid, block, 0, stream>>>(A, x, y, m, n);
}
