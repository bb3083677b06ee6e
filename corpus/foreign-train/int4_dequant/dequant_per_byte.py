"""int4 weight dequantisation with per-group scales, out[r, c] = (q[r, c] - 8) * scale[r, c // G],
two 4-bit values per byte (low nibble first). Templated cupy RawModule kernel, one thread per
packed byte writing its two outputs."""
import cupy as cp
import numpy as np

_SRC = r"""
template <int GROUP>
__global__ void dequant_byte(const unsigned char* __restrict__ packed, const float* __restrict__ scales,
                             float* __restrict__ out, long long nbytes, int cols)
{
    long long b = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (b >= nbytes) return;
    const int half_cols = cols / 2;
    long long r = b / half_cols;
    int c = (int)(b - r * half_cols) * 2;          // even column of the pair
    unsigned int byte = packed[b];
    float s = scales[r * (cols / GROUP) + c / GROUP];
    float* o = out + r * cols + c;
    o[0] = (float)((int)(byte & 0xFu) - 8) * s;
    o[1] = (float)((int)(byte >> 4) - 8) * s;
}
"""

GROUPS = (32, 64, 128, 256)
_names = [f"dequant_byte<{g}>" for g in GROUPS]
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
                         (packed, scales, out, np.int64(nbytes), np.int32(cols)))
    return out
