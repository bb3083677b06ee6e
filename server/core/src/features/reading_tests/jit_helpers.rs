//! `@triton.jit` helpers a kernel calls, as libraries write them (cute-kernels' softmax
//! loads each block through `x, indices, mask = _load_x(x_ptr=…, h=…)`): the helper's loads
//! and stores are the kernel's, at the trips of the loop the call sits in, and what it
//! returns keeps its tile shape.

use crate::extract::extract_text;
use crate::kernel::Language;

const ROWS: f64 = 8192.0;
const COLS: f64 = 8192.0;

/// An online softmax over rows, its blocks loaded by `load` (written in the kernel, or a
/// call of the helper `_load_x`) and stored by `store`.
fn softmax(load: &str, store: &str) -> String {
    format!(
        r#"
import torch
import triton
import triton.language as tl


@triton.jit
def _load_x(x_ptr, h, H, BLOCK_SIZE_B: tl.constexpr, BLOCK_SIZE_H: tl.constexpr):
    indices_b = tl.program_id(0) * BLOCK_SIZE_B + tl.arange(0, BLOCK_SIZE_B)
    indices_h = h * BLOCK_SIZE_H + tl.arange(0, BLOCK_SIZE_H)
    mask = (indices_h < H)[None, :]
    x = tl.load(x_ptr + indices_b[:, None] * H + indices_h[None, :], mask=mask, other=-float("inf"))
    return x, indices_b, mask


@triton.jit
def _store_y(y_ptr, y, h, H, BLOCK_SIZE_B: tl.constexpr, BLOCK_SIZE_H: tl.constexpr):
    indices_b = tl.program_id(0) * BLOCK_SIZE_B + tl.arange(0, BLOCK_SIZE_B)
    indices_h = h * BLOCK_SIZE_H + tl.arange(0, BLOCK_SIZE_H)
    tl.store(y_ptr + indices_b[:, None] * H + indices_h[None, :], y, mask=(indices_h < H)[None, :])


@triton.jit
def softmax_kernel(x_ptr, y_ptr, H, BLOCK_SIZE_B: tl.constexpr, BLOCK_SIZE_H: tl.constexpr):
    Z = tl.zeros((BLOCK_SIZE_B, 1), dtype=tl.float32)
    M = tl.full((BLOCK_SIZE_B, 1), -float("inf"), dtype=tl.float32)
    for h in range(tl.cdiv(H, BLOCK_SIZE_H)):
        {load}
        prev_m = M
        M = tl.maximum(M, tl.max(x, axis=1, keep_dims=True))
        Z = Z * tl.exp(prev_m - M) + tl.sum(tl.exp(x - M), axis=1, keep_dims=True)
    for h in range(tl.cdiv(H, BLOCK_SIZE_H)):
        {load}
        y = tl.exp(x - M) / Z
        {store}


def kf_run(x):
    B = 8192
    H = 8192
    y = torch.empty_like(x)
    softmax_kernel[(triton.cdiv(B, 4),)](x, y, H, BLOCK_SIZE_B=4, BLOCK_SIZE_H=1024)
    return y
"#
    )
}

const INLINE_LOAD: &str = "indices_b = tl.program_id(0) * BLOCK_SIZE_B + tl.arange(0, BLOCK_SIZE_B)
        indices_h = h * BLOCK_SIZE_H + tl.arange(0, BLOCK_SIZE_H)
        mask = (indices_h < H)[None, :]
        x = tl.load(x_ptr + indices_b[:, None] * H + indices_h[None, :], mask=mask, other=-float(\"inf\"))";
const INLINE_STORE: &str = "tl.store(y_ptr + indices_b[:, None] * H + indices_h[None, :], y, mask=mask)";
const HELPER_LOAD: &str =
    "x, indices_b, mask = _load_x(x_ptr=x_ptr, h=h, H=H, BLOCK_SIZE_B=BLOCK_SIZE_B, BLOCK_SIZE_H=BLOCK_SIZE_H)";
const HELPER_STORE: &str = "_store_y(y_ptr, y, h, H, BLOCK_SIZE_B, BLOCK_SIZE_H)";

fn profile(load: &str, store: &str) -> crate::features::Profile {
    let ex = extract_text(Language::Triton, &softmax(load, store));
    crate::features::profile(ex.kernel("softmax_kernel").expect("kernel"))
}

#[test]
fn a_helper_s_loads_and_stores_count_where_the_kernel_calls_it() {
    let written = profile(INLINE_LOAD, INLINE_STORE);
    let called = profile(HELPER_LOAD, HELPER_STORE);
    let matrix = ROWS * COLS * 4.0;
    // Two passes over the matrix, the second half from cache, and one write of it.
    assert!(written.features.load_bytes > matrix, "{:?}", written.features);
    for (what, a, b) in [
        ("loaded", written.features.load_bytes, called.features.load_bytes),
        ("stored", written.features.store_bytes, called.features.store_bytes),
        ("arithmetic", written.features.scalar_ops, called.features.scalar_ops),
    ] {
        assert!((b / a - 1.0).abs() < 0.05, "{what}: {b} through the helpers, {a} written in the kernel");
    }
    assert_eq!(written.features.uncoalesced_bytes, called.features.uncoalesced_bytes, "the tiles keep their strides");
    assert_eq!(written.features.vector_width, called.features.vector_width);
}
