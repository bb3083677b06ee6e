// Embedding lookup: out[r, :] = table[idx[r], :] (rows of an out-of-range index are
// zero). One thread per output element; row and column by division.
#include <cuda_runtime.h>

#define THREADS 256

// kforecast: num_idx = 65536; vocab = 32768; dim = 256; idx: i32[num_idx] randint(0,32768); table: f32[vocab, dim] randn; out: f32[num_idx, dim]; rtol = 0; atol = 0
__global__ void embedding_gather(const int* __restrict__ idx, const float* __restrict__ table,
                                 float* __restrict__ out, int num_idx, int vocab, int dim)
{
    const long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (e >= (long long)num_idx * dim) return;
    const int r = (int)(e / dim);
    const int c = (int)(e % dim);
    const int tok = idx[r];
    out[e] = (tok >= 0 && tok < vocab) ? table[(size_t)tok * dim + c] : 0.0f;
}

extern "C" void launch_embedding_gather(const int* idx, const float* table, float* out, int num_idx, int vocab,
                                        int dim, cudaStream_t stream)
{
    const int blocks = (num_idx * dim + THREADS - 1) / THREADS;
    embedding_gather<<<blocks, THREADS, 0, stream>>>(idx, table, out, num_idx, vocab, dim);
}
