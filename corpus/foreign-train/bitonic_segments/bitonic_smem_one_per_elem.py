"""Sorts every 1024-element segment (ascending) in one launch with a 1024-thread block per
segment: each thread owns one element of the shared-memory copy and, at every step of the
bitonic network, the lower thread of each pair does the compare-exchange (half the threads
idle at each step)."""
import cupy as cp

_SRC = r"""
template <int SEG>
__global__ void bitonic_block_elem(const float* __restrict__ in, float* __restrict__ out)
{
    __shared__ float keys[SEG];
    const int t = threadIdx.x;
    keys[t] = in[(size_t)blockIdx.x * SEG + t];
    __syncthreads();
    for (int k = 2; k <= SEG; k <<= 1) {
        for (int j = k >> 1; j > 0; j >>= 1) {
            int partner = t ^ j;
            if (partner > t) {
                float a = keys[t];
                float b = keys[partner];
                bool up = (t & k) == 0;
                if (up ? (a > b) : (a < b)) {
                    keys[t] = b;
                    keys[partner] = a;
                }
            }
            __syncthreads();
        }
    }
    out[(size_t)blockIdx.x * SEG + t] = keys[t];
}
"""

SEG = 1024
_kernel_name = "bitonic_block_elem<1024>"
_mod = cp.RawModule(code=_SRC, name_expressions=[_kernel_name])
_kernel = _mod.get_function(_kernel_name)


def sort_segments(x):
    if x.shape[-1] != SEG:
        raise ValueError("rows must hold 1024 elements")
    x = cp.ascontiguousarray(x, dtype=cp.float32)
    out = cp.empty_like(x)
    _kernel((x.size // SEG,), (SEG,), (x, out))
    return out
