"""int4 weight dequantisation with per-group scales (low nibble first), templated cupy
RawModule kernel with one thread per output value: each packed byte is read by the two
threads of its pair, and each thread picks its nibble by the column's parity."""
import cupy as cp
import numpy as np

_SRC = r"""
template <int GROUP>
__global__ void dequant_elem(const unsigned char* __restrict__ packed, const float* __restrict__ scales,
                             float* __restrict__ out, long long total, int cols)
{
    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= total) return;
    long long r = i / cols;
    int c = (int)(i - r * cols);
    unsigned int byte = packed[i >> 1];
    unsigned int q = (c & 1) ? (byte >> 4) : (byte & 0xFu);
    out[i] = (float)((int)q - 8) * scales[r * (cols / GROUP) + c / GROUP];
}
"""

GROUPS = (32, 64, 128, 256)
_names = [f"dequant_elem<{g}>" for g in GROUPS]
_module = cp.RawModule(code=_SRC, name_expressions=_names)
_kernels = {g: _module.get_function(n) for g, n in zip(GROUPS, _names)}


def dequant_int4(packed, scales, group_size):
    packed = cp.ascontiguousarray(packed, dtype=cp.uint8)
    scales = cp.ascontiguousarray(scales, dtype=cp.float32)
    rows, half = packed.shape
    cols = half * 2
    out = cp.empty((rows, cols), dtype=cp.float32)
    total = out.size
    threads = 256
    _kernels[group_size](((total + threads - 1) // threads,), (threads,),
                         (packed, scales, out, np.int64(total), np.int32(cols)))
    return out
