"""Sorts every 1024-element segment (ascending) with the bitonic network split the way big
bitonic sorts split it: one launch sorts 256-element chunks in shared memory (all stages
k <= 256); for each later stage, global-memory launches do the long distances j >= 256 and a
shared-memory launch finishes the distances j < 256 chunk by chunk. Six launches in all."""
import cupy as cp
import numpy as np

_SRC = r"""
template <int SEG>
__global__ void merge_global(float* data, long long total, int j, int k)
{
    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= total) return;
    long long partner = i ^ j;
    if (partner <= i) return;
    bool ascending = ((int)(i & (SEG - 1)) & k) == 0;
    float a = data[i], b = data[partner];
    if ((a > b) == ascending) { data[i] = b; data[partner] = a; }
}

// steps (k, j) for j < CHUNK: chunk-local, in shared memory. k_first..k_last are the stages to
// run (all of them when sorting chunks from scratch, one stage when finishing a merge).
template <int SEG, int CHUNK>
__global__ void chunk_steps_shared(const float* src, float* dst, int k_first, int k_last, int j_first)
{
    __shared__ float s[CHUNK];
    const size_t base = (size_t)blockIdx.x * CHUNK;
    const int seg_off = (int)(base & (SEG - 1));
    for (int t = threadIdx.x; t < CHUNK; t += blockDim.x) s[t] = src[base + t];
    __syncthreads();
    for (int k = k_first; k <= k_last; k <<= 1) {
        int j0 = k >> 1;
        if (j0 > j_first) j0 = j_first;
        for (int j = j0; j > 0; j >>= 1) {
            for (int p = threadIdx.x; p < CHUNK / 2; p += blockDim.x) {
                int i = ((p & ~(j - 1)) << 1) | (p & (j - 1));
                bool ascending = ((seg_off + i) & k) == 0;
                float a = s[i], b = s[i | j];
                if ((a > b) == ascending) { s[i] = b; s[i | j] = a; }
            }
            __syncthreads();
        }
    }
    for (int t = threadIdx.x; t < CHUNK; t += blockDim.x) dst[base + t] = s[t];
}
"""

SEG, CHUNK = 1024, 256
_names = [f"merge_global<{SEG}>", f"chunk_steps_shared<{SEG}, {CHUNK}>"]
_module = cp.RawModule(code=_SRC, name_expressions=_names)
_merge_global = _module.get_function(_names[0])
_chunk_steps = _module.get_function(_names[1])
THREADS = 256


def sort_segments(x):
    assert x.shape[-1] == SEG
    x = cp.ascontiguousarray(x, dtype=cp.float32)
    out = cp.empty_like(x)
    total = x.size
    chunks = total // CHUNK
    # stages 2..CHUNK entirely inside each chunk, reading the input, writing the output
    _chunk_steps((chunks,), (CHUNK // 2,), (x, out, np.int32(2), np.int32(CHUNK), np.int32(CHUNK)))
    blocks = (total + THREADS - 1) // THREADS
    k = 2 * CHUNK
    while k <= SEG:
        j = k // 2
        while j >= CHUNK:
            _merge_global((blocks,), (THREADS,), (out, np.int64(total), np.int32(j), np.int32(k)))
            j //= 2
        _chunk_steps((chunks,), (CHUNK // 2,), (out, out, np.int32(k), np.int32(k), np.int32(CHUNK // 2)))
        k *= 2
    return out
