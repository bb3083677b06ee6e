// Embedding lookup, one warp per looked-up row, float4 copies (dim % 4 == 0):
// lane 0 reads the index and broadcasts it with a shuffle.
#include <cuda_runtime.h>

#define THREADS   256
#define WARPS     (THREADS / 32)
#define FULL_MASK 0xffffffffu

// kforecast: num_idx = 65536; vocab = 32768; dim = 256; idx: i32[num_idx] randint(0,32768); table: f32[vocab, dim] randn; out: f32[num_idx, dim]; rtol = 0; atol = 0
__global__ void __launch_bounds__(THREADS)
embedding_gather(const int* __restrict__ idx, const float* __restrict__ table, float* __restrict__ out,
                 int num_idx, int vocab, int dim)
{
    const int lane = threadIdx.x & 31;
    const int r = blockIdx.x * WARPS + (threadIdx.x >> 5);
    if (r >= num_idx) return;
    int tok = lane == 0 ? idx[r] : 0;
    tok = __shfl_sync(FULL_MASK, tok, 0);
    const int d4 = dim >> 2;
    float4* dst = reinterpret_cast<float4*>(out + (size_t)r * dim);
    if (tok < 0 || tok >= vocab) {
        for (int c = lane; c < d4; c += 32) dst[c] = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
        return;
    }
    const float4* src = reinterpret_cast<const float4*>(table + (size_t)tok * dim);
    for (int c = lane; c < d4; c += 32) dst[c] = src[c];
}

extern "C" void launch_embedding_gather(const int* idx, const float* table, float* out, int num_idx, int vocab,
                                        int dim, cudaStream_t stream)
{
    embedding_gather<<<(num_idx + WARPS - 1) / WARPS, THREADS, 0, stream>>>(idx, table, out, num_idx, vocab, dim);
}
