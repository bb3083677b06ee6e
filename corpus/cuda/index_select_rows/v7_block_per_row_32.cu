// Row gather, one tiny block of 32 threads per output row, scalar loads: 65536
// one-warp blocks, so the per-SM block limit caps occupancy at half.
#include <cuda_runtime.h>

#define THREADS 32

// kforecast: n_idx = 65536; n_rows = 50000; dim = 512; table: f32[n_rows, dim] randn; idx: i32[n_idx] randint(0,50000); out: f32[n_idx, dim]; rtol = 0; atol = 0
__global__ void index_select_rows(const float* __restrict__ table, const int* __restrict__ idx,
                                  float* __restrict__ out, int n_idx, int dim)
{
    const int i = blockIdx.x;
    const float* src = table + (long long)idx[i] * dim;
    float* dst = out + (long long)i * dim;
    for (int c = threadIdx.x; c < dim; c += THREADS) dst[c] = src[c];
}

extern "C" void launch_index_select_rows(const float* table, const int* idx, float* out, int n_idx, int dim,
                                         cudaStream_t stream)
{
    index_select_rows<<<n_idx, THREADS, 0, stream>>>(table, idx, out, n_idx, dim);
}
