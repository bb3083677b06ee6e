// Row gather, one thread per output row copying all dim columns: neighbouring
// threads touch different rows, so every warp load and store is scattered.
#include <cuda_runtime.h>

#define THREADS 128

// kforecast: n_idx = 65536; n_rows = 50000; dim = 512; table: f32[n_rows, dim] randn; idx: i32[n_idx] randint(0,50000); out: f32[n_idx, dim]; rtol = 0; atol = 0
__global__ void index_select_rows(const float* __restrict__ table, const int* __restrict__ idx,
                                  float* __restrict__ out, int n_idx, int dim)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n_idx) return;
    const float* src = table + (long long)idx[i] * dim;
    float* dst = out + (long long)i * dim;
    for (int c = 0; c < dim; ++c) dst[c] = src[c];
}

extern "C" void launch_index_select_rows(const float* table, const int* idx, float* out, int n_idx, int dim,
                                         cudaStream_t stream)
{
    index_select_rows<<<(n_idx + THREADS - 1) / THREADS, THREADS, 0, stream>>>(table, idx, out, n_idx, dim);
}
