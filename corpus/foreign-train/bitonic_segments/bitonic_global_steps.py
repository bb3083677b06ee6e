"""Sorts every 1024-element segment of a float32 array (ascending) with a bitonic network run
step by step from the host: one launch per (stage k, distance j) pair, each thread owning one
element and swapping with its partner i ^ j in global memory."""
import cupy as cp
import numpy as np

_SRC = r"""
template <int SEG>
__global__ void bitonic_global_step(float* data, long long total, int j, int k)
{
    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= total) return;
    long long partner = i ^ j;
    if (partner <= i) return;
    int lo = (int)(i & (SEG - 1));
    bool ascending = (lo & k) == 0;
    float a = data[i];
    float b = data[partner];
    if ((a > b) == ascending) {
        data[i] = b;
        data[partner] = a;
    }
}
"""

SEG = 1024
_NAME = f"bitonic_global_step<{SEG}>"
_module = cp.RawModule(code=_SRC, name_expressions=[_NAME])
_step = _module.get_function(_NAME)
THREADS = 256


def sort_segments(x):
    """x: [segments, 1024] float32 -> a sorted copy (each row ascending)."""
    assert x.shape[-1] == SEG
    out = cp.array(x, dtype=cp.float32, copy=True, order="C")
    total = out.size
    blocks = (total + THREADS - 1) // THREADS
    k = 2
    while k <= SEG:
        j = k // 2
        while j > 0:
            _step((blocks,), (THREADS,), (out, np.int64(total), np.int32(j), np.int32(k)))
            j //= 2
        k *= 2
    return out
