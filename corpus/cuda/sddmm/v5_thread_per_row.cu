// SDDMM: one thread per sparse row doing its 32 dot products one after another (only m threads;
// a warp's a and b loads each touch 32 different rows).
#include <cuda_runtime.h>

#define K       64
#define NNZ_ROW 32
#define THREADS 128

// kforecast: m = 32768; n = 32768; nnz = 32 * m; a: f32[m, 64] randn; b: f32[n, 64] randn; col: i32[nnz] randint(0,32768); out: f32[nnz]; rtol = 1e-3; atol = 1e-3
__global__ void sddmm(const float* __restrict__ a, const float* __restrict__ b, const int* __restrict__ col,
                      float* __restrict__ out, int m)
{
    const int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= m) return;
    const float* ar = a + (size_t)row * K;
    for (int j = 0; j < NNZ_ROW; ++j) {
        const size_t e = (size_t)row * NNZ_ROW + j;
        const float* br = b + (size_t)col[e] * K;
        float s = 0.0f;
        for (int k = 0; k < K; ++k) s += ar[k] * br[k];
        out[e] = s;
    }
}

extern "C" void launch_sddmm(const float* a, const float* b, const int* col, float* out, int m, cudaStream_t stream)
{
    sddmm<<<(m + THREADS - 1) / THREADS, THREADS, 0, stream>>>(a, b, col, out, m);
}
