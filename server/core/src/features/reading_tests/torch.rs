//! Programs that compute part of their work in PyTorch host code (torch arithmetic between
//! tensors, shapes unpacked from tensors, helpers returning tuples): what a user comparing a
//! "naive" torch version with a fused kernel would notice in the program's profile.

use crate::extract::extract_text;
use crate::features::Profile;
use crate::forecast::EmbeddedForecaster;
use crate::kernel::Language;

/// The program's profile as a whole-program forecast reads it (kernels and torch ops).
fn program(src: &str) -> Profile {
    let ex = extract_text(Language::Triton, src);
    let ks: Vec<&crate::kernel::Kernel> = ex.kernels.iter().collect();
    let size = crate::features::expr::ASSUMED_SIZE;
    EmbeddedForecaster::new().program_profile(&ks, size, size).expect("a program")
}

const COPY: &str = r#"
import torch
import triton
import triton.language as tl

# kforecast: wrapper = softmax(x); x: f32[4096, 4096] randn
@triton.jit
def copy_rows(x_ptr, y_ptr, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mask = offs < n_cols
    tl.store(y_ptr + row * n_cols + offs, tl.load(x_ptr + row * n_cols + offs, mask=mask), mask=mask)

def softmax(x):
    n_rows, n_cols = x.shape
BODY
    y = torch.empty_like(x)
    copy_rows[(n_rows,)](out, y, n_cols, BLOCK=triton.next_power_of_2(n_cols))
    return y
"#;

const MATRIX: f64 = 4096.0 * 4096.0 * 4.0;

#[test]
fn torch_arithmetic_between_tensors_is_a_launch_each() {
    let naive = "    x_max = x.max(dim=1)[0]\n    z = x - x_max[:, None]\n    num = torch.exp(z)\n    \
                 den = num.sum(dim=1)\n    out = num / den[:, None]";
    let p = program(&COPY.replace("BODY", naive));
    let f = &p.features;
    // max, subtract, exp, sum, divide, then the kernel.
    assert_eq!(f.launches, 6.0, "{f:?}");
    // Five full reads by torch and one by the kernel; the row vectors read their own size.
    let ratio = f.load_bytes / (6.0 * MATRIX);
    assert!((0.99..1.01).contains(&ratio), "{} bytes loaded", f.load_bytes);
    // Three full writes by torch (z, num, out), two row vectors, and the kernel's.
    let ratio = f.store_bytes / (4.0 * MATRIX);
    assert!((0.99..1.01).contains(&ratio), "{} bytes stored", f.store_bytes);
    // A scalar operand reads nothing: scaling is one read and one write.
    let scaled = program(&COPY.replace("BODY", "    out = x * 0.5"));
    assert_eq!(scaled.features.launches, 2.0, "{:?}", scaled.features);
    let ratio = scaled.features.load_bytes / (2.0 * MATRIX);
    assert!((0.99..1.01).contains(&ratio), "{} bytes loaded", scaled.features.load_bytes);
    // `a * b + c` is two launches, each reading its two tensors.
    let fma = program(
        &COPY
            .replace("def softmax(x):", "def softmax(x, b, c):")
            .replace("BODY", "    out = x * b.contiguous() + c.float()"),
    );
    assert_eq!(fma.features.launches, 5.0, "contiguous, float, *, + and the kernel: {:?}", fma.features);
}
