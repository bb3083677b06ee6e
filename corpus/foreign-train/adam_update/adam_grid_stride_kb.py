import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_code = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <vector>

__global__ void adam_grid_stride(const float* __restrict__ param, const float* __restrict__ grad,
                                 const float* __restrict__ exp_avg, const float* __restrict__ exp_avg_sq,
                                 float* __restrict__ param_out, float* __restrict__ exp_avg_out,
                                 float* __restrict__ exp_avg_sq_out, long n,
                                 float lr, float beta1, float beta2, float eps, float bc1, float bc2) {
    for (long i = blockIdx.x * (long)blockDim.x + threadIdx.x; i < n; i += (long)gridDim.x * blockDim.x) {
        const float g = grad[i];
        const float m = beta1 * exp_avg[i] + (1.0f - beta1) * g;
        const float v = beta2 * exp_avg_sq[i] + (1.0f - beta2) * g * g;
        exp_avg_out[i] = m;
        exp_avg_sq_out[i] = v;
        param_out[i] = param[i] - lr * (m / bc1) / (sqrtf(v / bc2) + eps);
    }
}

std::vector<torch::Tensor> adam_update(torch::Tensor param, torch::Tensor grad, torch::Tensor exp_avg,
                                       torch::Tensor exp_avg_sq, double lr, double beta1, double beta2,
                                       double eps, int64_t step) {
    auto param_out = torch::empty_like(param);
    auto exp_avg_out = torch::empty_like(exp_avg);
    auto exp_avg_sq_out = torch::empty_like(exp_avg_sq);
    const long n = param.numel();
    int dev = 0, sms = 0;
    cudaGetDevice(&dev);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    const int threads = 256;
    long want = (n + threads - 1) / threads;
    int blocks = (int)(want < (long)sms * 8 ? want : (long)sms * 8);
    float bc1 = 1.0f - powf((float)beta1, (float)step);
    float bc2 = 1.0f - powf((float)beta2, (float)step);
    adam_grid_stride<<<blocks, threads>>>(param.data_ptr<float>(), grad.data_ptr<float>(),
                                          exp_avg.data_ptr<float>(), exp_avg_sq.data_ptr<float>(),
                                          param_out.data_ptr<float>(), exp_avg_out.data_ptr<float>(),
                                          exp_avg_sq_out.data_ptr<float>(), n, (float)lr, (float)beta1,
                                          (float)beta2, (float)eps, bc1, bc2);
    return {param_out, exp_avg_out, exp_avg_sq_out};
}
"""

cpp_code = ("std::vector<torch::Tensor> adam_update(torch::Tensor param, torch::Tensor grad, torch::Tensor exp_avg, "
            "torch::Tensor exp_avg_sq, double lr, double beta1, double beta2, double eps, int64_t step);")

adam_ext = load_inline(
    name="adam_ext",
    cpp_sources=cpp_code,
    cuda_sources=cuda_code,
    functions=["adam_update"],
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self, lr=1e-3, beta1=0.9, beta2=0.999, eps=1e-8, step=10):
        super().__init__()
        self.lr, self.beta1, self.beta2, self.eps, self.step = lr, beta1, beta2, eps, step

    def forward(self, param, grad, exp_avg, exp_avg_sq):
        return adam_ext.adam_update(param, grad, exp_avg, exp_avg_sq,
                                    self.lr, self.beta1, self.beta2, self.eps, self.step)


def get_inputs():
    n = 16777216
    return [torch.randn(n, device="cuda"), torch.randn(n, device="cuda"),
            torch.zeros(n, device="cuda"), torch.zeros(n, device="cuda")]


def get_init_inputs():
    return [1e-3, 0.9, 0.999, 1e-8, 10]
