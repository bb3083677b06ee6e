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

/// An RMSNorm in the common Triton style over 16-bit rows: a program per row, the row walked in blocks
/// (`range(0, N, BLOCK_SIZE)`), the block chosen by `block` in the wrapper.
fn rms_norm(sizes: &str, block: &str) -> String {
    format!(
        r#"
import torch
import triton
import triton.language as tl

@triton.jit
def rms_kernel(X, Y, W, stride, N, eps, BLOCK_SIZE: tl.constexpr):
    X += tl.program_id(0) * stride
    Y += tl.program_id(0) * stride
    acc = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
    for off in range(0, N, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        x = tl.load(X + cols, mask=cols < N, other=0.0).to(tl.float32)
        acc += x * x
    rstd = 1 / tl.sqrt(tl.sum(acc, axis=0) / N + eps)
    for off in range(0, N, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        mask = cols < N
        w = tl.load(W + cols, mask=mask).to(tl.float32)
        x = tl.load(X + cols, mask=mask, other=0.0).to(tl.float32)
        tl.store(Y + cols, (x * rstd * w).to(tl.bfloat16), mask=mask)

def rms_norm(x, w, eps):
    y = torch.empty_like(x)
    {sizes}
    {block}
    rms_kernel[(M,)](x, y, w, x.stride(0), N, eps, BLOCK_SIZE=BLOCK_SIZE, num_warps=8)
    return y
"#
    )
}

fn rms_profile(sizes: &str, block: &str) -> crate::features::Profile {
    let ex = extract_text(Language::Triton, &rms_norm(sizes, block));
    crate::features::profile(ex.kernel("rms_kernel").expect("kernel"))
}

#[test]
fn a_block_wider_than_its_row_issues_its_whole_width() {
    let sizes = "M, N = 16384, 4096";
    let wide = rms_profile(sizes, "BLOCK_SIZE = 16384");
    let fit = rms_profile(sizes, "BLOCK_SIZE = triton.next_power_of_2(N)");
    // The same bytes: the mask keeps the loads to the row.
    assert_eq!(wide.features.load_bytes, fit.features.load_bytes);
    // Four times the lanes issued (the masked ones too), and 64 elements a thread held in
    // registers leave room for one program per SM: slower by far (1.7–1.85× on an H100).
    assert!(wide.cost.compute > 3.0 * fit.cost.compute, "{:?} against {:?}", wide.cost, fit.cost);
    assert!(wide.cost.total > 1.2 * fit.cost.total, "{:?} against {:?}", wide.cost, fit.cost);
    assert!(wide.features.occupancy < fit.features.occupancy, "{:?} against {:?}", wide.features, fit.features);
}

#[test]
fn a_block_capped_in_a_branch_keeps_its_value_where_the_branch_is_not_taken() {
    let sizes = "M, N = 16384, 4096";
    let fit = rms_profile(sizes, "BLOCK_SIZE = triton.next_power_of_2(N)");
    for block in [
        "BLOCK_SIZE = triton.next_power_of_2(N)\n    if BLOCK_SIZE > 16384:\n        BLOCK_SIZE = 16384",
        "BLOCK_SIZE = 16384\n    if N <= 8192:\n        BLOCK_SIZE = triton.next_power_of_2(N)",
        "BLOCK_SIZE = 1\n    if N > 65536:\n        BLOCK_SIZE = 16384\n    else:\n        BLOCK_SIZE = triton.next_power_of_2(N)",
        "BLOCK_SIZE = 1\n    if N > 65536:\n        BLOCK_SIZE = 16384\n    elif N > 1024:\n        BLOCK_SIZE = triton.next_power_of_2(N)\n    \
         else:\n        BLOCK_SIZE = 1024",
    ] {
        let p = rms_profile(sizes, block);
        assert_eq!(p.features.tile_elems, 4096.0, "{block}: {:?}", p.features);
        assert_eq!(p.cost, fit.cost, "{block}");
    }
}

#[test]
fn an_epsilon_is_not_a_problem_size() {
    let p = rms_profile("M, N = x.shape", "BLOCK_SIZE = triton.next_power_of_2(N)");
    assert_eq!(p.assumed, ["x.shape[0]", "x.shape[1]"]);
}

/// A causal attention forward in the common Triton style: a program per block of queries,
/// the keys walked up to the diagonal where `tl.where` says the block holds queries, the
/// block size picked by a Python conditional expression in the wrapper.
fn causal_attention(block: &str) -> String {
    format!(
        r#"
import torch
import triton
import triton.language as tl

IS_OLD_GPU = "V100" in torch.cuda.get_device_name(0)

@triton.jit
def attn_fwd(Q, K, V, Out, Seqlen, sm_scale, stride_t, stride_h,
             BLOCK_M: tl.constexpr, BLOCK_D: tl.constexpr, BLOCK_N: tl.constexpr):
    head = tl.program_id(0)
    start_m = tl.program_id(1)
    seq_len = tl.load(Seqlen)
    offs_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, BLOCK_D)
    q = tl.load(Q + offs_m[:, None] * stride_t + head * stride_h + offs_d[None, :])
    m_i = tl.zeros([BLOCK_M], dtype=tl.float32) - float("inf")
    l_i = tl.zeros([BLOCK_M], dtype=tl.float32)
    acc = tl.zeros([BLOCK_M, BLOCK_D], dtype=tl.float32)
    live = tl.where(start_m * BLOCK_M < seq_len, 1, 0)
    for start_n in range(0, live * (start_m + 1) * BLOCK_M, BLOCK_N):
        k = tl.load(K + (start_n + offs_n[None, :]) * stride_t + head * stride_h + offs_d[:, None])
        qk = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.float32)
        qk += tl.dot(q, k) * sm_scale
        qk = tl.where(offs_m[:, None] >= (start_n + offs_n[None, :]), qk, float("-inf"))
        m_new = tl.maximum(m_i, tl.max(qk, 1))
        p = tl.exp(qk - m_new[:, None])
        alpha = tl.exp(m_i - m_new)
        l_i = l_i * alpha + tl.sum(p, 1)
        v = tl.load(V + (start_n + offs_n[:, None]) * stride_t + head * stride_h + offs_d[None, :])
        acc = acc * alpha[:, None] + tl.dot(p.to(v.dtype), v)
        m_i = m_new
    tl.store(Out + offs_m[:, None] * stride_t + head * stride_h + offs_d[None, :], acc / l_i[:, None])

def attention(q, k, v, seqlen):
    {block}
    T, H, D = q.shape
    o = torch.empty_like(q)
    num_warps = 4 if D <= 64 else 8
    grid = (H, triton.cdiv(T, BLOCK))
    attn_fwd[grid](q, k, v, o, seqlen, 1.0 / D ** 0.5, q.stride(0), q.stride(1),
                   BLOCK_M=BLOCK, BLOCK_D=D, BLOCK_N=BLOCK, num_warps=num_warps)
    return o
"#
    )
}

