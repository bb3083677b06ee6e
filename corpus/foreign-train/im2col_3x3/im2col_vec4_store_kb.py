import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>

__device__ __forceinline__ float fetch_padded(const float* plane, int y, int x, int H, int W) {
    return (y >= 0 && y < H && x >= 0 && x < W) ? plane[y * W + x] : 0.0f;
}

__device__ __forceinline__ void store4(float* dst, float a, float b, float c, float d) {
    *reinterpret_cast<float4*>(dst) = make_float4(a, b, c, d);
}

// one thread per four consecutive columns p .. p+3 of one row (n, c, k): scalar padded loads,
// one float4 store (needs L % 4 == 0; the host falls back to the scalar kernel otherwise)
__global__ void im2col3x3_vec4(const float* __restrict__ in, float* __restrict__ col,
                               int C, int H, int W, long long quads) {
    long long q = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (q >= quads) return;
    const int L = H * W;
    const int L4 = L / 4;
    const int p0 = (int)(q % L4) * 4;
    const long long r = q / L4;
    const int k = (int)(r % 9);
    const long long nc = r / 9;
    const float* plane = in + nc * L;
    const int dy = k / 3 - 1, dx = k % 3 - 1;
    float v[4];
#pragma unroll
    for (int e = 0; e < 4; ++e) {
        const int p = p0 + e;
        v[e] = fetch_padded(plane, p / W + dy, p % W + dx, H, W);
    }
    store4(col + r * L + p0, v[0], v[1], v[2], v[3]);
}

__global__ void im2col3x3_scalar(const float* __restrict__ in, float* __restrict__ col,
                                 int C, int H, int W, long long total) {
    long long idx = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (idx >= total) return;
    const int L = H * W;
    const int p = (int)(idx % L);
    const long long r = idx / L;
    const int k = (int)(r % 9);
    col[idx] = fetch_padded(in + (r / 9) * L, p / W + k / 3 - 1, p % W + k % 3 - 1, H, W);
}

torch::Tensor im2col3x3(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda() && x.dim() == 4, "x must be a 4-D CUDA tensor");
    const int N = x.size(0), C = x.size(1), H = x.size(2), W = x.size(3);
    auto col = torch::empty({(int64_t)N, (int64_t)C * 9, (int64_t)H * W}, x.options());
    const long long total = (long long)N * C * 9 * H * W;
    const int threads = 256;
    if ((H * W) % 4 == 0) {
        const long long quads = total / 4;
        im2col3x3_vec4<<<(unsigned)((quads + threads - 1) / threads), threads>>>(
            x.data_ptr<float>(), col.data_ptr<float>(), C, H, W, quads);
    } else {
        im2col3x3_scalar<<<(unsigned)((total + threads - 1) / threads), threads>>>(
            x.data_ptr<float>(), col.data_ptr<float>(), C, H, W, total);
    }
    return col;
}
"""

cpp_src = "torch::Tensor im2col3x3(torch::Tensor x);"

im2col_ext = load_inline(
    name="im2col_vec4",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["im2col3x3"],
    verbose=False,
)


class ModelNew(nn.Module):
    """im2col for a 3x3 convolution with padding 1 and stride 1 (what F.unfold(x, 3, padding=1) gives)."""

    def __init__(self) -> None:
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return im2col_ext.im2col3x3(x.contiguous())


batch_size = 8
channels = 64
height = 112
width = 112


def get_inputs():
    return [torch.randn(batch_size, channels, height, width).cuda()]


def get_init_inputs():
    return []
