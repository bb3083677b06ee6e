"""5x5 Gaussian blur, separable inside one kernel: the tile plus halo goes to shared memory,
the row pass writes a second shared buffer, the column pass reads it."""
import cupy as cp
import numpy as np

SRC = r"""
#define TW 64
#define TH 16
#define RAD 2

extern "C" __global__
void gblur_sep_shared(const float* __restrict__ in, const float* __restrict__ taps,
                      float* __restrict__ out, int h, int w)
{
    __shared__ float s_in[TH + 2 * RAD][TW + 2 * RAD];
    __shared__ float s_row[TH + 2 * RAD][TW];
    const int x0 = blockIdx.x * TW, y0 = blockIdx.y * TH;
    const int nthreads = blockDim.x * blockDim.y;
    const int t = threadIdx.y * blockDim.x + threadIdx.x;
    float k[5];
#pragma unroll
    for (int i = 0; i < 5; ++i) k[i] = taps[i];

    for (int i = t; i < (TH + 2 * RAD) * (TW + 2 * RAD); i += nthreads) {
        int ly = i / (TW + 2 * RAD), lx = i - ly * (TW + 2 * RAD);
        int gy = y0 + ly - RAD, gx = x0 + lx - RAD;
        s_in[ly][lx] = (gy >= 0 && gy < h && gx >= 0 && gx < w) ? in[(size_t)gy * w + gx] : 0.f;
    }
    __syncthreads();
    for (int i = t; i < (TH + 2 * RAD) * TW; i += nthreads) {
        int ly = i / TW, lx = i - ly * TW;
        float s = 0.f;
#pragma unroll
        for (int j = 0; j < 5; ++j) s += k[j] * s_in[ly][lx + j];
        s_row[ly][lx] = s;
    }
    __syncthreads();
    for (int i = t; i < TH * TW; i += nthreads) {
        int ly = i / TW, lx = i - ly * TW;
        int gy = y0 + ly, gx = x0 + lx;
        if (gy >= h || gx >= w) continue;
        float s = 0.f;
#pragma unroll
        for (int j = 0; j < 5; ++j) s += k[j] * s_row[ly + j][lx];
        out[(size_t)gy * w + gx] = s;
    }
}
"""

kernel = cp.RawKernel(SRC, "gblur_sep_shared")


def gaussian_blur(img, taps):
    img = cp.ascontiguousarray(img)
    h, w = img.shape
    out = cp.empty_like(img)
    kernel(((w + 63) // 64, (h + 15) // 16), (64, 4), (img, taps, out, np.int32(h), np.int32(w)))
    return out
