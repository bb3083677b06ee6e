"""int4 weight dequantisation with per-group scales (low nibble first), templated cupy
RawModule kernel with one thread per 32-bit word of packed data: eight values, one scale
(GROUP >= 8), two float4 stores. Needs cols % 8 == 0 (true of every weight shape here)."""
import cupy as cp
import numpy as np

_SRC = r"""
template <int GROUP>
__global__ void dequant_word8(const unsigned int* __restrict__ packed, const float* __restrict__ scales,
                              float4* __restrict__ out, long long words, int cols)
{
    long long w = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (w >= words) return;
    const int words_per_row = cols / 8;
    long long r = w / words_per_row;
    int c = (int)(w - r * words_per_row) * 8;
    unsigned int bits = packed[w];
    float s = scales[r * (cols / GROUP) + c / GROUP];
    float v[8];
#pragma unroll
    for (int e = 0; e < 8; ++e) v[e] = (float)((int)((bits >> (4 * e)) & 0xFu) - 8) * s;
    out[2 * w] = make_float4(v[0], v[1], v[2], v[3]);
    out[2 * w + 1] = make_float4(v[4], v[5], v[6], v[7]);
}
"""

GROUPS = (32, 64, 128, 256)
_names = [f"dequant_word8<{g}>" for g in GROUPS]
_module = cp.RawModule(code=_SRC, name_expressions=_names)
_kernels = {g: _module.get_function(n) for g, n in zip(GROUPS, _names)}


def dequant_int4(packed, scales, group_size):
    packed = cp.ascontiguousarray(packed, dtype=cp.uint8)
    scales = cp.ascontiguousarray(scales, dtype=cp.float32)
    rows, half = packed.shape
    cols = half * 2
    out = cp.empty((rows, cols), dtype=cp.float32)
    if cols % 8:
        raise ValueError("cols must be a multiple of 8")
    words = packed.size // 4
    threads = 256
    _kernels[group_size](((words + threads - 1) // threads,), (threads,),
                         (packed, scales, out, np.int64(words), np.int32(cols)))
    return out
