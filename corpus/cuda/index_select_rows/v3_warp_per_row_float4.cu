// Row gather, one warp per output row, 8 rows per 256-thread block, float4 copies:
// lane 0 loads the index and broadcasts it with a shuffle.
#include <cuda_runtime.h>

#define THREADS   256
#define WARPS     (THREADS / 32)
#define FULL_MASK 0xffffffffu

// kforecast: n_idx = 65536; n_rows = 50000; dim = 512; table: f32[n_rows, dim] randn; idx: i32[n_idx] randint(0,50000); out: f32[n_idx, dim]; rtol = 0; atol = 0
__global__ void __launch_bounds__(THREADS)
index_select_rows(const float* __restrict__ table, const int* __restrict__ idx, float* __restrict__ out,
                  int n_idx, int dim)
{
    const int lane = threadIdx.x & 31;
    const int i = blockIdx.x * WARPS + (threadIdx.x >> 5);
    if (i >= n_idx) return;
    int row = lane == 0 ? idx[i] : 0;
    row = __shfl_sync(FULL_MASK, row, 0);
    const int d4 = dim >> 2;
    const float4* src = reinterpret_cast<const float4*>(table + (long long)row * dim);
    float4* dst = reinterpret_cast<float4*>(out + (long long)i * dim);
    for (int c = lane; c < d4; c += 32) dst[c] = src[c];
}

extern "C" void launch_index_select_rows(const float* table, const int* idx, float* out, int n_idx, int dim,
                                         cudaStream_t stream)
{
    index_select_rows<<<(n_idx + WARPS - 1) / WARPS, THREADS, 0, stream>>>(table, idx, out, n_idx, dim);
}
