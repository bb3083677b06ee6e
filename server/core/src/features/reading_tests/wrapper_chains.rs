//! Triton kernels reached through a library's chain of Python wrappers (an autograd
//! `Function.apply`, a forward helper, keyword arguments and defaults), as Liger-Kernel
//! writes them: the launch's flags are what the chain passes, so a flag turned off skips
//! its branch of the kernel, and no setting reads as a size known only at run time.

use crate::extract::extract_text;
use crate::kernel::Language;

/// A cross-entropy-like row kernel: one pass that reads the row, a second pass (the
/// gradient) under `HAS_GRADIENTS`, a weight read under `HAS_WEIGHT`, a smoothing term
/// under `label_smoothing > 0`; reached from `kf_run` as `entry`.
fn chain(entry: &str) -> String {
    format!(
        r#"
import torch
import triton
import triton.language as tl

MAX_FUSED_SIZE = 4096 if infer_device() == "xpu" else 65536 // 2


@triton.jit
def ce_kernel(X_ptr, W_ptr, loss_ptr, n_cols, label_smoothing: tl.constexpr, BLOCK_SIZE: tl.constexpr,
              HAS_WEIGHT: tl.constexpr, HAS_GRADIENTS: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    X_ptr += row * n_cols
    m = float("-inf")
    for i in range(0, n_cols, BLOCK_SIZE):
        offs = i + tl.arange(0, BLOCK_SIZE)
        x = tl.load(X_ptr + offs, mask=offs < n_cols, other=float("-inf"))
        m = tl.maximum(m, tl.max(x))
        if HAS_WEIGHT:
            w = tl.load(W_ptr + offs, mask=offs < n_cols, other=0.0)
            m = m + tl.sum(w)
        if label_smoothing > 0:
            m = m + tl.sum(tl.load(X_ptr + offs, mask=offs < n_cols, other=0.0))
    if HAS_GRADIENTS:
        for i in range(0, n_cols, BLOCK_SIZE):
            offs = i + tl.arange(0, BLOCK_SIZE)
            x = tl.load(X_ptr + offs, mask=offs < n_cols, other=0.0)
            tl.store(X_ptr + offs, tl.exp(x - m), mask=offs < n_cols)
    tl.store(loss_ptr + row, m)


def ce_forward(_input, weight, label_smoothing, reduction):
    BT, V = _input.shape
    BLOCK_SIZE = min(MAX_FUSED_SIZE, triton.next_power_of_2(V))
    loss = torch.zeros(BT, device=_input.device)
    ce_kernel[(BT,)](_input, weight, loss, V, label_smoothing=label_smoothing, BLOCK_SIZE=BLOCK_SIZE,
                     HAS_WEIGHT=True if weight is not None else False,
                     HAS_GRADIENTS=_input.requires_grad, num_warps=32 if not is_hip() else 16)
    return loss.sum() / BT if reduction == "mean" else loss


class CE(torch.autograd.Function):
    @staticmethod
    def forward(ctx, _input, target, weight=None, label_smoothing: float = 0.0, reduction: str = "mean"):
        return ce_forward(_input, weight, label_smoothing, reduction)


def kf_run(x, t):
    return {entry}
"#
    )
}

fn profile(entry: &str) -> crate::features::Profile {
    let ex = extract_text(Language::Triton, &chain(entry));
    crate::features::profile(ex.kernel("ce_kernel").expect("kernel"))
}

#[test]
fn a_wrapper_chain_s_defaults_are_settings_not_sizes_known_at_run_time() {
    let p = profile("CE.apply(x, t)");
    for setting in ["label_smoothing", "MAX_FUSED_SIZE", "None", "weight", "reduction"] {
        assert!(!p.assumed.iter().any(|a| a == setting), "`{setting}` is a setting: {:?}", p.assumed);
    }
    // The block is the platform's (32768 on CUDA), so a row of 2^15 is one trip.
    assert_eq!(p.features.block_threads, 1024.0, "32 warps off ROCm: {:?}", p.features);
}

#[test]
fn a_flag_the_wrapper_chain_turns_off_skips_the_kernel_s_work_under_it() {
    // Defaults: no weight, no smoothing, an input without gradients: one read of the row.
    let plain = profile("CE.apply(x, t)");
    // Smoothing passed by keyword, by place, and a weight: each adds a read of the row.
    let smoothed = profile("CE.apply(x, t, None, 0.1)");
    let keyword = profile("CE.apply(x, t, label_smoothing=0.1)");
    let weighted = profile("CE.apply(x, t, torch.ones(x.shape[1]))");
    let loads = |p: &crate::features::Profile| p.features.load_bytes;
    assert!(
        loads(&smoothed) > 1.6 * loads(&plain),
        "smoothing reads the row again: {} vs {}",
        loads(&smoothed),
        loads(&plain)
    );
    assert_eq!(loads(&keyword), loads(&smoothed), "a keyword binds as its place does");
    assert!(loads(&weighted) > 1.6 * loads(&plain), "a weight is read: {} vs {}", loads(&weighted), loads(&plain));
    // No gradient pass: the input is only read, never written back.
    assert!(plain.features.store_bytes < 0.01 * loads(&plain), "no gradient pass: {:?}", plain.features);
}

#[test]
fn a_function_reassigning_a_tensor_case_after_case_is_read_in_bounded_time() {
    // A data generator's cases, each `a = f(a)` with `a` written three times: written out in
    // full, the last value would be 3^40 copies long.
    let cases: String =
        (0..40).map(|i| format!("    if case == {i}:\n        a = scale(a, a.shape[0]) + a * a\n")).collect();
    let src = format!(
        "import torch\nimport triton\nimport triton.language as tl\n\n@triton.jit\n\
         def copy(x_ptr, y_ptr, n, BLOCK: tl.constexpr):\n    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)\n    \
         tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=offs < n), mask=offs < n)\n\n\
         def generate_input(n, case):\n    a = torch.randn(n)\n{cases}    return run(a)\n\n\
         def run(a):\n    y = torch.empty_like(a)\n    copy[(triton.cdiv(a.numel(), 1024),)](a, y, a.numel(), BLOCK=1024)\n    return y\n"
    );
    let ex = extract_text(Language::Triton, &src);
    let p = crate::features::profile(ex.kernel("copy").expect("kernel"));
    assert!(p.features.load_bytes > 0.0, "{:?}", p.features);
}
