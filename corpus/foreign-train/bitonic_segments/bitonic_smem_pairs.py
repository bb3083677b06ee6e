"""Sorts every 1024-element segment (ascending) in one launch: a block per segment copies it
into shared memory, runs the whole bitonic network there with SEG/2 threads that each own one
compare-exchange per step, and writes it back."""
import cupy as cp

_SRC = r"""
template <int SEG, int THREADS>
__global__ void segment_sort_shared(const float* __restrict__ in, float* __restrict__ out)
{
    __shared__ float s[SEG];
    const float* src = in + (size_t)blockIdx.x * SEG;
    float* dst = out + (size_t)blockIdx.x * SEG;
    for (int t = threadIdx.x; t < SEG; t += THREADS) s[t] = src[t];
    __syncthreads();

    for (int k = 2; k <= SEG; k <<= 1) {
        for (int j = k >> 1; j > 0; j >>= 1) {
            for (int p = threadIdx.x; p < SEG / 2; p += THREADS) {
                // p-th pair of this step: insert a zero bit at position log2(j)
                int i = ((p & ~(j - 1)) << 1) | (p & (j - 1));
                int partner = i | j;
                bool ascending = (i & k) == 0;
                float a = s[i];
                float b = s[partner];
                if ((a > b) == ascending) {
                    s[i] = b;
                    s[partner] = a;
                }
            }
            __syncthreads();
        }
    }
    for (int t = threadIdx.x; t < SEG; t += THREADS) dst[t] = s[t];
}
"""

SEG = 1024
THREADS = 512
_NAME = f"segment_sort_shared<{SEG}, {THREADS}>"
_module = cp.RawModule(code=_SRC, name_expressions=[_NAME])
_sort = _module.get_function(_NAME)


def sort_segments(x):
    assert x.shape[-1] == SEG
    x = cp.ascontiguousarray(x, dtype=cp.float32)
    out = cp.empty_like(x)
    segments = x.size // SEG
    _sort((segments,), (THREADS,), (x, out))
    return out
