// Embedding lookup on a 2-D grid: blockIdx.y picks the looked-up row, the 256
// threads of a block copy one float each (scalar but coalesced, no division).
#include <cuda_runtime.h>

#define THREADS 256

// kforecast: num_idx = 65536; vocab = 32768; dim = 256; idx: i32[num_idx] randint(0,32768); table: f32[vocab, dim] randn; out: f32[num_idx, dim]; rtol = 0; atol = 0
__global__ void embedding_gather(const int* __restrict__ idx, const float* __restrict__ table,
                                 float* __restrict__ out, int num_idx, int vocab, int dim)
{
    const int r = blockIdx.y;
    const int c = blockIdx.x * THREADS + threadIdx.x;
    if (c >= dim) return;
    const int tok = __ldg(&idx[r]);
    out[(size_t)r * dim + c] = (tok >= 0 && tok < vocab) ? table[(size_t)tok * dim + c] : 0.0f;
}

extern "C" void launch_embedding_gather(const int* idx, const float* table, float* out, int num_idx, int vocab,
                                        int dim, cudaStream_t stream)
{
    dim3 block(THREADS);
    dim3 grid((dim + THREADS - 1) / THREADS, num_idx);
    embedding_gather<<<grid, block, 0, stream>>>(idx, table, out, num_idx, vocab, dim);
}
