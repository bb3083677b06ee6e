// SDDMM: one warp per sparse row, a row staged in shared memory; lane j computes nonzero j's whole
// dot product (16 float4 loads of its own b row, a read back as broadcast float4): no shuffles, but
// every b load instruction touches 32 different rows.
#include <cuda_runtime.h>

#define K       64
#define NNZ_ROW 32
#define THREADS 128
#define WARPS   (THREADS / 32)

// kforecast: m = 32768; n = 32768; nnz = 32 * m; a: f32[m, 64] randn; b: f32[n, 64] randn; col: i32[nnz] randint(0,32768); out: f32[nnz]; rtol = 1e-3; atol = 1e-3
__global__ void sddmm(const float* __restrict__ a, const float* __restrict__ b, const int* __restrict__ col,
                      float* __restrict__ out, int m)
{
    __shared__ float4 a_s[WARPS][K / 4];
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const int row = blockIdx.x * WARPS + warp;
    if (row >= m) return;
    if (lane < K / 4) a_s[warp][lane] = reinterpret_cast<const float4*>(a + (size_t)row * K)[lane];
    __syncwarp();
    const size_t e = (size_t)row * NNZ_ROW + lane;
    const float4* br = reinterpret_cast<const float4*>(b + (size_t)col[e] * K);
    float s = 0.0f;
#pragma unroll
    for (int q = 0; q < K / 4; ++q) {
        const float4 x = a_s[warp][q];
        const float4 y = br[q];
        s += x.x * y.x + x.y * y.y + x.z * y.z + x.w * y.w;
    }
    out[e] = s;
}

extern "C" void launch_sddmm(const float* a, const float* b, const int* col, float* out, int m, cudaStream_t stream)
{
    sddmm<<<(m + WARPS - 1) / WARPS, THREADS, 0, stream>>>(a, b, col, out, m);
}
