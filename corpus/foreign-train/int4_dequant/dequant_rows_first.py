"""int4 weight dequantisation with per-group scales (low nibble first), templated cupy
RawModule kernel with one thread per packed byte, the flat thread index running down the
rows first (byte (r, j) at t = j * rows + r): a warp touches 32 different rows."""
import cupy as cp
import numpy as np

_SRC = r"""
template <int GROUP>
__global__ void dequant_byte_colmajor(const unsigned char* __restrict__ packed,
                                      const float* __restrict__ scales, float* __restrict__ out,
                                      long long rows, int cols)
{
    long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    const int half_cols = cols / 2;
    if (t >= rows * half_cols) return;
    long long r = t % rows;
    int j = (int)(t / rows);
    int c = 2 * j;
    unsigned int byte = packed[r * half_cols + j];
    float s = scales[r * (cols / GROUP) + c / GROUP];
    out[r * cols + c] = (float)((int)(byte & 0xFu) - 8) * s;
    out[r * cols + c + 1] = (float)((int)(byte >> 4) - 8) * s;
}
"""

GROUPS = (32, 64, 128, 256)
_names = [f"dequant_byte_colmajor<{g}>" for g in GROUPS]
_module = cp.RawModule(code=_SRC, name_expressions=_names)
_kernels = {g: _module.get_function(n) for g, n in zip(GROUPS, _names)}


def dequant_int4(packed, scales, group_size):
    packed = cp.ascontiguousarray(packed, dtype=cp.uint8)
    scales = cp.ascontiguousarray(scales, dtype=cp.float32)
    rows, half = packed.shape
    cols = half * 2
    out = cp.empty((rows, cols), dtype=cp.float32)
    nbytes = packed.size
    threads = 256
    _kernels[group_size](((nbytes + threads - 1) // threads,), (threads,),
                         (packed, scales, out, np.int64(rows), np.int32(cols)))
    return out
