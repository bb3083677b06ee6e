// Row gather, one block of 128 threads per output row with float4 copies
// (dim % 4 == 0): a 512-wide row is exactly one float4 per thread.
#include <cuda_runtime.h>

#define THREADS 128

// kforecast: n_idx = 65536; n_rows = 50000; dim = 512; table: f32[n_rows, dim] randn; idx: i32[n_idx] randint(0,50000); out: f32[n_idx, dim]; rtol = 0; atol = 0
__global__ void __launch_bounds__(THREADS)
index_select_rows(const float* __restrict__ table, const int* __restrict__ idx, float* __restrict__ out,
                  int n_idx, int dim)
{
    const int i = blockIdx.x;
    const int d4 = dim >> 2;
    const float4* src = reinterpret_cast<const float4*>(table + (long long)idx[i] * dim);
    float4* dst = reinterpret_cast<float4*>(out + (long long)i * dim);
    for (int c = threadIdx.x; c < d4; c += THREADS) dst[c] = src[c];
}

extern "C" void launch_index_select_rows(const float* table, const int* idx, float* out, int n_idx, int dim,
                                         cudaStream_t stream)
{
    index_select_rows<<<n_idx, THREADS, 0, stream>>>(table, idx, out, n_idx, dim);
}
