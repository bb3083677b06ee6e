//! Launches of which one runs: an `if`/`else` on the sizes, a `switch`, a `return` after a
//! launch. The branch the program's sizes take runs; the other launch costs nothing. Of a
//! torch extension's launches, the one its tensor entry makes, not its test `main`'s.

use crate::extract::extract_text;
use crate::kernel::Language;

/// A sum that launches a one-block kernel for short inputs and a grid-wide one otherwise,
/// chosen by `choose` (which names `small(…)` and `big(…)` launches), `n` and `mode` set
/// by `size`.
fn two_sums(size: &str, choose: &str) -> String {
    let choose = choose
        .replace("small(...)", "sum_one_block<<<1, 1024>>>(x, out, n)")
        .replace("big(...)", "sum_grid<<<(n + 255) / 256, 256>>>(x, out, n)");
    format!(
        r#"
#include <torch/extension.h>
__global__ void sum_one_block(const float* x, float* out, int n) {{
    __shared__ float part[1024];
    int t = threadIdx.x;
    float v = 0.0f;
    for (int i = t; i < n; i += 1024) v += x[i];
    part[t] = v;
    __syncthreads();
    for (int k = 512; k > 0; k >>= 1) {{ if (t < k) part[t] += part[t + k]; __syncthreads(); }}
    if (t == 0) out[0] = part[0];
}}
__global__ void sum_grid(const float* x, float* out, int n) {{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = i < n ? x[i] : 0.0f;
    for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffff, v, o);
    if ((threadIdx.x & 31) == 0) atomicAdd(out, v);
}}
void total(const float* x, float* out, int n_in, int mode_in) {{
    {size}
    {choose}
}}
"#
    )
}

fn launches(src: &str) -> (f64, f64) {
    let ex = extract_text(Language::Cuda, src);
    let runs = |name: &str| crate::features::profile(ex.kernel(name).expect("kernel")).features.launches;
    (runs("sum_one_block"), runs("sum_grid"))
}

#[test]
fn of_an_if_and_its_else_the_branch_the_sizes_take_runs() {
    let choose = "if (n <= 4096) {\n        small(...);\n    } else {\n        big(...);\n    }";
    assert_eq!(launches(&two_sums("int n = 1000;", choose)), (1.0, 0.0));
    assert_eq!(launches(&two_sums("int n = 1 << 24;", choose)), (0.0, 1.0));
    // Known only at run time: the branch the assumed size takes, and only that one.
    let (small, big) = launches(&two_sums("int n = n_in;", choose));
    assert_eq!(small + big, 1.0, "one of the two runs: {small} and {big}");
    // Without braces, and with the condition spelt in C's logic.
    let bare = "if (n <= 4096 && !(n > 4096)) small(...);\n    else big(...);";
    assert_eq!(launches(&two_sums("int n = 1 << 24;", bare)), (0.0, 1.0));
}

#[test]
fn a_launch_after_an_early_return_runs_where_the_return_is_not_taken() {
    let choose = "if (n <= 4096) {\n        small(...);\n        return;\n    }\n    big(...);";
    assert_eq!(launches(&two_sums("int n = 1000;", choose)), (1.0, 0.0));
    assert_eq!(launches(&two_sums("int n = 1 << 24;", choose)), (0.0, 1.0));
    // A guard whose condition has no value (`x.is_cuda()`) stops nothing.
    let guard = "if (!out) return;\n    big(...);";
    assert_eq!(launches(&two_sums("int n = 1 << 24;", guard)).1, 1.0);
}

#[test]
fn a_switch_runs_the_case_its_value_picks() {
    let choose = "switch (mode) {\n    case 0: small(...); break;\n    default: big(...); break;\n    }";
    assert_eq!(launches(&two_sums("int n = 4096, mode = 0;", choose)), (1.0, 0.0));
    assert_eq!(launches(&two_sums("int n = 4096, mode = 1;", choose)), (0.0, 1.0));
}

#[test]
fn a_triton_wrapper_s_if_and_else_launch_one_kernel() {
    let src = r#"
import triton
import triton.language as tl
import torch

@triton.jit
def copy_rows(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    first = tl.program_id(0) * BLOCK
    offs = first + tl.arange(0, BLOCK)
    inside = offs < n
    tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=inside), mask=inside)

