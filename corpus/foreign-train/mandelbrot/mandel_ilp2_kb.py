import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

mandel_cuda = r"""
#include <torch/extension.h>

// the escape test spelled with round-to-nearest intrinsics so no multiply-add is fused
__device__ __forceinline__ int escape_count(float cx, float cy, int max_iter) {
    float x = 0.0f, y = 0.0f;
    int it = 0;
    while (it < max_iter) {
        float x2 = __fmul_rn(x, x);
        float y2 = __fmul_rn(y, y);
        if (__fadd_rn(x2, y2) > 4.0f) break;
        float xy = __fmul_rn(x, y);
        y = __fadd_rn(__fadd_rn(xy, xy), cy);
        x = __fadd_rn(__fsub_rn(x2, y2), cx);
        ++it;
    }
    return it;
}

// two pixels per thread (rows py and py + half the image apart), iterated together in one
// loop so their independent multiply chains overlap; each stops counting when it escapes
__global__ void mandelbrot_pair(int* __restrict__ counts, int width, int height, float x0,
                                float y0, float dx, float dy, int max_iter) {
    const int half = (height + 1) / 2;
    int px = blockIdx.x * blockDim.x + threadIdx.x;
    int pya = blockIdx.y * blockDim.y + threadIdx.y;
    int pyb = pya + half;
    if (px >= width || pya >= half) return;
    const bool has_b = pyb < height;
    float cx = __fadd_rn(x0, __fmul_rn((float)px, dx));
    float cya = __fadd_rn(y0, __fmul_rn((float)pya, dy));
    float cyb = __fadd_rn(y0, __fmul_rn((float)pyb, dy));
    float xa = 0.0f, ya = 0.0f, xb = 0.0f, yb = 0.0f;
    int ita = 0, itb = 0;
    bool live_a = true, live_b = has_b;
    for (int it = 0; it < max_iter && (live_a || live_b); ++it) {
        if (live_a) {
            float x2 = __fmul_rn(xa, xa), y2 = __fmul_rn(ya, ya);
            if (__fadd_rn(x2, y2) > 4.0f) {
                live_a = false;
            } else {
                float xy = __fmul_rn(xa, ya);
                ya = __fadd_rn(__fadd_rn(xy, xy), cya);
                xa = __fadd_rn(__fsub_rn(x2, y2), cx);
                ++ita;
            }
        }
        if (live_b) {
            float x2 = __fmul_rn(xb, xb), y2 = __fmul_rn(yb, yb);
            if (__fadd_rn(x2, y2) > 4.0f) {
                live_b = false;
            } else {
                float xy = __fmul_rn(xb, yb);
                yb = __fadd_rn(__fadd_rn(xy, xy), cyb);
                xb = __fadd_rn(__fsub_rn(x2, y2), cx);
                ++itb;
            }
        }
    }
    counts[(size_t)pya * width + px] = ita;
    if (has_b) counts[(size_t)pyb * width + px] = itb;
}

torch::Tensor mandelbrot(int64_t height, int64_t width, double x0, double y0, double dx, double dy,
                         int64_t max_iter) {
    auto counts = torch::empty({height, width}, torch::TensorOptions().dtype(torch::kInt32).device(torch::kCUDA));
    dim3 block(32, 8);
    const int half = (int)((height + 1) / 2);
    dim3 grid((width + 31) / 32, (half + 7) / 8);
    mandelbrot_pair<<<grid, block>>>(counts.data_ptr<int>(), (int)width, (int)height, (float)x0,
                                     (float)y0, (float)dx, (float)dy, (int)max_iter);
    return counts;
}
"""

mandel_cpp = ("torch::Tensor mandelbrot(int64_t height, int64_t width, double x0, double y0, double dx, "
              "double dy, int64_t max_iter);")

mandel = load_inline(
    name="mandel_ilp2",
    cpp_sources=mandel_cpp,
    cuda_sources=mandel_cuda,
    functions=["mandelbrot"],
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    """Escape counts of the Mandelbrot iteration over a view [x_min, x_max] x [y_min, y_max]."""

    def __init__(self, x_min, x_max, y_min, y_max):
        super().__init__()
        self.view = (x_min, x_max, y_min, y_max)

    def forward(self, height, width, max_iter):
        x_min, x_max, y_min, y_max = self.view
        dx = (x_max - x_min) / width
        dy = (y_max - y_min) / height
        return mandel.mandelbrot(height, width, x_min, y_min, dx, dy, max_iter)


def get_inputs():
    return [4096, 4096, 512]


def get_init_inputs():
    return [-2.2, 0.8, -1.5, 1.5]
