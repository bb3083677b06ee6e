//! Triton wrappers whose sizes come from tensors at run time, read as one realistic
//! problem: each size a guess, together the elements the size prior assumes.

use crate::extract::extract_text;
use crate::kernel::Language;

/// Attention scores `q @ kᵀ` per batch and head, on a grid of three run-time sizes
/// (`(cdiv(M, 64), cdiv(N, 64), B * H)`), the sizes read with `read` (`q.size(2)`, …).
fn scores_on_a_3d_grid(read: &str) -> String {
    format!(
        r#"
import torch
import triton
import triton.language as tl

@triton.jit
def scores_kernel(q_ptr, k_ptr, s_ptr, M, N, stride_qh, stride_kh, stride_sh,
                  BM: tl.constexpr, BN: tl.constexpr, D: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    bh = tl.program_id(2)
    rd = tl.arange(0, D)
    q = tl.load(q_ptr + bh * stride_qh + rm[:, None] * D + rd[None, :], mask=rm[:, None] < M)
    k = tl.load(k_ptr + bh * stride_kh + rn[:, None] * D + rd[None, :], mask=rn[:, None] < N)
    s = tl.dot(q, tl.trans(k))
    tl.store(s_ptr + bh * stride_sh + rm[:, None] * N + rn[None, :], s, mask=(rm[:, None] < M) & (rn[None, :] < N))

def scores(q, k):
    {read}
    s = torch.empty((B, H, M, N), device=q.device, dtype=q.dtype)
    grid = (triton.cdiv(M, 64), triton.cdiv(N, 64), B * H)
    scores_kernel[grid](q, k, s, M, N, q.stride(1), k.stride(1), s.stride(1), BM=64, BN=64, D=64)
    return s
"#
    )
}

#[test]
fn a_grid_of_several_run_time_sizes_is_one_realistic_problem() {
    for read in [
        "B, H, M = q.size(0), q.size(1), q.size(2)\n    N = k.size(2)",
        "B, H, M, _ = q.shape\n    N = k.shape[2]",
        "B, H, M = q.shape[0], q.size(1), q.size(-2)\n    N = k.size(-2)",
    ] {
        let ex = extract_text(Language::Triton, &scores_on_a_3d_grid(read));
        let p = crate::features::profile(ex.kernel("scores_kernel").expect("kernel"));
        // Each of the four sizes a guess, named, their product a realistic problem: the
        // scores tensor B·H·M·N of a few million elements, not 2^22 per dimension.
        assert_eq!(p.assumed.len(), 4, "{read}: {:?}", p.assumed);
        assert!(p.assumed.iter().any(|n| n.starts_with("k.shape[")), "{read}: {:?}", p.assumed);
        let stored = p.features.store_bytes / 4.0;
        assert!((2f64.powi(18)..2f64.powi(26)).contains(&stored), "{read}: {stored} scores stored");
        assert!(p.features.tensor_flops < 1e12, "{read}: {} flops", p.features.tensor_flops);
        assert!(p.cost.total < 1e9, "{read}: {:?}", p.cost);
    }
}
