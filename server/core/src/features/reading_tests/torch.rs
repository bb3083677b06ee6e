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
    assert_eq!(fma.features.launches, 4.0, "float, *, + and the kernel: {:?}", fma.features);
}

/// A Triton kernel doubling each row of a matrix, one program per row.
const SCALE_ROWS: &str = r#"@triton.jit
def scale_rows(x_ptr, y_ptr, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mask = offs < n_cols
    x = tl.load(x_ptr + row * n_cols + offs, mask=mask)
    tl.store(y_ptr + row * n_cols + offs, x * 2.0, mask=mask)
"#;

/// A KernelBench-style Triton module scaling the rows of its input, the rows and columns
/// read by `read`, the inputs made by `inputs`.
fn rows_module(read: &str, inputs: &str) -> String {
    format!(
        r#"
import torch
import torch.nn as nn
import triton
import triton.language as tl

{SCALE_ROWS}
class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
{read}
        y = torch.empty_like(x)
        scale_rows[(n_rows,)](x, y, n_cols, BLOCK=triton.next_power_of_2(n_cols))
        return y

batch_size = 16
seq = 128
dim = 8192

def get_inputs():
{inputs}
"#
    )
}

fn rows_profile(src: &str) -> Profile {
    let ex = extract_text(Language::Triton, src);
    crate::features::profile(ex.kernel("scale_rows").expect("kernel"))
}

#[test]
fn shapes_unpacked_by_position_take_the_inputs_dimensions() {
    let two = "    return [torch.randn(batch_size * seq, dim)]";
    let three = "    x = torch.randn(batch_size, seq, dim, device='cuda')\n    return [x]";
    let cases = [
        ("        n_rows, n_cols = x.shape", two),
        ("        n_rows, n_cols = x.size()", two),
        ("        B, T, C = x.shape\n        n_rows = B * T\n        n_cols = C", three),
        ("        B, T, C = x.size()\n        n_rows, n_cols = B * T, C", three),
    ];
    for (read, inputs) in cases {
        let p = rows_profile(&rows_module(read, inputs));
        let f = &p.features;
        assert_eq!((f.blocks, f.tile_elems), (2048.0, 8192.0), "{read}: {f:?}");
        assert!(p.assumed.is_empty(), "{read}: {:?}", p.assumed);
    }
    // Without get_inputs() the sizes are the prior's, a batch at its typical size.
    let p = rows_profile(&rows_module(cases[2].0, "    return []"));
    let elements = p.features.blocks * p.features.tile_elems;
    assert!(!p.assumed.is_empty());
    assert!((0.4..2.5).contains(&(elements / crate::features::expr::ASSUMED_SIZE)), "{:?}", p.features);
}

#[test]
fn numel_and_views_with_a_minus_one_are_evaluated_from_the_known_shape() {
    let three = "    return [torch.randn(batch_size, seq, dim)]";
    let reads = [
        "        n_cols = x.shape[-1]\n        n_rows = x.numel() // n_cols",
        "        n_cols = x.shape[-1]\n        x2 = x.view(-1, n_cols)\n        n_rows = x2.shape[0]",
        "        n_cols = x.size(-1)\n        x = x.reshape(-1, n_cols)\n        n_rows = x.shape[0]",
        "        x2 = x.contiguous().view(batch_size * seq, -1)\n        n_rows, n_cols = x2.shape",
    ];
    for read in reads {
        let p = rows_profile(&rows_module(read, three));
        let f = &p.features;
        assert_eq!((f.blocks, f.tile_elems), (2048.0, 8192.0), "{read}: {f:?}");
        assert!(p.assumed.is_empty(), "{read}: {:?}", p.assumed);
    }
}

#[test]
fn a_gpu_mode_program_s_parts_take_generate_input_s_shapes() {
    let src = r#"
import torch
import triton
import triton.language as tl

SCALE_ROWS
def generate_input(rows: int = 2048, cols: int = 8192, seed: int = 0):
    g = torch.Generator(device='cuda').manual_seed(seed)
    x = torch.randn(rows, cols, device='cuda', generator=g)
    w = torch.randn(cols, device='cuda', generator=g)
    return x, w

def custom_kernel(data):
    x, w = data
    n_rows, n_cols = x.shape
    y = torch.empty_like(x)
    scale_rows[(n_rows,)](x, y, n_cols, BLOCK=triton.next_power_of_2(n_cols))
    return y
"#
    .replace("SCALE_ROWS", SCALE_ROWS);
    let p = rows_profile(&src);
    assert_eq!((p.features.blocks, p.features.tile_elems), (2048.0, 8192.0), "{:?}", p.features);
    assert!(p.assumed.is_empty(), "{:?}", p.assumed);
}

/// A row-wise kernel whose block and warps come from a helper returning both.
fn settings_module(helper: &str) -> String {
    format!(
        r#"
import torch
import triton
import triton.language as tl

MAX_FUSED_SIZE = 65536

{helper}

# kforecast: wrapper = scale(x); x: f32[1024, 6000] randn
{SCALE_ROWS}
def scale(x):
    n_rows, n_cols = x.shape
    BLOCK_SIZE, num_warps = calculate_settings(n_cols)
    y = torch.empty_like(x)
    scale_rows[(n_rows,)](x, y, n_cols, BLOCK=BLOCK_SIZE, num_warps=num_warps)
    return y
"#
    )
}

#[test]
fn a_helper_returning_block_and_warps_binds_both() {
    let ladder = "def calculate_settings(n):\n    BLOCK_SIZE = triton.next_power_of_2(n)\n    \
                  if BLOCK_SIZE > MAX_FUSED_SIZE:\n        raise RuntimeError('too wide')\n    num_warps = 4\n    \
                  if BLOCK_SIZE >= 32768:\n        num_warps = 32\n    elif BLOCK_SIZE >= 8192:\n        num_warps = 16\n    \
                  elif BLOCK_SIZE >= 2048:\n        num_warps = 8\n    return BLOCK_SIZE, num_warps";
    let early = "def calculate_settings(n_cols):\n    block = triton.next_power_of_2(n_cols)\n    \
                 if block >= 4096:\n        return block, 16\n    return block, 4";
    for helper in [ladder, early] {
        let p = rows_profile(&settings_module(helper));
        let f = &p.features;
        assert_eq!(f.tile_elems, 8192.0, "{helper}: {f:?}");
        assert_eq!(f.block_threads, 16.0 * 32.0, "{helper}: {f:?}");
        assert_eq!(p.guesses, 0, "{helper}: {p:?}");
    }
}

/// A KernelBench reference softmax in PyTorch alone: no kernel of its own.
const TORCH_SOFTMAX: &str = r#"
import torch
import torch.nn as nn

class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        x_max = x.max(dim=1, keepdim=True)[0]
        z = x - x_max
        num = torch.exp(z)
        den = num.sum(dim=1, keepdim=True)
        return num / den

batch_size = 4096
dim = 8192

def get_inputs():
    return [torch.randn(batch_size, dim)]
"#;

/// The same module with a fused Triton kernel: one read and one write of the matrix.
const TRITON_SOFTMAX: &str = r#"
import torch
import torch.nn as nn
import triton
import triton.language as tl

@triton.jit
def softmax_kernel(x_ptr, y_ptr, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mask = offs < n_cols
    x = tl.load(x_ptr + row * n_cols + offs, mask=mask, other=-float('inf'))
    e = tl.exp(x - tl.max(x, axis=0))
    tl.store(y_ptr + row * n_cols + offs, e / tl.sum(e, axis=0), mask=mask)

class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        n_rows, n_cols = x.shape
        y = torch.empty_like(x)
        softmax_kernel[(n_rows,)](x, y, n_cols, BLOCK=triton.next_power_of_2(n_cols))
        return y

batch_size = 4096
dim = 8192

def get_inputs():
    return [torch.randn(batch_size, dim)]
"#;

#[test]
fn a_pytorch_only_program_is_read_as_its_torch_launches() {
    let k = crate::extract::torch_program(TORCH_SOFTMAX).expect("a torch program");
    let size = crate::features::expr::ASSUMED_SIZE;
    let p = EmbeddedForecaster::new().program_profile(&[&k], size, size).expect("a profile");
    let matrix = 4096.0 * 8192.0 * 4.0;
    // max, subtract, exp, sum, divide: five launches, each reading the whole matrix once.
    assert_eq!(p.features.launches, 5.0, "{:?}", p.features);
    assert!((0.99..1.01).contains(&(p.features.load_bytes / (5.0 * matrix))), "{:?}", p.features);
    assert!(p.assumed.is_empty(), "get_inputs() sizes it: {:?}", p.assumed);
    // A file with kernels, or without a module, is no torch program.
    assert!(crate::extract::torch_program("import torch\n\ndef f(x):\n    return x * 2\n").is_none());
}

#[test]
fn a_pytorch_reference_against_a_fused_kernel_is_forecast_faster() {
    use crate::forecast::{forecast_program, PairingDoubt, TrainedForecaster};
    let base = vec![crate::extract::torch_program(TORCH_SOFTMAX).expect("a torch program")];
    let candidate = extract_text(Language::Triton, TRITON_SOFTMAX).kernels;
    let t = TrainedForecaster::shipped().expect("model");
    let f = |b: &crate::kernel::Kernel, c: &crate::kernel::Kernel| crate::forecast::Forecaster::forecast(&t, b, c);
    let doubt = PairingDoubt::shipped();
    let faster = forecast_program(f, &t, &doubt, &base, &candidate).forecast;
    assert!(faster.p_faster > 0.5, "one pass against five: {faster:?}");
    let slower = forecast_program(f, &t, &doubt, &candidate, &base).forecast;
    assert!(slower.p_faster < 0.5, "five passes against one: {slower:?}");
}