@triton.jit
def copy_all(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    for start in range(0, n, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=offs < n), mask=offs < n)

def copy(x):
    y = torch.empty_like(x)
    n = 1 << 24
    if n < 65536 and not x.is_cuda:
        copy_all[(1,)](x, y, n, BLOCK=1024)
    elif n < 65536:
        copy_all[(1,)](x, y, n, BLOCK=4096)
    else:
        copy_rows[(triton.cdiv(n, 1024),)](x, y, n, BLOCK=1024)
    return y
"#;
    let ex = extract_text(Language::Triton, src);
    let runs = |name: &str| crate::features::profile(ex.kernel(name).expect("kernel")).features.launches;
    // A wrapper's kernels are timed together (each carries the others): of its three
    // launches one runs, whichever kernel the wrapper is read from.
    assert_eq!((runs("copy_all"), runs("copy_rows")), (1.0, 1.0));
}

#[test]
fn a_torch_extension_is_read_at_its_tensor_entry_not_its_test_main() {
    // The file keeps its command-line check: a C launcher that `main` calls with three
    // elements. Python runs the `torch::Tensor` entry, on a tensor sized at run time.
    let src = r#"
#include <torch/extension.h>
__global__ void scale_kernel(const float* x, float* y, float s, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = s * x[i];
}
void scale(const float* x, float* y, int n) {
    scale_kernel<<<(n + 255) / 256, 256>>>(x, y, 2.0f, n);
}
int main() {
    int n = 3;
    float *x, *y;
    cudaMalloc(&x, n * sizeof(float));
    cudaMalloc(&y, n * sizeof(float));
    scale(x, y, n);
    return 0;
}
torch::Tensor scale(torch::Tensor x) {
    int n = x.numel();
    auto y = torch::empty_like(x);
    scale_kernel<<<(n + 255) / 256, 256>>>(x.data_ptr<float>(), y.data_ptr<float>(), 2.0f, n);
    return y;
}
PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) { m.def("scale", &scale); }
"#;
    let ex = extract_text(Language::Cuda, src);
    let p = crate::features::profile(ex.kernel("scale_kernel").expect("kernel"));
    assert_eq!(p.assumed, ["x.numel()"], "{:?}", p.features);
    assert!(p.features.load_bytes > 1e6, "a tensor's worth, not 12 bytes: {:?}", p.features);
}

/// A scan that launches one kernel from two places: one block for a short input (and
/// return), the whole grid otherwise, as the CUDA Handbook's scans do.
const ONE_KERNEL_TWO_LAUNCHES: &str = r#"
__global__ void scan_blocks(int* out, const int* in, size_t n, size_t blocks) {
    extern __shared__ int part[];
    for (size_t b = blockIdx.x; b < blocks; b += gridDim.x) {
        size_t i = b * blockDim.x + threadIdx.x;
        part[threadIdx.x] = i < n ? in[i] : 0;
        __syncthreads();
        if (i < n) out[i] = part[threadIdx.x];
        __syncthreads();
    }
}
void scan(int* out, const int* in, size_t n, int b) {
    if (n <= b) {
        scan_blocks<<<1, b, b * sizeof(int)>>>(out, in, n, 1);
        return;
    }
    size_t blocks = (n + b - 1) / b;
    scan_blocks<<<blocks, b, b * sizeof(int)>>>(out, in, n, blocks);
}
extern "C" void run(int* out, const int* in) { scan(out, in, 1 << 24, 128); }
"#;

#[test]
fn a_kernel_launched_from_two_branches_runs_from_the_one_the_sizes_take() {
    let ex = extract_text(Language::Cuda, ONE_KERNEL_TWO_LAUNCHES);
    let k = ex.kernel("scan_blocks").expect("kernel");
    assert_eq!(k.launches.len(), 2);
    let p = crate::features::profile(k);
    // The grid-wide launch runs, over the whole input: not the one-block launch written
    // first, which would cost nothing at 2^24 elements.
    assert_eq!(p.features.launches, 1.0);
    assert_eq!(p.features.blocks, f64::from(1 << 17));
    assert!(p.features.load_bytes >= 4.0 * f64::from(1 << 24), "{:?}", p.features);
}
