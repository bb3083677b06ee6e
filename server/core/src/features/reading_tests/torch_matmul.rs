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
