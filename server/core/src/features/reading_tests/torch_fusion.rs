//! A PyTorch program of eager operations against the fused kernel that replaces it: each
//! eager operation is a launch of its own, reading its inputs from and writing its result
//! to memory at the width the program's tensors are made with, while library operations
//! (attention, matrix products) are one tuned kernel each.

use crate::extract::{extract_text, torch_program};
use crate::features::Profile;
use crate::forecast::{forecast_program, EmbeddedForecaster, Forecast, Forecaster, PairingDoubt, TrainedForecaster};
use crate::kernel::{Kernel, Language};

/// The kernels of a Python program as a program forecast reads it: its kernels, or its
/// torch program.
fn kernels(src: &str) -> Vec<Kernel> {
    let ks = extract_text(Language::Triton, src).kernels;
    if ks.is_empty() {
        vec![torch_program(src).expect("a torch program")]
    } else {
        ks
    }
}

fn program(src: &str) -> Profile {
    let ks = kernels(src);
    let ks: Vec<&Kernel> = ks.iter().collect();
    let size = crate::features::expr::ASSUMED_SIZE;
    EmbeddedForecaster::new().program_profile(&ks, size, size).expect("a profile")
}

fn forecast(base: &str, candidate: &str) -> Forecast {
    let t = TrainedForecaster::shipped().expect("model");
    let f = |b: &Kernel, c: &Kernel| Forecaster::forecast(&t, b, c);
    forecast_program(f, &t, &PairingDoubt::shipped(), &kernels(base), &kernels(candidate)).forecast
}

/// LlamaRMSNorm in eager torch: a cast, a square, a row mean, an add, a reciprocal root, two
/// products and a cast back, each a launch.
const EAGER_RMS: &str = r#"
import torch
import torch.nn as nn

class Model(nn.Module):
    def __init__(self, eps: float = 1e-6):
        super().__init__()
        self.eps = eps

    def forward(self, x, w):
        h = x.to(torch.float32)
        variance = h.pow(2).mean(-1, keepdim=True)
        h = h * torch.rsqrt(variance + self.eps)
        return w * h.to(x.dtype)

rows = 4096
hidden = 8192

def get_inputs():
    return [torch.randn(rows, hidden), torch.randn(hidden)]
"#;

/// The same normalisation as one Triton kernel: each row read once and written once.
const FUSED_RMS: &str = r#"
import torch
import torch.nn as nn
import triton
import triton.language as tl

@triton.jit
def rms_norm_rows(x_ptr, w_ptr, y_ptr, n_cols, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mask = offs < n_cols
    x = tl.load(x_ptr + row * n_cols + offs, mask=mask, other=0.0).to(tl.float32)
    w = tl.load(w_ptr + offs, mask=mask, other=0.0)
    r = tl.rsqrt(tl.sum(x * x, axis=0) / n_cols + eps)
    tl.store(y_ptr + row * n_cols + offs, x * r * w, mask=mask)

class ModelNew(nn.Module):
    def __init__(self, eps: float = 1e-6):
        super().__init__()
        self.eps = eps

    def forward(self, x, w):
        n_rows, n_cols = x.shape
        y = torch.empty_like(x)
        rms_norm_rows[(n_rows,)](x, w, y, n_cols, self.eps, BLOCK=triton.next_power_of_2(n_cols))
        return y

rows = 4096
hidden = 8192

def get_inputs():
    return [torch.randn(rows, hidden), torch.randn(hidden)]
"#;

const MATRIX: f64 = 4096.0 * 8192.0 * 4.0;

#[test]
fn an_eager_chain_pays_a_launch_and_a_pass_over_memory_per_operation() {
    let (chain, fused) = (program(EAGER_RMS), program(FUSED_RMS));
    let (c, f) = (&chain.features, &fused.features);
    // cast, square, mean, add, rsqrt, product, cast, product: eight launches against one.
    assert_eq!((c.launches, f.launches), (8.0, 1.0), "{c:?}");
    // Six full-size intermediates are written and read again; the row statistics are one
    // number a row (the mean over the last dimension of 4096 × 8192 writes 4096).
    let stored = c.store_bytes / MATRIX;
    assert!((5.0..5.01).contains(&stored), "{} matrices stored", stored);
    // Six full-size reads (the kernel reads `x`, and `w` again for each row).
    let loaded = c.load_bytes / MATRIX;
    assert!((6.0..6.01).contains(&loaded), "{} matrices loaded", loaded);
    assert!(c.load_bytes > 2.5 * f.load_bytes, "{} vs {}", c.load_bytes, f.load_bytes);
    assert!(c.global_passes >= 5.0 && f.global_passes == 1.0, "{} vs {}", c.global_passes, f.global_passes);
    assert!(chain.cost.total > 4.0 * fused.cost.total, "{:?} vs {:?}", chain.cost, fused.cost);
    assert!(chain.cost.efficiency > 0.5, "torch's kernels stream at full bandwidth: {:?}", chain.cost);
    // A single eager operation is one pass, as the one kernel doing it is.
    let one = program(&EAGER_RMS.replace("return w * h.to(x.dtype)", "return x * w").replace(
        "        h = x.to(torch.float32)\n        variance = h.pow(2).mean(-1, keepdim=True)\n        h = h * torch.rsqrt(variance + self.eps)\n",
        "",
    ));
    assert_eq!((one.features.launches, one.features.global_passes), (1.0, 1.0), "{:?}", one.features);
    assert!(one.features.blocks > 1000.0, "torch's kernel has blocks of its own: {:?}", one.features);
    // The whole-program forecast sees it.
    let f = forecast(EAGER_RMS, FUSED_RMS);
    assert!(f.speedup > 2.0 && f.p_faster > 0.5, "{f:?}");
}
