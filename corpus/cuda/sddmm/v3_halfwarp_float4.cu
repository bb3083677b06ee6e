// SDDMM: half a warp (16 lanes x float4) per nonzero, so a warp does 2 nonzeros; 4-step shuffle sum.
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
    const int sub = threadIdx.x & (LANES - 1);
    const int e = blockIdx.x * PER_BLOCK + threadIdx.x / LANES;
    const bool valid = e < m * NNZ_ROW;
    float s = 0.0f;
    if (valid) {
        const float4 x = reinterpret_cast<const float4*>(a + (size_t)(e / NNZ_ROW) * K)[sub];
        const float4 y = reinterpret_cast<const float4*>(b + (size_t)col[e] * K)[sub];
        s = x.x * y.x + x.y * y.y + x.z * y.z + x.w * y.w;
    }
#pragma unroll
    for (int o = LANES / 2; o > 0; o >>= 1) s += __shfl_xor_sync(FULL_MASK, s, o);
    if (valid && sub == 0) out[e] = s;
}

extern "C" void launch_sddmm(const float* a, const float* b, const int* col, float* out, int m, cudaStream_t stream)
{
    const int nnz = m * NNZ_ROW;
    sddmm<<<(nnz + PER_BLOCK - 1) / PER_BLOCK, THREADS, 0, stream>>>(a, b, col, out, m);
}
