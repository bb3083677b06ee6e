"""5x5 Gaussian blur as two 1-D passes (rows, then columns) through a temporary image."""
import cupy as cp
import numpy as np

horizontal = cp.RawKernel(r"""
extern "C" __global__ void blur_rows5(const float* in, const float* taps, float* tmp, int h, int w) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y;
    if (x >= w) return;
    const float* row = in + (size_t)y * w;
    float s = 0.f;
    for (int k = -2; k <= 2; ++k) {
        int xx = x + k;
        if (xx >= 0 && xx < w) s += taps[k + 2] * row[xx];
    }
    tmp[(size_t)y * w + x] = s;
}
""", "blur_rows5")

vertical = cp.RawKernel(r"""
extern "C" __global__ void blur_cols5(const float* tmp, const float* taps, float* out, int h, int w) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y;
    if (x >= w) return;
    float s = 0.f;
    for (int k = -2; k <= 2; ++k) {
        int yy = y + k;
        if (yy >= 0 && yy < h) s += taps[k + 2] * tmp[(size_t)yy * w + x];
    }
    out[(size_t)y * w + x] = s;
}
""", "blur_cols5")


def gaussian_blur(img, taps):
    img = cp.ascontiguousarray(img)
    h, w = img.shape
    taps = cp.ascontiguousarray(taps, dtype=cp.float32)
    tmp = cp.empty_like(img)
    out = cp.empty_like(img)
    threads = 256
    grid = ((w + threads - 1) // threads, h)
    horizontal(grid, (threads,), (img, taps, tmp, np.int32(h), np.int32(w)))
    vertical(grid, (threads,), (tmp, taps, out, np.int32(h), np.int32(w)))
    return out
