"""int4 weight dequantisation with per-group scales (low nibble first), templated cupy
RawModule kernel with one thread per 16 packed bytes (a uint4 load): 32 values and one scale
(GROUP >= 32), eight float4 stores; a warp's lanes write rows of 128 bytes 128 bytes apart."""
import cupy as cp
import numpy as np

_SRC = r"""
template <int GROUP>
__global__ void dequant_vec32(const uint4* __restrict__ packed, const float* __restrict__ scales,
                              float4* __restrict__ out, long long chunks, int cols)
{
    long long k = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (k >= chunks) return;
    const int chunks_per_row = cols / 32;
    long long r = k / chunks_per_row;
    int c = (int)(k - r * chunks_per_row) * 32;
    uint4 bits = packed[k];
    float s = scales[r * (cols / GROUP) + c / GROUP];
    unsigned int w[4] = {bits.x, bits.y, bits.z, bits.w};
    float4* o = out + k * 8;
#pragma unroll
    for (int q = 0; q < 4; ++q) {
        float v[8];
#pragma unroll
        for (int e = 0; e < 8; ++e) v[e] = (float)((int)((w[q] >> (4 * e)) & 0xFu) - 8) * s;
        o[2 * q] = make_float4(v[0], v[1], v[2], v[3]);
        o[2 * q + 1] = make_float4(v[4], v[5], v[6], v[7]);
    }
}
"""

GROUPS = (32, 64, 128, 256)
_names = [f"dequant_vec32<{g}>" for g in GROUPS]
_module = cp.RawModule(code=_SRC, name_expressions=_names)
_kernels = {g: _module.get_function(n) for g, n in zip(GROUPS, _names)}


def dequant_int4(packed, scales, group_size):
    packed = cp.ascontiguousarray(packed, dtype=cp.uint8)
    scales = cp.ascontiguousarray(scales, dtype=cp.float32)
    rows, half = packed.shape
    cols = half * 2
    out = cp.empty((rows, cols), dtype=cp.float32)
    if cols % 32:
        raise ValueError("cols must be a multiple of 32")
    chunks = packed.size // 16
    threads = 128
    _kernels[group_size](((chunks + threads - 1) // threads,), (threads,),
                         (packed, scales, out, np.int64(chunks), np.int32(cols)))
    return out
