// SDDMM (out[e] = dot(a[e / 32], b[col[e]]), 32 nonzeros per row, k = 64): naive, one thread per nonzero.
// A warp covers the 32 nonzeros of one row: its a loads are one broadcast address, but its b loads
// touch 32 different rows (each thread walks its own 256-byte row, 4 bytes per load).
#include <cuda_runtime.h>

#define K       64
#define NNZ_ROW 32
#define THREADS 256

// kforecast: m = 32768; n = 32768; nnz = 32 * m; a: f32[m, 64] randn; b: f32[n, 64] randn; col: i32[nnz] randint(0,32768); out: f32[nnz]; rtol = 1e-3; atol = 1e-3
__global__ void sddmm(const float* __restrict__ a, const float* __restrict__ b, const int* __restrict__ col,
                      float* __restrict__ out, int m)
{
    const int e = blockIdx.x * blockDim.x + threadIdx.x;
    if (e >= m * NNZ_ROW) return;
    const float* ar = a + (size_t)(e / NNZ_ROW) * K;
    const float* br = b + (size_t)col[e] * K;
    float s = 0.0f;
    for (int k = 0; k < K; ++k) s += ar[k] * br[k];
    out[e] = s;
}

extern "C" void launch_sddmm(const float* a, const float* b, const int* col, float* out, int m, cudaStream_t stream)
{
    const int nnz = m * NNZ_ROW;
    sddmm<<<(nnz + THREADS - 1) / THREADS, THREADS, 0, stream>>>(a, b, col, out, m);
}
