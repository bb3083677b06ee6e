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
fn kernelbench_inputs_with_a_starred_shape_and_a_scale_are_sized() {
    // KernelBench's level-1 style: `torch.rand(batch_size, *input_shape) * scale`.
    let src = "import torch\nimport torch.nn as nn\n\n\
               class Model(nn.Module):\n    def forward(self, predictions, targets):\n        \
               return torch.mean((predictions - targets) ** 2)\n\n\
               batch_size = 4096\ninput_shape = (4096,)\n\n\
               def get_inputs():\n    scale = torch.rand(())\n    \
               return [torch.rand(batch_size, *input_shape) * scale, torch.rand(batch_size, *input_shape)]\n";
    let k = crate::extract::torch_program(src).expect("a torch program");
    let size = crate::features::expr::ASSUMED_SIZE;
    let p = EmbeddedForecaster::new().program_profile(&[&k], size, size).expect("a profile");
    assert!(p.assumed.is_empty(), "get_inputs() sizes it: {:?}", p.assumed);
    // subtract (two reads), square, mean: four reads of 4096 x 4096 floats.
    let matrix = 4096.0 * 4096.0 * 4.0;
    assert!((0.99..1.01).contains(&(p.features.load_bytes / (4.0 * matrix))), "{:?}", p.features);
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

/// The profile of a PyTorch-only program as a whole-program forecast reads it.
pub(super) fn torch_program_profile(src: &str) -> Profile {
    let k = crate::extract::torch_program(src).expect("a torch program");
    let size = crate::features::expr::ASSUMED_SIZE;
    EmbeddedForecaster::new().program_profile(&[&k], size, size).expect("a profile")
}

/// A GPU MODE reference: `ref_kernel(data)` runs torch operations on the tuple
/// `generate_input` makes; no module, no kernel.
const GPU_MODE_REFERENCE: &str = r#"
import torch
from task import input_t, output_t

def ref_kernel(data: input_t) -> output_t:
    x, w = data
    y = x * w
    return torch.softmax(y, dim=-1)

def generate_input(rows: int = 4096, cols: int = 8192, seed: int = 0) -> input_t:
    gen = torch.Generator(device='cuda')
    gen.manual_seed(seed)
    x = torch.randn(rows, cols, device='cuda', generator=gen).contiguous()
    w = torch.randn(cols, device='cuda', generator=gen)
    return (x, w)
"#;

/// A submission of the same problem: one Triton kernel, one read and one write of `x`.
const GPU_MODE_TRITON: &str = r#"
import torch
import triton
import triton.language as tl
from task import input_t, output_t

@triton.jit
def scaled_softmax(x_ptr, w_ptr, y_ptr, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mask = offs < n_cols
    x = tl.load(x_ptr + row * n_cols + offs, mask=mask, other=-float('inf'))
    x = x * tl.load(w_ptr + offs, mask=mask, other=1.0)
    e = tl.exp(x - tl.max(x, axis=0))
    tl.store(y_ptr + row * n_cols + offs, e / tl.sum(e, axis=0), mask=mask)

def custom_kernel(data: input_t) -> output_t:
    x, w = data
    n_rows, n_cols = x.shape
    y = torch.empty_like(x)
    scaled_softmax[(n_rows,)](x, w, y, n_cols, BLOCK=triton.next_power_of_2(n_cols))
    return y
"#;

#[test]
fn a_gpu_mode_reference_function_is_read_as_its_torch_launches() {
    let k = crate::extract::torch_program(GPU_MODE_REFERENCE).expect("ref_kernel is a torch program");
    assert_eq!(k.name, "ref_kernel");
    let p = torch_program_profile(GPU_MODE_REFERENCE);
    let matrix = 4096.0 * 8192.0 * 4.0;
    // The product (x and w read, y written), then the softmax (y read, written).
    assert_eq!(p.features.launches, 2.0, "{:?}", p.features);
    let ratio = p.features.load_bytes / (2.0 * matrix + 8192.0 * 4.0);
    assert!((0.99..1.01).contains(&ratio), "generate_input's shapes size it: {:?}", p.features);
    assert!(p.assumed.is_empty(), "{:?}", p.assumed);
    // A submission in torch alone, `data` a tensor itself, behind `torch.compile`.
    let compiled = "import torch\n\ndef _custom_kernel(data):\n    return data.to(torch.float64).sum()\n\n\
                    custom_kernel = torch.compile(_custom_kernel, mode='reduce-overhead')\n";
    let p = torch_program_profile(compiled);
    assert_eq!(p.features.launches, 2.0, "a conversion and a sum: {:?}", p.features);
    // `data` made by an expression of a tensor: that tensor's shape.
    let summed = "import torch\n\ndef generate_input(size: int = 1048576, seed: int = 0):\n    \
                  data = torch.randn(size, device='cuda')\n    return (data * 2.0 + 1.0).contiguous()\n\n\
                  def ref_kernel(data):\n    return data.sum()\n";
    let p = torch_program_profile(summed);
    assert_eq!(p.features.load_bytes, 1048576.0 * 4.0, "{:?}", p.features);
    // A file's one public function of torch operations, its parameters the tensors it reads.
    let geglu = "import torch\nimport torch.nn.functional as F\n\ndef geglu(gate, up, approximate='tanh'):\n    \
                 return F.gelu(gate, approximate=approximate) * up\n";
    let p = torch_program_profile(geglu);
    assert_eq!(p.features.launches, 2.0, "a GELU and a product: {:?}", p.features);
    // A function that calls nothing is still no program.
    assert!(crate::extract::torch_program("import torch\n\ndef f(x):\n    return x * 2\n").is_none());
}

#[test]
fn a_gpu_mode_reference_against_a_triton_submission_is_forecast_as_programs() {
    use crate::forecast::{forecast_program, PairingDoubt, TrainedForecaster};
    let base = vec![crate::extract::torch_program(GPU_MODE_REFERENCE).expect("a torch program")];
    let candidate = extract_text(Language::Triton, GPU_MODE_TRITON).kernels;
    assert_eq!(candidate.len(), 1);
    let t = TrainedForecaster::shipped().expect("model");
    let f = |b: &crate::kernel::Kernel, c: &crate::kernel::Kernel| crate::forecast::Forecaster::forecast(&t, b, c);
    let doubt = PairingDoubt::shipped();
    let faster = forecast_program(f, &t, &doubt, &base, &candidate).forecast;
    assert!(faster.p_faster > 0.5, "one pass against two: {faster:?}");
    assert!(faster.reasons.iter().any(|r| r.contains("whole programs")), "{:?}", faster.reasons);
    // Sizes only the task's tests give (`generate_input(size, seed)`) leave both sides'
    // tensors at the prior's size alike: neither is read as the other's square.
    let run_time = GPU_MODE_REFERENCE.replace("rows: int = 4096, cols: int = 8192", "rows: int, cols: int");
    let base = vec![crate::extract::torch_program(&run_time).expect("a torch program")];
    let faster = forecast_program(f, &t, &doubt, &base, &candidate).forecast;
    assert!((0.5..8.0).contains(&faster.speedup), "{faster:?}");
}

/// A GPU MODE batched Cholesky reference, `n` and `batch` given by the defaults.
fn cholesky_reference(batch: usize, n: usize, call: &str) -> String {
    format!(
        r#"
import torch

def _spd(a, damping):
    out = a @ a.transpose(-1, -2)
    out.diagonal(dim1=-2, dim2=-1).add_(damping)
    return out

def generate_input(batch: int = {batch}, n: int = {n}, seed: int = 0):
    a = torch.randn((batch, n, n), device='cuda', dtype=torch.float32)
    return _spd(a, 1e-2)

def ref_kernel(data):
    return {call}
"#
    )
}

#[test]
fn factorisations_sorts_and_unknown_torch_functions_are_not_free() {
    let chol = |batch, n| torch_program_profile(&cholesky_reference(batch, n, "torch.linalg.cholesky_ex(data).L"));
    let p = chol(4, 1024);
    // n³/3 flops per matrix, read and written once.
    let flops = 4.0 * 1024f64.powi(3) / 3.0;
    assert!((0.99..1.01).contains(&(p.features.scalar_ops / flops)), "{:?}", p.features);
    assert_eq!(p.features.load_bytes, 4.0 * 1024.0 * 1024.0 * 4.0, "{:?}", p.features);
    assert_eq!(p.guesses, 0);
    // Twice the order is eight times the work and takes longer; twice the batch, twice.
    assert!((7.9..8.1).contains(&(chol(4, 2048).features.scalar_ops / p.features.scalar_ops)));
    assert!(chol(4, 2048).cost.total > 2.0 * p.cost.total);
    assert!((1.99..2.01).contains(&(chol(8, 1024).features.scalar_ops / p.features.scalar_ops)));
    // A solve against the matrix reads both and costs more than the factorisation alone.
    let solve = torch_program_profile(&cholesky_reference(4, 1024, "torch.linalg.solve(data, data)"));
    assert!(solve.features.scalar_ops > p.features.scalar_ops, "{:?}", solve.features);
    // A sort writes values and indices and does log2(n) work per element.
    let sort = torch_program_profile(&cholesky_reference(4, 1024, "torch.sort(data, dim=-1).values"));
    assert_eq!(sort.features.store_bytes, 2.0 * 4.0 * 1024.0 * 1024.0 * 4.0, "{:?}", sort.features);
    assert!((0.99..1.01).contains(&(sort.features.scalar_ops / (4.0 * 1024.0 * 1024.0 * 10.0))));
    // A torch function nothing here knows launches but is a guess, never silently free.
    let unknown = torch_program_profile(&cholesky_reference(4, 1024, "torch.special.zeta(data, 2.0)"));
    assert_eq!((unknown.features.launches, unknown.guesses), (1.0, 1), "{unknown:?}");
    // A block whose bounds only run time gives is costed at most as the whole, and a guess.
    let block = torch_program_profile(&cholesky_reference(4, 1024, "torch.linalg.cholesky(data[:, :k, :k])"));
    assert_eq!(block.guesses, 1, "{block:?}");
    assert!(block.features.scalar_ops <= p.features.scalar_ops * 1.01, "{:?}", block.features);
}

#[test]
fn an_assignment_into_a_view_is_the_value_then_a_copy_and_an_augmented_one_in_place() {
    let torch = |line: &str| {
        torch_program_profile(&format!(
            "import torch\n\ndef step(a, b):\n    a = a.contiguous()\n    {line}\n    return a\n"
        ))
    };
    let (assigned, copied) = (torch("a[:] = b + 1"), torch("a.copy_(b + 1)"));
    // Read at all (it was costed at nothing), and as the copy it is.
    assert!(assigned.features.load_bytes > 0.0, "{:?}", assigned.features);
    assert_eq!(assigned.features.load_bytes, copied.features.load_bytes);
    assert_eq!(assigned.features.launches, copied.features.launches);
    // `a[:, 1:] += b`: one in-place add on the view, not an add and a copy.
    let added = torch("a[:, 1:] += b");
    assert!(added.features.launches < assigned.features.launches, "{:?}", added.features);
}

#[test]
fn losses_similarities_and_pads_are_costed_not_unknown() {
    let src = r#"
import torch
import torch.nn.functional as F

def ref_kernel(data):
    p, q, img = data
    loss = F.kl_div(p, q, reduction='batchmean')
    sim = F.cosine_similarity(p, q, dim=1)
    padded = F.pad(img, (1, 1, 1, 1))
    return loss, sim, padded

def generate_input(rows: int = 4096, cols: int = 8192, seed: int = 0):
    p = torch.randn(rows, cols, device='cuda')
    q = torch.randn(rows, cols, device='cuda')
    img = torch.randn(8, 3, 1024, 1024, device='cuda')
    return (p, q, img)
"#;
    let k = crate::extract::torch_program(src).expect("a torch program");
    let ops = crate::features::torch_ops::torch_ops(&k.launches[0]);
    let unknown: Vec<&str> =
        ops.iter().filter(|o| o.work == crate::features::torch_ops::Work::Unknown).map(|o| o.name.as_str()).collect();
    assert!(unknown.is_empty(), "every operation has a known cost: {unknown:?}");
    let kl = ops.iter().find(|o| o.name.contains("kl_div")).expect("kl_div read");
    assert_eq!(kl.reads.len(), 2, "a loss reads both operands");
    assert_eq!(kl.writes, crate::features::torch_ops::Size::One, "and writes one number");
}

/// A naive softmax written as an autograd function, exposed as `F.apply`, whose entry runs
/// forward and, where `BACKWARD` is kept, backward.
const AUTOGRAD_SOFTMAX: &str = r#"
import torch


class _naive_softmax(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x: torch.Tensor):
        x_max = x.max(dim=-1, keepdim=True).values
        x = x - x_max
        numerator = torch.exp(x)
        denominator = numerator.sum(dim=-1, keepdim=True)
        ret = numerator / denominator
        ctx.save_for_backward(ret)
        return ret

    @staticmethod
    def backward(ctx, dp: torch.Tensor):
        p, = ctx.saved_tensors
        ds = p * dp
        ds = torch.sum(ds, dim=-1, keepdim=True)
        ds = dp - ds
        return p * ds


naive_softmax = _naive_softmax.apply


def run(x, dp):
    x = x.detach().requires_grad_()
    p = naive_softmax(x)
BACKWARD    return p
"#;

#[test]
fn an_autograd_function_s_torch_operations_are_its_program_and_backward_where_run() {
    let size = crate::features::expr::ASSUMED_SIZE;
    let launches = |src: &str| {
        let k = crate::extract::torch_program(src).expect("a torch program");
        EmbeddedForecaster::new().program_profile(&[&k], size, size).expect("a profile").features.launches
    };
    let forward = launches(&AUTOGRAD_SOFTMAX.replace("BACKWARD", ""));
    let both = launches(&AUTOGRAD_SOFTMAX.replace("BACKWARD", "    p.backward(dp)\n"));
    // max, subtract, exp, sum, divide; then multiply, sum, subtract, multiply.
    assert_eq!(forward, 5.0);
    assert_eq!(both, 9.0);
}

#[test]
fn a_kernelbench_module_s_nn_layers_are_its_torch_operations() {
    // KernelBench's level-1 problems are modules of `nn` layers made in `__init__`.
    let src = "import torch\nimport torch.nn as nn\n\nclass Model(nn.Module):\n    \
               def __init__(self, in_channels: int, kernel_size: int):\n        super(Model, self).__init__()\n        \
               self.conv2d = nn.Conv2d(in_channels, in_channels, kernel_size, groups=in_channels, bias=False)\n        \
               self.act = nn.ReLU()\n\n    def forward(self, x: torch.Tensor) -> torch.Tensor:\n        \
               return self.act(self.conv2d(x))\n\nbatch_size = 16\nin_channels = 64\nkernel_size = 3\n\n\
               def get_inputs():\n    return [torch.randn(batch_size, in_channels, 256, 256)]\n\n\
               def get_init_inputs():\n    return [in_channels, kernel_size]\n";
    let k = crate::extract::torch_program(src).expect("a torch program");
    let size = crate::features::expr::ASSUMED_SIZE;
    let p = EmbeddedForecaster::new().program_profile(&[&k], size, size).expect("a profile");
    let elements = 16.0 * 64.0 * 256.0 * 256.0;
    // The depthwise convolution, 2 · 3² flops an element on the fp32 pipes (one input
    // channel a group: no product for the tensor cores), then the ReLU's 2: two launches.
    assert_eq!(p.features.launches, 2.0, "{:?}", p.features);
    assert_eq!(p.features.tensor_flops, 0.0, "{:?}", p.features);
    assert!((0.99..1.01).contains(&(p.features.scalar_ops / (20.0 * elements))), "{:?}", p.features);
}

#[test]
fn an_entry_timing_torch_beside_the_file_s_kernels_is_a_torch_program() {
    // A GEMM collection whose harness entry times cuBLAS: `kf_run` returns `torch.matmul`,
    // and the file's own `matmul` wrapper (which launches its Triton kernel) is not run.
    let src = "import torch\nimport triton\nimport triton.language as tl\n\n@triton.jit\n\
               def mm_kernel(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr):\n    \
               rm = tl.program_id(0) * BM + tl.arange(0, BM)\n    rn = tl.program_id(1) * BN + tl.arange(0, BN)\n    \
               tl.store(c_ptr + rm[:, None] * N + rn[None, :], tl.load(a_ptr + rm[:, None] * K + rn[None, :]))\n\n\n\
               def matmul(a, b):\n    M, K = a.shape\n    K, N = b.shape\n    c = torch.empty((M, N), device=a.device)\n    \
               mm_kernel[(M // 64, N // 64)](a, b, c, M, N, K, BM=64, BN=64)\n    return c\n\n\n\
               def kf_run(a, b):\n    return torch.matmul(a, b)\n";
    let ex = extract_text(Language::Triton, src);
    assert!(!ex.kernel("mm_kernel").expect("kernel").runs(), "the entry does not launch it");
    let k = crate::extract::entry_program(src).expect("the entry's torch program");
    let size = crate::features::expr::ASSUMED_SIZE;
    let p = EmbeddedForecaster::new().program_profile(&[&k], size, size).expect("a profile");
    assert_eq!(p.features.launches, 1.0, "{:?}", p.features);
    assert!(p.features.tensor_flops > 0.0, "a library matrix product: {:?}", p.features);
    // An entry that launches the file's kernel has no torch program of its own to read.
    let own = src.replace("torch.matmul(a, b)", "matmul(a, b)");
    assert!(extract_text(Language::Triton, &own).kernel("mm_kernel").expect("kernel").runs());
}

#[test]
fn an_entry_handing_its_work_to_a_torch_function_is_that_function_s_program() {
    // A harness entry that calls the file's eager function: the function's torch operations
    // run, with what the entry passes for its defaulted parameters.
    let src = "import torch.nn.functional as F\n\n\ndef forward(x, bias, residual, p=0.0):\n    \
               y = F.gelu(x + bias)\n    return y + residual\n\n\n\
               def kf_run(x, bias, res):\n    return forward(x, bias, res, 0.5)\n";
    let k = crate::extract::torch_program(src).expect("the entry's torch program");
    assert_eq!(k.launches[0].host_defaults.get("p").map(String::as_str), Some("0.5"));
    let size = crate::features::expr::ASSUMED_SIZE;
    let p = EmbeddedForecaster::new().program_profile(&[&k], size, size).expect("a profile");
    assert!(p.features.launches >= 2.0, "the add, the GELU and the residual: {:?}", p.features);
    // An entry with nothing of the file's to run is no program.
    assert!(crate::extract::torch_program("def kf_run(x):\n    return x * 2\n").is_none());
}

#[test]
fn a_submission_s_custom_kernel_is_the_program_not_a_helper_module() {
    // A GPU MODE MLA submission keeps its KV cache as an `nn.Module` whose `forward` only
    // writes a slice; `custom_kernel` is what the leaderboard times.
    let src = "import torch\nfrom torch import nn\nimport torch.nn.functional as F\n\n\n\
               class KVCache(nn.Module):\n    def forward(self, c_kv):\n        \
               self.data[:, : c_kv.size(1)] = c_kv\n        return self.data\n\n\n\
               def custom_kernel(data):\n    x, w = data\n    y = F.linear(x, w)\n    \
               return F.softmax(y, dim=-1)\n";
    let k = crate::extract::torch_program(src).expect("a torch program");
    assert_eq!(k.name, "custom_kernel");
    let size = crate::features::expr::ASSUMED_SIZE;
    let p = EmbeddedForecaster::new().program_profile(&[&k], size, size).expect("a profile");
    assert!(p.features.tensor_flops > 0.0, "the linear layer: {:?}", p.features);
}

#[test]
fn an_einsum_outer_product_writes_every_product() {
    // An outer product mean written as one einsum materialises every product before the
    // mean; contracting the shared index instead writes only the result.
    let outer = "import torch\nfrom torch import einsum\n\n\ndef opm(a, b):\n    \
                 o = einsum(\"...is,...js->...ijs\", a, b)\n    return o.mean(dim=-1)\n";
    let contracted = outer.replace("->...ijs\", a, b)\n    return o.mean(dim=-1)", "->...ij\", a, b)\n    return o");
    let size = crate::features::expr::ASSUMED_SIZE;
    let profile = |src: &str| {
        let k = crate::extract::torch_program(src).expect("a torch program");
        EmbeddedForecaster::new().program_profile(&[&k], size, size).expect("a profile").features
    };
    let (o, c) = (profile(outer), profile(&contracted));
    assert!(c.tensor_flops > 0.0, "a library contraction: {c:?}");
    assert!(o.store_bytes > 100.0 * c.store_bytes, "{} vs {}", o.store_bytes, c.store_bytes);
}
