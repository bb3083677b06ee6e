// Embedding lookup, one thread per looked-up row copying dim floats: neighbouring
// threads copy different rows, so every warp access is scattered (uncoalesced).
#include <cuda_runtime.h>

#define THREADS 128

// kforecast: num_idx = 65536; vocab = 32768; dim = 256; idx: i32[num_idx] randint(0,32768); table: f32[vocab, dim] randn; out: f32[num_idx, dim]; rtol = 0; atol = 0
__global__ void embedding_gather(const int* __restrict__ idx, const float* __restrict__ table,
                                 float* __restrict__ out, int num_idx, int vocab, int dim)
{
    const int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= num_idx) return;
    const int tok = idx[r];
    const bool valid = tok >= 0 && tok < vocab;
    const float* src = table + (size_t)(valid ? tok : 0) * dim;
    float* dst = out + (size_t)r * dim;
    for (int c = 0; c < dim; ++c) dst[c] = valid ? src[c] : 0.0f;
}

extern "C" void launch_embedding_gather(const int* idx, const float* table, float* out, int num_idx, int vocab,
                                        int dim, cudaStream_t stream)
{
    embedding_gather<<<(num_idx + THREADS - 1) / THREADS, THREADS, 0, stream>>>(idx, table, out, num_idx, vocab, dim);
}
