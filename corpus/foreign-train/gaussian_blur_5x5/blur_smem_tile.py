"""5x5 Gaussian blur, the block's 32x16 tile and its 2-pixel halo staged in shared memory."""
import cupy as cp
import numpy as np

_code = r"""
#define BX 32
#define BY 16
#define R 2

extern "C" __global__
void gaussian_blur_tiled(const float* __restrict__ src, const float* __restrict__ k2d,
                         float* __restrict__ dst, int rows, int cols)
{
    __shared__ float patch[BY + 2 * R][BX + 2 * R];
    __shared__ float wk[25];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int col0 = blockIdx.x * BX, row0 = blockIdx.y * BY;
    const int tid = ty * BX + tx;
    if (tid < 25) wk[tid] = k2d[tid];
    for (int i = tid; i < (BY + 2 * R) * (BX + 2 * R); i += BX * BY) {
        int py = i / (BX + 2 * R), px = i % (BX + 2 * R);
        int gy = row0 + py - R, gx = col0 + px - R;
        patch[py][px] = (gy >= 0 && gy < rows && gx >= 0 && gx < cols) ? src[(size_t)gy * cols + gx] : 0.0f;
    }
    __syncthreads();
    const int c = col0 + tx, r = row0 + ty;
    if (c >= cols || r >= rows) return;
    float acc = 0.0f;
#pragma unroll
    for (int i = 0; i < 5; ++i)
#pragma unroll
        for (int j = 0; j < 5; ++j)
            acc += wk[i * 5 + j] * patch[ty + i][tx + j];
    dst[(size_t)r * cols + c] = acc;
}
"""

_kern = cp.RawKernel(_code, "gaussian_blur_tiled")


def gaussian_blur(img, taps):
    img = cp.ascontiguousarray(img)
    rows, cols = img.shape
    k2d = (taps[:, None] * taps[None, :]).astype(cp.float32).reshape(-1)
    out = cp.empty_like(img)
    _kern(((cols + 31) // 32, (rows + 15) // 16), (32, 16), (img, k2d, out, np.int32(rows), np.int32(cols)))
    return out
