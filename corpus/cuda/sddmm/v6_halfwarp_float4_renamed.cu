// SDDMM: v3 (16 lanes x float4 per nonzero) with renamed variables and the row / column offsets
// computed up front in float4 units (same loads, same 4-step shuffle sum).
#include <cuda_runtime.h>

#define K         64
#define NNZ_ROW   32
#define LANES     16
#define THREADS   256
#define PER_BLOCK (THREADS / LANES)
#define FULL_MASK 0xffffffffu

// kforecast: m = 32768; n = 32768; nnz = 32 * m; a: f32[m, 64] randn; b: f32[n, 64] randn; col: i32[nnz] randint(0,32768); out: f32[nnz]; rtol = 1e-3; atol = 1e-3
__global__ void sddmm(const float* __restrict__ a, const float* __restrict__ b, const int* __restrict__ col,
                      float* __restrict__ out, int m)
{
    const int q = threadIdx.x % LANES;
    const int nz = blockIdx.x * PER_BLOCK + threadIdx.x / LANES;
    const int total = m * NNZ_ROW;
    float acc = 0.0f;
    if (nz < total) {
        const float4* a4 = reinterpret_cast<const float4*>(a);
        const float4* b4 = reinterpret_cast<const float4*>(b);
        const size_t ia = (size_t)(nz / NNZ_ROW) * (K / 4) + q;
        const size_t ib = (size_t)col[nz] * (K / 4) + q;
        const float4 u = a4[ia], w = b4[ib];
        acc = u.x * w.x + u.y * w.y + u.z * w.z + u.w * w.w;
    }
#pragma unroll
    for (int off = LANES / 2; off > 0; off >>= 1) acc += __shfl_xor_sync(FULL_MASK, acc, off);
    if (nz < total && q == 0) out[nz] = acc;
}

extern "C" void launch_sddmm(const float* a, const float* b, const int* col, float* out, int m, cudaStream_t stream)
{
    const int nnz = m * NNZ_ROW;
    sddmm<<<(nnz + PER_BLOCK - 1) / PER_BLOCK, THREADS, 0, stream>>>(a, b, col, out, m);
}