#[test]
fn a_python_conditional_expression_and_tl_where_take_a_value_not_a_size() {
    let profile = |block: &str| {
        let ex = extract_text(Language::Triton, &causal_attention(block));
        crate::features::profile(ex.kernel("attn_fwd").expect("kernel"))
    };
    let written = profile("BLOCK = 128");
    // The condition names a device the file cannot know: the value written first, 128.
    let conditional = profile("BLOCK = 128 if not IS_OLD_GPU else 64");
    assert_eq!(conditional.features, written.features);
    assert!(!conditional.assumed.iter().any(|n| n.contains("BLOCK")), "{:?}", conditional.assumed);
    // A condition with a value decides.
    let decided = profile("BLOCK = 128 if 2 > 3 else 64");
    assert!(decided.features.blocks > written.features.blocks, "{:?}", decided.features);
    // Per program: a few 128×128 tiles of exponentials a key block, never 128^4 elements;
    // the loop to the diagonal runs a few trips, not 2^22 (`tl.where` gives 1 or 0).
    let per_program = written.features.scalar_ops / written.features.blocks;
    let trips = (2f64.powi(22) / 128.0).sqrt();
    assert!(per_program < 20.0 * 128.0 * 128.0 * trips, "{per_program} ops a program: {:?}", written.features);
    assert!(written.features.tensor_flops < 1e13, "{:?}", written.features);
}

#[test]
fn a_grid_passed_in_by_name_covers_the_data_once() {
    // `blocks` is the launcher's parameter (or a struct's member filled at run time): a grid
    // sized to the data, a thread an element, not the element count taken as blocks.
    let src = "__global__ void twice(float* x, int n) {\n    int i = blockIdx.x * blockDim.x + threadIdx.x;\n    \
               if (i < n) x[i] = 2.0f * x[i];\n}\n\
               void launch(float* x, int n, int blocks) { twice<<<blocks, 256>>>(x, n); }\n";
    let p = super::profile_of(src, "twice");
    let n = crate::features::expr::ASSUMED_SIZE;
    let blocks = p.features.blocks;
    assert!((0.9..1.1).contains(&(blocks * 256.0 / n)), "{blocks} blocks for {n} elements");
}

/// A 32 × 32 shared-tile SGEMM (column-major, the tiles unpadded when `pad` is 0) whose
/// sizes `M`, `N`, `K` are its entry's arguments, known only at run time.
fn sgemm_tiles(pad: u32) -> String {
    format!(
        r#"
__global__ void gemm32(int m, int n, int k, const float* a, const float* b, float* c) {{
    __shared__ float As[32][32 + {pad}], Bs[32][32 + {pad}];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.x * 32 + tx, col = blockIdx.y * 32 + ty;
    float acc = 0.0f;
    for (int i = 0; i < k; i += 32) {{
        As[tx][ty] = a[row + (i + ty) * m];
        Bs[tx][ty] = b[(i + tx) + col * k];
        __syncthreads();
        for (int j = 0; j < 32; j++) acc += As[tx][j] * Bs[j][ty];
        __syncthreads();
    }}
    c[row + col * m] = acc;
}}
extern "C" void kf_run(const float* a, const float* b, float* c, int M, int N, int K) {{
    dim3 block(32, 32);
    dim3 grid((M - 1) / block.x + 1, (N - 1) / block.y + 1);
    gemm32<<<grid, block>>>(M, N, K, a, b, c);
}}
"#
    )
}

#[test]
fn a_matrix_product_of_run_time_sizes_is_read_at_a_realistic_size() {
    // M, N and K index no tensor all three: each of its matrices is the size the prior
    // assumes, not M·N·K (which read a 4096³ product as 161³: 36 blocks, launch-bound).
    let each = super::super::expr::assumed_each(&["K", "M", "N"]);
    assert_eq!(each, super::super::expr::assumed_each(&["cols", "rows"]), "{each}");
    let p = super::profile_of(&sgemm_tiles(0), "gemm32");
    assert!(p.features.blocks >= 1024.0, "{:?}", p.features);
    // At that size the unpadded tiles' bank conflicts, not the launch, set its time.
    let padded = super::profile_of(&sgemm_tiles(1), "gemm32");
    assert!(p.cost.total > 2.0 * padded.cost.total, "{:?} against {:?}", p.cost, padded.cost);
}
