import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

# Adam step written as three elementwise kernels: first moment, second moment, parameter.
adam_cuda_source = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <vector>
#include <cmath>

__global__ void adam_first_moment_kernel(const float* m, const float* g, float* m_out, float beta1, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        m_out[i] = beta1 * m[i] + (1.0f - beta1) * g[i];
    }
}

__global__ void adam_second_moment_kernel(const float* v, const float* g, float* v_out, float beta2, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float gi = g[i];
        v_out[i] = beta2 * v[i] + (1.0f - beta2) * gi * gi;
    }
}

__global__ void adam_param_kernel(const float* p, const float* m, const float* v, float* p_out,
                                  float lr, float bc1, float bc2, float eps, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float m_hat = m[i] / bc1;
        float v_hat = v[i] / bc2;
        p_out[i] = p[i] - lr * m_hat / (sqrtf(v_hat) + eps);
    }
}

std::vector<torch::Tensor> adam_step_cuda(torch::Tensor param, torch::Tensor grad, torch::Tensor exp_avg,
                                          torch::Tensor exp_avg_sq, double lr, double beta1, double beta2,
                                          double eps, int64_t step) {
    int n = param.numel();
    auto p_out = torch::empty_like(param);
    auto m_out = torch::empty_like(exp_avg);
    auto v_out = torch::empty_like(exp_avg_sq);
    float bc1 = (float)(1.0 - std::pow(beta1, (double)step));
    float bc2 = (float)(1.0 - std::pow(beta2, (double)step));
    const int block_size = 256;
    const int num_blocks = (n + block_size - 1) / block_size;
    adam_first_moment_kernel<<<num_blocks, block_size>>>(exp_avg.data_ptr<float>(), grad.data_ptr<float>(),
                                                         m_out.data_ptr<float>(), (float)beta1, n);
    adam_second_moment_kernel<<<num_blocks, block_size>>>(exp_avg_sq.data_ptr<float>(), grad.data_ptr<float>(),
                                                          v_out.data_ptr<float>(), (float)beta2, n);
    adam_param_kernel<<<num_blocks, block_size>>>(param.data_ptr<float>(), m_out.data_ptr<float>(),
                                                  v_out.data_ptr<float>(), p_out.data_ptr<float>(),
                                                  (float)lr, bc1, bc2, (float)eps, n);
    return {p_out, m_out, v_out};
}
"""

adam_cpp_source = (
    "std::vector<torch::Tensor> adam_step_cuda(torch::Tensor param, torch::Tensor grad, torch::Tensor exp_avg, "
    "torch::Tensor exp_avg_sq, double lr, double beta1, double beta2, double eps, int64_t step);"
)

adam_step = load_inline(
    name="adam_step",
    cpp_sources=adam_cpp_source,
    cuda_sources=adam_cuda_source,
    functions=["adam_step_cuda"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self, lr, beta1, beta2, eps, step):
        super().__init__()
        self.lr, self.beta1, self.beta2, self.eps, self.step = lr, beta1, beta2, eps, step
        self.adam_step = adam_step

    def forward(self, param, grad, exp_avg, exp_avg_sq):
        return self.adam_step.adam_step_cuda(param, grad, exp_avg, exp_avg_sq,
                                             self.lr, self.beta1, self.beta2, self.eps, self.step)


n_params = 16 * 1024 * 1024


def get_inputs():
    param = torch.randn(n_params).cuda()
    grad = torch.randn(n_params).cuda()
    exp_avg = torch.zeros(n_params).cuda()
    exp_avg_sq = torch.zeros(n_params).cuda()
    return [param, grad, exp_avg, exp_avg_sq]


def get_init_inputs():
    return [1e-3, 0.9, 0.999, 1e-8, 10]
