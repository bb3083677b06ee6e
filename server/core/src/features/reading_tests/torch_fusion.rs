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

#[test]
fn element_sizes_come_from_where_the_tensors_are_made() {
    let half = |src: &str| {
        src.replace("torch.randn(rows, hidden)", "torch.randn(rows, hidden, dtype=torch.float16)")
            .replace("torch.randn(hidden)]", "torch.randn(hidden).half()]")
    };
    // The eager chain and the fused kernel both move half the bytes at 16 bits.
    for src in [EAGER_RMS, FUSED_RMS] {
        let (wide, narrow) = (program(src), program(&half(src)));
        let ratio = narrow.features.load_bytes / wide.features.load_bytes;
        assert!((0.49..0.51).contains(&ratio), "{} vs {}", narrow.features.load_bytes, wide.features.load_bytes);
    }
    // `x.to(torch.bfloat16)` in get_inputs is 2 bytes too; a plain factory 4.
    let bf16 = program(
        &EAGER_RMS
            .replace("torch.randn(rows, hidden)", "torch.randn(rows, hidden).to(torch.bfloat16)")
            .replace("torch.randn(hidden)]", "torch.randn(hidden, dtype=torch.bfloat16)]"),
    );
    assert!(bf16.features.load_bytes < program(EAGER_RMS).features.load_bytes);
    // A GPU MODE reference whose sizes only the task's tests give, its dtype given by
    // `generate_input`; the submission says nothing of it and takes the reference's.
    let reference = "import torch\n\ndef generate_input(size: int, seed: int):\n    \
                     a = torch.randn(size, size, device='cuda', dtype=torch.float16)\n    \
                     b = torch.randn(size, size, device='cuda', dtype=torch.float16)\n    return (a, b)\n\n\
                     def ref_kernel(data):\n    a, b = data\n    return a + b\n";
    let submission = r#"
import torch
import triton
import triton.language as tl

@triton.jit
def add(a_ptr, b_ptr, c_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(c_ptr + offs, tl.load(a_ptr + offs, mask=mask) + tl.load(b_ptr + offs, mask=mask), mask=mask)

def custom_kernel(data):
    a, b = data
    c = torch.empty_like(a)
    n = a.numel()
    add[(triton.cdiv(n, 1024),)](a, b, c, n, BLOCK=1024)
    return c
"#;
    let (r, s) = (kernels(reference), kernels(submission));
    let (pr, ps) = EmbeddedForecaster::new().program_pair_profiles(&r, &s).expect("a pair");
    let alone = program(submission);
    assert_eq!(pr.features.load_bytes, ps.features.load_bytes, "{:?} vs {:?}", pr.features, ps.features);
    assert_eq!(ps.features.load_bytes, alone.features.load_bytes / 2.0, "the reference's width");
}

/// Attention in one call of torch's fused kernel, at 16 bits.
const SDPA: &str = r#"
import torch
import torch.nn as nn
import torch.nn.functional as F

class Model(nn.Module):
    def forward(self, q, k, v):
        return F.scaled_dot_product_attention(q, k, v)

batch = 4
heads = 16
seq = 2048
dim = 64

def get_inputs():
    q = torch.randn(batch, heads, seq, dim, dtype=torch.float16)
    k = torch.randn(batch, heads, seq, dim, dtype=torch.float16)
    v = torch.randn(batch, heads, seq, dim, dtype=torch.float16)
    return [q, k, v]
"#;

#[test]
fn library_kernels_are_one_tuned_kernel_costed_from_their_shapes() {
    let p = program(SDPA);
    let q = 4.0 * 16.0 * 2048.0 * 64.0;
    assert_eq!(p.features.launches, 1.0, "{:?}", p.features);
    assert_eq!(p.features.tensor_flops, 4.0 * q * 2048.0, "QKᵀ and PV: {:?}", p.features);
    assert_eq!(p.features.load_bytes, 3.0 * q * 2.0, "q, k and v read once: {:?}", p.features);
    assert_eq!(p.guesses, 0);
    // At 32 bits the same attention runs on the fp32 pipes: many times the compute.
    let wide = program(&SDPA.replace(", dtype=torch.float16", ""));
    assert!(wide.cost.compute > 8.0 * p.cost.compute, "{:?} vs {:?}", wide.cost, p.cost);
    // Nothing flags it as an operation of unknown cost.
    let f = forecast(SDPA, &SDPA.replace("(q, k, v)", "(q, k, v, is_causal=False)"));
    assert!(!f.reasons.iter().any(|r| r.contains("does not know")), "{:?}", f.reasons);
    // A matrix product of known shapes: 2·M·K·N.
    let mm = "import torch\nimport torch.nn as nn\n\nclass Model(nn.Module):\n    def forward(self, a, b):\n        \
              return torch.matmul(a, b)\n\ndef get_inputs():\n    return [torch.randn(1024, 4096), torch.randn(4096, 256)]\n";
    let p = program(mm);
    assert_eq!(p.features.tensor_flops, 2.0 * 1024.0 * 4096.0 * 256.0, "{:?}", p.features);
}

#[test]
fn a_module_running_an_autograd_function_reads_its_forward_launches() {
    let src = r#"
import torch
import torch.nn as nn
from .kernels import scale_kernel, scale_backward_kernel

class ScaleFn(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, alpha):
        y = torch.empty_like(x)
        n = x.numel()
        scale_kernel[(n // 1024,)](x, y, n, alpha, BLOCK=1024)
        ctx.save_for_backward(x)
        return y

    @staticmethod
    def backward(ctx, dy):
        dx = torch.empty_like(dy)
        scale_backward_kernel[(dy.numel() // 1024,)](dy, dx, dy.numel(), BLOCK=1024)
        return dx, None

class Scale(nn.Module):
    def forward(self, x):
        return ScaleFn.apply(x, 2.0)

def get_inputs():
    return [torch.randn(4096, 4096)]
"#;
    let p = program(src);
    // The imported kernel runs once, over `x` and `y`: never free, and a guess.
    assert_eq!(p.features.launches, 1.0, "{:?}", p.features);
    assert!(p.features.load_bytes >= 4096.0 * 4096.0 * 4.0, "{:?}", p.features);
    assert!(p.guesses >= 1, "what an imported kernel does is a guess");
}

#[test]
fn a_program_s_backward_kernels_are_not_part_of_its_run() {
    let forward_only = FUSED_RMS.replace("class ModelNew", "def unused():\n    pass\n\nclass ModelNew");
    let with_backward = FUSED_RMS.replace(
        "class ModelNew",
        "@triton.jit\ndef rms_norm_backward(dy_ptr, dx_ptr, n_cols, BLOCK: tl.constexpr):\n    row = tl.program_id(0)\n    \
         offs = tl.arange(0, BLOCK)\n    mask = offs < n_cols\n    \
         tl.store(dx_ptr + row * n_cols + offs, tl.load(dy_ptr + row * n_cols + offs, mask=mask), mask=mask)\n\nclass ModelNew",
    );
    assert_eq!(kernels(&with_backward).len(), 2);
    let (a, b) = (program(&forward_only), program(&with_backward));
    assert_eq!(a.features.load_bytes, b.features.load_bytes, "{:?} vs {:?}", a.features, b.features);
    assert_eq!(b.features.launches, 1.0);
    // A `@triton.jit` helper the kernel calls runs inside it: no launch of its own.
    let with_helper = FUSED_RMS
        .replace(
            "@triton.jit\ndef rms_norm_rows",
            "@triton.jit\ndef scaled(x, r):\n    return x * r\n\n@triton.jit\ndef rms_norm_rows",
        )
        .replace("x * r * w", "scaled(x, r) * w");
    assert_eq!(kernels(&with_helper).len(), 2, "the helper reads as a kernel of the file");
    assert_eq!(program(&with_helper).features.launches, 1.0);
}

#[test]
fn a_kernel_launched_through_a_local_alias_has_its_launch() {
    let kernel = |name: &str| {
        format!(
            "@triton.jit\ndef {name}(x_ptr, y_ptr, n_cols, BLOCK: tl.constexpr):\n    row = tl.program_id(0)\n    \
             offs = tl.arange(0, BLOCK)\n    mask = offs < n_cols\n    \
             tl.store(y_ptr + row * n_cols + offs, tl.load(x_ptr + row * n_cols + offs, mask=mask), mask=mask)\n\n"
        )
    };
    let header = "import torch\nimport triton\nimport triton.language as tl\n\n";
    let chosen = format!(
        "{header}{}{}def norm(x, gemma=False):\n    n_rows, n_cols = x.shape\n    y = torch.empty_like(x)\n    \
         fx = _gemma_rows if gemma else _rows\n    fx[(n_rows,)](x, y, n_cols, BLOCK=triton.next_power_of_2(n_cols))\n    return y\n",
        kernel("_rows"),
        kernel("_gemma_rows")
    );
    let ks = extract_text(Language::Triton, &chosen).kernels;
    assert_eq!(ks.len(), 2);
    assert!(ks.iter().all(|k| !k.launches.is_empty()), "each kernel `fx` may be has its launch");
    let warmed = format!(
        "{header}{}def rows(x):\n    n_rows, n_cols = x.shape\n    y = torch.empty_like(x)\n    \
         kernel = _rows.warmup(y, x, n_cols, BLOCK=1024, grid=(1,))\n    kernel[(n_rows, 1, 1)](x, y, n_cols, 1024)\n    return y\n",
        kernel("_rows")
    );
    let ks = extract_text(Language::Triton, &warmed).kernels;
    assert_eq!(ks[0].launches.len(), 1, "the warmed-up kernel's launch: {:?}", ks[0].launches);
}

#[test]
fn a_grid_stride_loop_over_rows_known_at_run_time_reads_each_row_once() {
    let persistent = r#"
import torch
import triton
import triton.language as tl

@triton.jit
def softmax_rows(y_ptr, x_ptr, n_rows, n_cols, BLOCK: tl.constexpr):
    start = tl.program_id(0)
    step = tl.num_programs(0)
    for row in tl.range(start, n_rows, step, num_stages=2):
        offs = tl.arange(0, BLOCK)
        mask = offs < n_cols
        x = tl.load(x_ptr + row * n_cols + offs, mask=mask, other=-float('inf'))
        e = tl.exp(x - tl.max(x, axis=0))
        tl.store(y_ptr + row * n_cols + offs, e / tl.sum(e, axis=0), mask=mask)

def softmax(x):
    n_rows, n_cols = x.shape
    y = torch.empty_like(x)
    softmax_rows[(n_rows,)](y, x, n_rows, n_cols, BLOCK=triton.next_power_of_2(n_cols))
    return y
"#;
    let ex = extract_text(Language::Triton, persistent);
    let p = crate::features::profile(ex.kernel("softmax_rows").expect("kernel"));
    // Rows and columns are known only at run time; whatever they are, every row is read once
    // (the program id is no unknown size of its own: the loop is not empty).
    assert!(p.features.load_bytes > 0.0 && p.features.load_bytes == p.features.store_bytes, "{:?}", p.features);
    // `step=` given by keyword is the loop's step, not a step of one.
    let keyword =
        persistent.replace("tl.range(start, n_rows, step, num_stages=2)", "tl.range(start, n_rows, step=step)");
    let ex = extract_text(Language::Triton, &keyword);
    let q = crate::features::profile(ex.kernel("softmax_rows").expect("kernel"));
    assert_eq!(q.features.load_bytes, p.features.load_bytes, "{:?}", q.features);
    // A grid-stride loop over a known size: the programs share it, each element read once.
    let known = persistent.replace("softmax_rows[(n_rows,)]", "softmax_rows[(132,)]").replace(
        "    n_rows, n_cols = x.shape
",
        "    n_rows, n_cols = x.shape
    n_rows = 4096
    n_cols = 1024
",
    );
    let ex = extract_text(Language::Triton, &known);
    let k = crate::features::profile(ex.kernel("softmax_rows").expect("kernel"));
    assert_eq!(k.features.load_bytes, 4096.0 * 1024.0 * 4.0, "{:?}", k.features);
}
