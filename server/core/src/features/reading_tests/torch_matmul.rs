//! Matrix products a torch program runs whose operands' shapes the file does not give: the
//! work is read from the operands' sizes, not as a square GEMM of the first one.

/// GPU MODE's grayscale as a matrix times a 3-vector of literal weights (`rgb.view(-1, 3) @ w`).
const MATVEC: &str = r#"
import torch

_weights = None

def custom_kernel(data):
    global _weights
    rgb, output = data
    H, W, C = rgb.shape
    if _weights is None or _weights.device != rgb.device:
        _weights = torch.tensor([0.2989, 0.5870, 0.1140], dtype=torch.float32, device=rgb.device)
    gray = rgb.view(-1, 3) @ _weights
    output.copy_(gray.view(H, W))
    return output


def kf_run(rgb, output):
    return custom_kernel((rgb, output))
"#;

#[test]
fn a_matrix_times_a_literal_3_vector_is_a_few_flops_an_element_not_a_square_gemm() {
    let p = super::torch::torch_program_profile(MATVEC);
    let size = crate::features::expr::ASSUMED_SIZE;
    let f = &p.features;
    // 2·M·N·K with K = 3, N = 1: six flops a pixel, read at the prior's size (a square GEMM of
    // the image's elements would be ~10^10).
    assert!(f.tensor_flops < 10.0 * size, "{} flops for {size} elements", f.tensor_flops);
    // The image is still read and the gray plane written.
    assert!(f.load_bytes >= 4.0 * size, "{:?}", f);
}

/// KernelBench's "Matmul with diagonal matrices": `diag(A) @ B`, `A` a vector of `N`.
fn diagonal_times(a: &str) -> String {
    format!(
        r#"
import torch
import torch.nn as nn

class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A, B):
        return torch.diag(A) @ B

N = 4096
M = 4096

def get_inputs():
    A = {a}
    B = torch.randn(N, M)
    return [A, B]

def get_init_inputs():
    return []
"#
    )
}

#[test]
fn the_diagonal_matrix_of_a_vector_is_a_square_gemm_s_operand_and_a_matrix_s_diagonal_a_vector() {
    let gemm = 2.0 * 4096f64.powi(3);
    let vector = super::torch::torch_program_profile(&diagonal_times("torch.randn(N)"));
    let f = &vector.features;
    assert!(
        f.tensor_flops > 0.5 * gemm && f.tensor_flops < 2.0 * gemm,
        "{} flops, a 4096³ GEMM is {gemm}",
        f.tensor_flops
    );
    // Of a matrix, its diagonal: a vector times the matrix, no GEMM.
    let matrix = super::torch::torch_program_profile(&diagonal_times("torch.randn(N, N)"));
    assert!(matrix.features.tensor_flops < 0.01 * gemm, "{:?}", matrix.features);
}
