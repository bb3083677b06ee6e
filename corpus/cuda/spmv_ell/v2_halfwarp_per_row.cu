// y = A x, ELLPACK row-major: a half-warp (16 lanes) per row, one slot per lane for K = 16
// (fully coalesced 64-byte row segments), xor-shuffle sum within the half-warp.
#include <cuda_runtime.h>

#define THREADS   256
#define LANES     16
#define ROWS_BLK  (THREADS / LANES)
#define FULL_MASK 0xffffffffu

// kforecast: rows = 1 << 20; K = 16; n = 1 << 20; cols: i32[rows, K] randint(0, 1048576); vals: f32[rows, K] randn; x: f32[n] randn; y: f32[rows]; rtol = 1e-3; atol = 1e-4
__global__ void spmv_ell(const int* __restrict__ cols, const float* __restrict__ vals, const float* __restrict__ x,
                         float* __restrict__ y, int rows, int K)
{
    const int sub = threadIdx.x & (LANES - 1);
    const int r = blockIdx.x * ROWS_BLK + threadIdx.x / LANES;
    float acc = 0.0f;
    if (r < rows) {
        const int* c = cols + (size_t)r * K;
        const float* v = vals + (size_t)r * K;
        for (int k = sub; k < K; k += LANES) acc += v[k] * x[c[k]];
    }
#pragma unroll
    for (int o = LANES / 2; o > 0; o >>= 1) acc += __shfl_xor_sync(FULL_MASK, acc, o, LANES);
    if (r < rows && sub == 0) y[r] = acc;
}

extern "C" void launch_spmv_ell(const int* cols, const float* vals, const float* x, float* y, int rows, int K,
                                cudaStream_t stream)
{
    spmv_ell<<<(rows + ROWS_BLK - 1) / ROWS_BLK, THREADS, 0, stream>>>(cols, vals, x, y, rows, K);
}
