//! Profiles of Triton kernels and the Python around them (wrappers, module constants,
//! module classes) written in styles other than the corpus's own.

use crate::extract::extract_text;
use crate::kernel::Language;

#[test]
fn a_triton_kernel_whose_launch_is_not_read_covers_one_tensor_not_its_square() {
    let src = "import triton\nimport triton.language as tl\n\n@triton.jit\ndef silu_mul(a_ptr, b_ptr, c_ptr, n, BLOCK: tl.constexpr):\n    \
               pid = tl.program_id(0)\n    offs = pid * BLOCK + tl.arange(0, BLOCK)\n    mask = offs < n\n    \
               a = tl.load(a_ptr + offs, mask=mask)\n    b = tl.load(b_ptr + offs, mask=mask)\n    \
               tl.store(c_ptr + offs, a * tl.sigmoid(a) * b, mask=mask)\n";
    let ex = extract_text(Language::Triton, src);
    let p = crate::features::profile(ex.kernel("silu_mul").expect("kernel"));
    let bytes = p.features.load_bytes + p.features.store_bytes;
    assert!(bytes < 1e10, "a few tensors of the assumed size, not petabytes: {bytes} B");
}

#[test]
fn num_warps_from_a_helper_function_is_triton_s_default_not_a_size() {
    let src = "import torch\nimport triton\nimport triton.language as tl\n\n\
               def pick_warps(block):\n    return 8 if block >= 2048 else 4\n\n\
               @triton.jit\ndef scale_rows(x_ptr, y_ptr, n_cols, BLOCK: tl.constexpr):\n    \
               row = tl.program_id(0)\n    offs = tl.arange(0, BLOCK)\n    mask = offs < n_cols\n    \
               x = tl.load(x_ptr + row * n_cols + offs, mask=mask)\n    \
               tl.store(y_ptr + row * n_cols + offs, x * 2.0, mask=mask)\n\n\
               def scale(x):\n    y = torch.empty_like(x)\n    n_rows, n_cols = x.shape\n    \
               BLOCK = 1024\n    scale_rows[(n_rows,)](x, y, n_cols, BLOCK=BLOCK, num_warps=pick_warps(BLOCK))\n    return y\n";
    let ex = extract_text(Language::Triton, src);
    let p = crate::features::profile(ex.kernel("scale_rows").expect("kernel"));
    assert_eq!(p.features.block_threads, 128.0, "4 warps, Triton's default: {:?}", p.features);
}

/// A row-wise softmax in the common Triton style: one program per row, a block as wide as
/// the row rounded up to a power of two, in a wrapper that reads the sizes with `read`.
fn triton_softmax(read: &str, block: &str) -> String {
    format!(
        r#"
import torch
import triton
import triton.language as tl

@triton.jit
def softmax_kernel(out_ptr, in_ptr, in_stride, out_stride, n_cols, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK_SIZE)
    mask = offs < n_cols
    x = tl.load(in_ptr + row * in_stride + offs, mask=mask, other=-float('inf'))
    e = tl.exp(x - tl.max(x, axis=0))
    tl.store(out_ptr + row * out_stride + offs, e / tl.sum(e, axis=0), mask=mask)

def softmax({read}):
    BLOCK_SIZE = {block}
    y = torch.empty_like(x)
    softmax_kernel[(n_rows,)](y, x, x.stride(0), y.stride(0), n_cols, BLOCK_SIZE=BLOCK_SIZE)
    return y
"#
    )
}

#[test]
fn a_triton_block_as_wide_as_a_run_time_row_is_one_row() {
    let shape = "x):\n    n_rows, n_cols = x.shape\n    if True: pass\n    #";
    let reads = [
        ("x, n_rows, n_cols", "triton.next_power_of_2(n_cols)"),
        (shape, "triton.next_power_of_2(n_cols)"),
        (shape, "min(65536 // x.element_size(), triton.next_power_of_2(n_cols))"),
        (shape, "triton.cdiv(n_cols, 32) * 32"),
    ];
    for (read, block) in reads {
        let ex = extract_text(Language::Triton, &triton_softmax(read, block));
        let p = crate::features::profile(ex.kernel("softmax_kernel").expect("kernel"));
        let f = &p.features;
        let what = format!("{read} / {block}: {} rows of {} ({:?})", f.blocks, f.tile_elems, p.assumed);
        // rows × block is one tensor of the assumed size, neither a row of 2^22 nor its square.
        let elements = f.blocks * f.tile_elems;
        assert!((0.5..2.0).contains(&(elements / crate::features::expr::ASSUMED_SIZE)), "{what}");
        assert!(f.tile_elems <= 65536.0 && f.blocks >= 64.0, "{what}");
        assert!(!p.assumed.iter().any(|a| a == "BLOCK_SIZE"), "a block is not a problem size: {what}");
    }
}

/// An elementwise Triton kernel whose block comes from module-level constants.
fn module_constants(constants: &str, body_block: &str, launch: &str) -> String {
    format!(
        r#"
import torch
import triton
import triton.language as tl

{constants}

@triton.jit
def scale_kernel(x_ptr, y_ptr, n, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * {body_block} + tl.arange(0, {body_block})
    mask = offs < n
    tl.store(y_ptr + offs, 2.0 * tl.load(x_ptr + offs, mask=mask), mask=mask)

def scale(x):
    y = torch.empty_like(x)
    n = x.numel()
    {launch}
    return y
"#
    )
}

#[test]
fn module_level_constants_bind_like_the_wrappers_locals() {
    let cases = [
        ("BLOCK = 1024", "BLOCK_SIZE", "scale_kernel[(triton.cdiv(n, 1024),)](x, y, n, BLOCK)"),
        ("BLOCK = 1024", "BLOCK_SIZE", "scale_kernel[(triton.cdiv(n, 1024),)](x, y, n, BLOCK_SIZE=BLOCK)"),
        ("WARPS = 4\nBLOCK = WARPS * 256", "BLOCK_SIZE", "scale_kernel[(triton.cdiv(n, 1024),)](x, y, n, BLOCK)"),
        ("BLOCK = tl.constexpr(1024)", "BLOCK", "scale_kernel[(triton.cdiv(n, 1024),)](x, y, n, 1024)"),
        ("BLOCK: tl.constexpr = 1024", "BLOCK", "scale_kernel[(triton.cdiv(n, BLOCK),)](x, y, n, BLOCK)"),
    ];
    for (constants, body_block, launch) in cases {
        let ex = extract_text(Language::Triton, &module_constants(constants, body_block, launch));
        let p = crate::features::profile(ex.kernel("scale_kernel").expect("kernel"));
        assert_eq!(p.features.tile_elems, 1024.0, "{constants} / {launch}: {:?}", p.features);
        let ratio = p.features.load_bytes / (4.0 * crate::features::expr::ASSUMED_SIZE);
        assert!((0.9..1.2).contains(&ratio), "{constants} / {launch}: {} bytes loaded", p.features.load_bytes);
    }
}

/// A KernelBench-style module whose block (and grid) come from its `__init__`.
fn module_new(class_body: &str, grid: &str, after: &str) -> String {
    format!(
        r#"
import torch
import torch.nn as nn
import triton
import triton.language as tl

@triton.jit
def scale_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(y_ptr + offs, 2.0 * tl.load(x_ptr + offs, mask=mask), mask=mask)

class ModelNew(nn.Module):
{class_body}

    def forward(self, x):
        y = torch.empty_like(x)
        n = x.numel()
        scale_kernel[{grid}](x, y, n, BLOCK=self.block)
        return y
{after}
"#
    )
}

#[test]
fn a_module_s_attributes_bind_where_forward_launches_with_them() {
    let init = "    def __init__(self, block=1024):\n        super().__init__()\n        self.block = block";
    let bare = "    def __init__(self, block):\n        super().__init__()\n        self.block = block";
    let cdiv = "(triton.cdiv(n, self.block),)";
    let cases = [
        (init, cdiv, "", 1024.0),
        (bare, cdiv, "\ndef get_init_inputs():\n    return [2048]\n", 2048.0),
        (init, cdiv, "\ndef get_init_inputs():\n    return [4096]\n", 4096.0),
        ("    block = 512\n\n    def __init__(self):\n        super().__init__()", cdiv, "", 512.0),
    ];
    for (body, grid, after, block) in cases {
        let ex = extract_text(Language::Triton, &module_new(body, grid, after));
        let p = crate::features::profile(ex.kernel("scale_kernel").expect("kernel"));
        let f = &p.features;
        assert_eq!(f.tile_elems, block, "{body} {after}: {f:?}");
        let elements = f.blocks * f.tile_elems;
        assert!((0.5..2.0).contains(&(elements / crate::features::expr::ASSUMED_SIZE)), "{body} {after}: {f:?}");
        assert!(!p.assumed.iter().any(|a| a.contains("block")), "a block is not a size: {body} {after}");
    }
    // A persistent grid of four programs per SM, counted in `__init__`.
    let persistent = "    def __init__(self, block=1024):\n        super().__init__()\n        self.block = block\n        \
                      props = torch.cuda.get_device_properties(0)\n        self.n_programs = props.multi_processor_count * 4";
    let ex = extract_text(Language::Triton, &module_new(persistent, "(self.n_programs,)", ""));
    let p = crate::features::profile(ex.kernel("scale_kernel").expect("kernel"));
    assert_eq!(p.features.blocks, 4.0 * crate::features::expr::SM_COUNT, "{:?}", p.features);
}

/// A Triton mean of squares: each program of `block` elements adds its partial sum to `target`.
fn mean_by_atomics(target: &str, block: u32) -> String {
    format!(
        "import torch\nimport triton\nimport triton.language as tl\n\n@triton.jit\n\
         def sq_mean(x_ptr, out_ptr, n, inv_n, BLOCK: tl.constexpr):\n    \
         offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)\n    \
         x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)\n    \
         tl.atomic_add({target}, tl.sum(x * x, axis=0) * inv_n)\n\n\
         def sq_mean_of(x):\n    n = x.numel()\n    out = torch.zeros((), device=x.device)\n    \
         sq_mean[(triton.cdiv(n, {block}),)](x, out, n, 1.0 / n, BLOCK={block})\n    return out\n"
    )
}

#[test]
fn atomics_every_program_aims_at_one_address_serialise() {
    let profile =
        |src: &str| crate::features::profile(extract_text(Language::Triton, src).kernel("sq_mean").expect("kernel"));
    let one = profile(&mean_by_atomics("out_ptr", 128));
    let spread = profile(&mean_by_atomics("out_ptr + tl.program_id(0)", 128));
    assert_eq!(one.features.contended_atomics, 1.0, "{:?}", one.features);
    assert_eq!(spread.features.contended_atomics, 0.0, "{:?}", spread.features);
    // 2^24 / 128 programs each waiting for the one address: slower than reading x.
    assert!(one.cost.atomics > one.cost.memory, "{:?}", one.cost);
    assert!(one.cost.total > 2.0 * spread.cost.total, "{:?} against {:?}", one.cost, spread.cost);
    // Wider programs make fewer atomics: the serialised part shrinks with them.
    let wide = profile(&mean_by_atomics("out_ptr", 4096));
    assert!(wide.cost.total < one.cost.total / 2.0, "{:?} against {:?}", wide.cost, one.cost);
}

/// A 2-D element-wise add over `BLOCK`×`BLOCK` tiles, its rows and columns ranges of one
/// size broadcast across the tile (`rows[:, None]`, `cols[None, :]`).
fn tiled_add(tile: u32) -> String {
    format!(
        "import torch\nimport triton\nimport triton.language as tl\n\n@triton.jit\n\
         def add_tiles(a_ptr, b_ptr, c_ptr, M, N, BLOCK: tl.constexpr):\n    \
         rows = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)\n    \
         cols = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)\n    \
         mask = (rows[:, None] < M) & (cols[None, :] < N)\n    \
         offs = rows[:, None] * N + cols[None, :]\n    \
         a = tl.load(a_ptr + offs, mask=mask)\n    b = tl.load(b_ptr + offs, mask=mask)\n    \
         tl.store(c_ptr + offs, a + b, mask=mask)\n\n\
         def add(a, b):\n    c = torch.empty_like(a)\n    M, N = 4096, 4096\n    \
         add_tiles[(triton.cdiv(M, {tile}), triton.cdiv(N, {tile}))](a, b, c, M, N, BLOCK={tile})\n    return c\n"
    )
}

#[test]
fn a_tile_of_two_ranges_of_one_size_is_their_product() {
    let ex = extract_text(Language::Triton, &tiled_add(32));
    let p = crate::features::profile(ex.kernel("add_tiles").expect("kernel"));
    // Two 4096×4096 fp32 inputs read once: 134 MB, not a 32-element row per program.
    let loaded = p.features.load_bytes;
    assert!((loaded / 134.2e6 - 1.0).abs() < 0.05, "{loaded} B loaded: {:?}", p.features);
    assert_eq!(p.features.tile_elems, 1024.0, "a 32×32 tile: {:?}", p.features);
}

#[test]
fn a_tile_wider_than_the_registers_spills_and_costs_more() {
    // The same adds over 64×64 tiles (32 values a thread on 4 warps) and 256×256 tiles (512
    // a thread: past the 255 registers a thread has, spilled to local memory and back).
    let memory = |tile| {
        let ex = extract_text(Language::Triton, &tiled_add(tile));
        crate::features::profile(ex.kernel("add_tiles").expect("kernel")).cost.memory
    };
    let (fits, spills) = (memory(64), memory(256));
    assert!(spills > 1.5 * fits, "{spills} vs {fits}");
}

#[test]
fn a_second_kernel_s_meta_parameter_does_not_unbind_the_launcher_s_local() {
    // A two-stage reduction: the launcher's `BLOCK_SIZE` tiles the input; the finishing
    // kernel takes a `BLOCK_SIZE` of its own, the number of partial results.
    let src = "import triton\nimport triton.language as tl\n\n\
               @triton.jit\ndef partial_max(x_ptr, part_ptr, n, BLOCK_SIZE: tl.constexpr):\n    \
               pid = tl.program_id(0)\n    offs = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)\n    \
               x = tl.load(x_ptr + offs, mask=offs < n, other=-float('inf'))\n    \
               tl.store(part_ptr + pid, tl.max(x, axis=0))\n\n\
               @triton.jit\ndef finish_max(part_ptr, out_ptr, BLOCK_SIZE: tl.constexpr):\n    \
               x = tl.load(part_ptr + tl.arange(0, BLOCK_SIZE))\n    tl.store(out_ptr, tl.max(x, axis=0))\n\n\
               def solve(x, part, out, n: int):\n    BLOCK_SIZE = 32768\n    num_blocks = triton.cdiv(n, BLOCK_SIZE)\n    \
               partial_max[(num_blocks,)](x, part, n, BLOCK_SIZE=BLOCK_SIZE)\n    \
               finish_max[1,](part, out, BLOCK_SIZE=num_blocks)\n";
    let ex = extract_text(Language::Triton, src);
    let p = crate::features::profile(ex.kernel("partial_max").expect("kernel"));
    let n = crate::features::expr::ASSUMED_SIZE;
    assert_eq!(p.features.blocks, (n / 32768.0).ceil(), "one program per 32768 elements of the assumed size");
    assert_eq!(p.assumed, vec!["n".to_string()], "only the problem size is unknown");
}

/// A column-wise scale over a run-time `M × K` tensor: each program loads a column tile
/// `BLOCK × 1` (rows apart) or a `BLOCK × BLOCK` tile (along the rows), the strides passed
/// as `x.stride(0), x.stride(1)`.
fn column_scale(cols: &str, grid_k: &str) -> String {
    format!(
        r#"
import torch
import triton
import triton.language as tl

@triton.jit
def col_scale(x_ptr, sx0, sx1, y_ptr, sy0, sy1, M, K, BLOCK: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_k = tl.program_id(1)
    m_offs = pid_m * BLOCK + tl.arange(0, BLOCK)
    k_offs = {cols}
    x = tl.load(x_ptr + m_offs[:, None] * sx0 + k_offs[None, :] * sx1)
    tl.store(y_ptr + m_offs[:, None] * sy0 + k_offs[None, :] * sy1, x * 2.0)

def scale(x):
    M, K = x.shape
    y = torch.empty_like(x)
    col_scale[(triton.cdiv(M, 128), {grid_k})](x, x.stride(0), x.stride(1), y, y.stride(0), y.stride(1), M, K, BLOCK=128)
    return y
"#
    )
}

#[test]
fn a_tile_one_column_wide_steps_over_rows_of_a_tensor_passed_its_strides() {
    let profile = |src: &str| {
        let ex = extract_text(Language::Triton, src);
        crate::features::profile(ex.kernel("col_scale").expect("kernel"))
    };
    let column = profile(&column_scale("pid_k", "K"));
    let tile = profile(&column_scale("pid_k * BLOCK + tl.arange(0, BLOCK)", "triton.cdiv(K, 128)"));
    assert_eq!(tile.features.uncoalesced_bytes, 0.0, "a tile along the rows: {:?}", tile.features);
    assert!(
        column.features.uncoalesced_bytes > column.features.load_bytes / 2.0,
        "a column read rows apart wastes most of each sector: {:?}",
        column.features
    );
}

#[test]
fn block_sizes_picked_from_a_conditional_tuple_are_launch_parameters_not_problem_sizes() {
    let src = r#"
import torch
import triton
import triton.language as tl

@triton.jit
def update(state_ptr, x_ptr, dim, dstate, BLOCK_M: tl.constexpr, BLOCK_D: tl.constexpr):
    offs_m = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_d = tl.arange(0, BLOCK_D)
    s = tl.load(state_ptr + offs_m[:, None] * dstate + offs_d[None, :])
    x = tl.load(x_ptr + offs_m)
    tl.store(state_ptr + offs_m[:, None] * dstate + offs_d[None, :], s * x[:, None])

def step(state, x):
    dim, dstate = state.shape
    BLOCK_M, num_warps = ((32, 4) if dstate <= 16
                          else ((16, 4) if dstate <= 32 else (4, 8)))
    update[(triton.cdiv(dim, BLOCK_M),)](state, x, dim, dstate, BLOCK_M, triton.next_power_of_2(dstate), num_warps=num_warps)
"#;
    let ex = extract_text(Language::Triton, src);
    let p = crate::features::profile(ex.kernel("update").expect("kernel"));
    assert!(!p.assumed.iter().any(|a| a == "BLOCK_M"), "picked by the wrapper, not a run-time size: {:?}", p.assumed);
}

#[test]
fn an_autograd_function_s_launch_reads_its_own_method_s_sizes() {
    // `forward` launches over the (M, I) output, `backward` over the (M, 2I) input; each
    // method names its count `n`.
    let src = "import torch\nimport triton\nimport triton.language as tl\n\n\
               @triton.jit\ndef fwd(x_ptr, y_ptr, n, BLOCK: tl.constexpr):\n    \
               o = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)\n    \
               tl.store(y_ptr + o, tl.load(x_ptr + o, mask=o < n) * 2.0, mask=o < n)\n\n\
               @triton.jit\ndef bwd(g_ptr, x_ptr, n, BLOCK: tl.constexpr):\n    \
               o = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)\n    \
               tl.store(x_ptr + o, tl.load(g_ptr + o, mask=o < n) * 2.0, mask=o < n)\n\n\
               class Twice(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, x):\n        \
               M = x.shape[0]\n        I = x.shape[1] // 2\n        y = torch.empty(M, I, device=x.device)\n        \
               n = M * I\n        fwd[(triton.cdiv(n, 1024),)](x, y, n, BLOCK=1024)\n        return y\n\n    \
               @staticmethod\n    def backward(ctx, g):\n        M, twoI = g.shape\n        n = M * twoI\n        \
               gx = torch.empty(M, twoI, device=g.device)\n        \
               bwd[(triton.cdiv(n, 1024),)](g, gx, n, BLOCK=1024)\n        return gx\n";
    let ex = extract_text(Language::Triton, src);
    let blocks = |name: &str| {
        let k = ex.kernel(name).expect("kernel");
        let solo = crate::kernel::Kernel { companions: Vec::new(), ..k.clone() };
        crate::features::profile(&solo).features.blocks
    };
    assert_eq!(blocks("fwd") * 2.0, blocks("bwd"), "the forward covers half the elements the backward does");
}

#[test]
fn autotune_configs_a_module_function_returns_are_read() {
    // The Triton tutorials' `configs=get_autotune_config()`; a later version returns one
    // config where a setting asks for none of the search.
    let matmul = |configs: &str| {
        format!(
            "import triton\nimport triton.language as tl\n\n{configs}\n\n\
             @triton.autotune(configs=get_autotune_config(), key=['M', 'N', 'K'])\n@triton.jit\n\
             def mm(a_ptr, b_ptr, c_ptr, M, N, K, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):\n    \
             pid = tl.program_id(0)\n    rm = (pid // tl.cdiv(N, BLOCK_N)) * BLOCK_M + tl.arange(0, BLOCK_M)\n    \
             rn = (pid % tl.cdiv(N, BLOCK_N)) * BLOCK_N + tl.arange(0, BLOCK_N)\n    rk = tl.arange(0, BLOCK_K)\n    \
             acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)\n    for k in range(0, K, BLOCK_K):\n        \
             a = tl.load(a_ptr + rm[:, None] * K + (k + rk)[None, :])\n        \
             b = tl.load(b_ptr + (k + rk)[:, None] * N + rn[None, :])\n        acc += tl.dot(a, b)\n    \
             tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc)\n\n\
             def matmul(a, b, c):\n    M, K = a.shape\n    K, N = b.shape\n    \
             grid = lambda META: (triton.cdiv(M, META['BLOCK_M']) * triton.cdiv(N, META['BLOCK_N']),)\n    \
             mm[grid](a, b, c, M, N, K)\n"
        )
    };
    let search = "def get_autotune_config():\n    return [\n        \
                  triton.Config({'BLOCK_M': 128, 'BLOCK_N': 256, 'BLOCK_K': 64}, num_stages=3, num_warps=8),\n        \
                  triton.Config({'BLOCK_M': 64, 'BLOCK_N': 64, 'BLOCK_K': 32}, num_stages=4, num_warps=4),\n    ]";
    let one = "def get_autotune_config():\n    if MODE == 'none':\n        \
               return [triton.Config({'BLOCK_M': 32, 'BLOCK_N': 32, 'BLOCK_K': 32}, num_stages=2, num_warps=4)]\n    \
               return [triton.Config({'BLOCK_M': 128, 'BLOCK_N': 256, 'BLOCK_K': 64}, num_stages=3, num_warps=8)]";
    let configs = |text: &str| extract_text(Language::Triton, text).kernel("mm").expect("kernel").autotune.len();
    assert_eq!(configs(&matmul(search)), 2);
    assert_eq!(configs(&matmul(one)), 1, "the first return");
    let tile =
        |text: &str| crate::features::profile(extract_text(Language::Triton, text).kernel("mm").expect("kernel"));
    assert_ne!(tile(&matmul(search)).cost.total, tile(&matmul(one)).cost.total, "the tiles differ, so do the costs");
}

#[test]
fn a_flat_kernel_that_splits_each_row_loads_each_half_once() {
    // Inductor's flat kernel over a (M, 2I) gradient: each lane reads one half's operands,
    // chosen by its column (`x0 >= I`), so the where-branched loads move one row's worth.
    let src = "import torch\nimport triton\nimport triton.language as tl\n\n@triton.jit\n\
               def split_kernel(g_ptr, x_ptr, out_ptr, n_full, I: tl.constexpr, XBLOCK: tl.constexpr):\n    \
               xindex = tl.program_id(0) * XBLOCK + tl.arange(0, XBLOCK)\n    xmask = xindex < n_full\n    \
               x0 = xindex % (2 * I)\n    x1 = xindex // (2 * I)\n    is_up = x0 >= I\n    is_gate = x0 < I\n    \
               a = tl.load(x_ptr + (xindex - I), is_up & xmask, other=0.0)\n    \
               b = tl.load(x_ptr + (xindex + I), is_gate & xmask, other=0.0)\n    \
               tl.store(out_ptr + xindex, tl.where(is_up, a, b), xmask)\n\n\
               def split(x):\n    out = torch.empty_like(x)\n    n = x.numel()\n    \
               split_kernel[(triton.cdiv(n, 1024),)](x, x, out, n, 4096, XBLOCK=1024)\n    return out\n";
    let ex = extract_text(Language::Triton, src);
    let p = crate::features::profile(ex.kernel("split_kernel").expect("kernel"));
    let ratio = p.features.load_bytes / p.features.store_bytes;
    assert!((0.9..1.1).contains(&ratio), "two half loads move one tensor: {ratio}");
}

#[test]
fn a_bias_indexed_by_a_small_modulus_is_read_from_cache_not_streamed() {
    // An LLM's bias add over a flat tensor: the bias of four channels, read for every
    // element at `offsets % 4` (or `& 3`), is four floats, not a second tensor.
    let src = |index: &str| {
        format!(
            "import torch\nimport triton\nimport triton.language as tl\n\n@triton.jit\n\
             def bias_kernel(net_ptr, bias_ptr, out_ptr, n, BLOCK: tl.constexpr):\n    \
             offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)\n    mask = offsets < n\n    \
             x = tl.load(net_ptr + offsets, mask=mask)\n    c = {index}\n    \
             b = tl.load(bias_ptr + c, mask=mask)\n    tl.store(out_ptr + offsets, x + b, mask=mask)\n\n\
             def add_bias(net, bias):\n    out = torch.empty_like(net)\n    n = net.numel()\n    \
             bias_kernel[(triton.cdiv(n, 1024),)](net, bias, out, n, BLOCK=1024)\n    return out\n"
        )
    };
    for index in ["offsets % 4", "offsets & 3"] {
        let text = src(index);
        let ex = extract_text(Language::Triton, &text);
        let p = crate::features::profile(ex.kernel("bias_kernel").expect("kernel"));
        let ratio = p.features.load_bytes / p.features.store_bytes;
        assert!((0.9..1.1).contains(&ratio), "{index}: the net alone is streamed in: {ratio}");
    }
}

#[test]
fn a_pooling_window_reads_its_input_about_once_not_once_a_tap() {
    // A Triton 2-D window sum: each output reads K × K taps, but the tap one column over is
    // this tile's own next element and the row one down the next program's row: DRAM moves
    // the input about once, L1/L2 serve the rest.
    let src = "import torch\nimport triton\nimport triton.language as tl\n\n# kforecast: H = 4096; W = 4096\n\
               @triton.jit\ndef window(x_ptr, y_ptr, H, W, K: tl.constexpr, BLOCK: tl.constexpr):\n    \
               pid_w = tl.program_id(0)\n    y = tl.program_id(1)\n    offs = pid_w * BLOCK + tl.arange(0, BLOCK)\n    \
               acc = tl.zeros([BLOCK], dtype=tl.float32)\n    for ky in range(K):\n        for kx in range(K):\n            \
               acc += tl.load(x_ptr + (y + ky) * W + offs + kx, mask=offs + kx < W)\n    \
               tl.store(y_ptr + y * W + offs, acc, mask=offs < W)\n\n\ndef run(x, y, H, W):\n    \
               window[(triton.cdiv(W, 256), H - 4)](x, y, H, W, K=5, BLOCK=256)\n";
    let ex = extract_text(Language::Triton, src);
    let p = crate::features::profile(ex.kernel("window").expect("kernel"));
    let ratio = p.features.load_bytes / p.features.store_bytes;
    assert!((0.9..1.3).contains(&ratio), "25 taps, the input moved about once: {ratio}");
    // A loop that moves a whole tile a trip streams new data: each program sums its row's
    // five chunks, none of which another program reads.
    let rows = "import torch\nimport triton\nimport triton.language as tl\n\n@triton.jit\n\
                def rowsum(x_ptr, y_ptr, K: tl.constexpr, BLOCK: tl.constexpr):\n    row = tl.program_id(0)\n    \
                acc = tl.zeros([BLOCK], dtype=tl.float32)\n    for k in range(K):\n        \
                acc += tl.load(x_ptr + row * K * BLOCK + k * BLOCK + tl.arange(0, BLOCK))\n    \
                tl.store(y_ptr + row * BLOCK + tl.arange(0, BLOCK), acc)\n\n\ndef run(x, y):\n    \
                rowsum[(4096,)](x, y, K=5, BLOCK=256)\n";
    let ex = extract_text(Language::Triton, rows);
    let p = crate::features::profile(ex.kernel("rowsum").expect("kernel"));
    let ratio = p.features.load_bytes / p.features.store_bytes;
    assert!((4.9..5.1).contains(&ratio), "five chunks of new data an output: {ratio}");
}

#[test]
fn a_kernel_function_runs_on_the_problem_s_inputs() {
    // A KernelAgent candidate defines `kernel_function(A, x)` and no inputs; its harness
    // calls it with the KernelBench problem's `get_inputs()`. Compared with the problem,
    // its sizes are the problem's: a (2048 × 65536) matrix, not a guess.
    let candidate = "import torch\nimport triton\nimport triton.language as tl\n\n@triton.jit\n\
                     def matvec(a_ptr, x_ptr, c_ptr, M, K, BLOCK_K: tl.constexpr):\n    row = tl.program_id(0)\n    \
                     acc = tl.zeros([BLOCK_K], dtype=tl.float32)\n    for k in range(0, K, BLOCK_K):\n        \
                     offs = k + tl.arange(0, BLOCK_K)\n        \
                     acc += tl.load(a_ptr + row * K + offs, mask=offs < K) * tl.load(x_ptr + offs, mask=offs < K)\n    \
                     tl.store(c_ptr + row, tl.sum(acc, axis=0))\n\n\ndef kernel_function(A, x):\n    M, K = A.shape\n    \
                     c = torch.empty(M, device=A.device)\n    matvec[(M,)](A, x, c, M, K, BLOCK_K=1024)\n    return c\n";
    let problem = "M = 2048\nK = 65536\n\n\ndef get_inputs():\n    A = torch.rand(M, K)\n    B = torch.rand(K, 1)\n    return [A, B]\n";
    let text = crate::extract::borrow_inputs(candidate, problem).expect("borrowed");
    let ex = extract_text(Language::Triton, &text);
    let p = crate::features::profile(ex.kernel("matvec").expect("kernel"));
    // The matrix, and the vector again for each row (which L2 serves: not modelled).
    let matrix = 2048.0 * 65536.0 * 4.0;
    assert!((1.9..2.1).contains(&(p.features.load_bytes / matrix)), "{}", p.features.load_bytes);
    assert_eq!(p.guesses, 0, "no size left to guess");
}

#[test]
fn a_window_size_normalised_from_a_tuple_keeps_its_value() {
    // `if isinstance(kernel_size, (tuple, list)): kernel_size = kernel_size[0]` leaves a
    // number as it is: a 2-tap window, not a size left to run time.
    let src = "import torch\nimport triton\nimport triton.language as tl\n\n@triton.jit\n\
               def pool(x_ptr, y_ptr, n, ks: tl.constexpr, BLOCK: tl.constexpr):\n    \
               offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)\n    acc = tl.zeros([BLOCK], dtype=tl.float32)\n    \
               for k in range(ks):\n        acc += tl.load(x_ptr + offs * ks + k, mask=offs < n)\n    \
               tl.store(y_ptr + offs, acc, mask=offs < n)\n\n\ndef pool1d(x, kernel_size=2):\n    \
               if isinstance(kernel_size, (tuple, list)):\n        kernel_size = kernel_size[0]\n    \
               n = 1048576\n    y = torch.empty(n, device=x.device)\n    \
               pool[(triton.cdiv(n, 1024),)](x, y, n, ks=kernel_size, BLOCK=1024)\n    return y\n";
    let ex = extract_text(Language::Triton, src);
    let p = crate::features::profile(ex.kernel("pool").expect("kernel"));
    assert_eq!(p.guesses, 0, "the window is 2 taps: {:?}", p.assumed);
    let ratio = p.features.load_bytes / p.features.store_bytes;
    assert!((1.5..2.5).contains(&ratio), "two inputs an output: {ratio}");
}

#[test]
fn a_wrapper_s_contiguous_copy_has_its_input_s_sizes() {
    // An agent's LogSoftmax candidate: the C++ wrapper sizes the grid from a contiguous copy
    // of its argument (`auto input = arg0.contiguous(); rows = input.size(0)`); the problem's
    // `get_inputs()` (borrowed: the candidate has none) gives the argument's shape.
    let candidate = "import torch\nfrom torch.utils.cpp_extension import load_inline\n\n\
        source = '''\n#include <torch/extension.h>\n\
        __global__ void rows_kernel(const float* x, float* y, int rows, int cols) {\n\
          const float* row_x = x + (size_t)blockIdx.x * cols;\n\
          for (int c = threadIdx.x; c < cols; c += blockDim.x) y[(size_t)blockIdx.x * cols + c] = row_x[c] * 2.0f;\n\
        }\n\
        torch::Tensor wrapper(torch::Tensor arg0) {\n\
          auto input = arg0.contiguous();\n\
          const int rows = static_cast<int>(input.size(0));\n\
          const int cols = static_cast<int>(input.size(1));\n\
          auto output = torch::empty_like(input);\n\
          rows_kernel<<<rows, 256>>>(input.data_ptr<float>(), output.data_ptr<float>(), rows, cols);\n\
          return output;\n\
        }\n'''\n\n\
        ext = load_inline(name='rows', cpp_sources='torch::Tensor wrapper(torch::Tensor arg0);',\n\
                          cuda_sources=source, functions=['wrapper'])\n\n\n\
        def kf_run(x):\n    return ext.wrapper(x)\n";
    let problem = "import torch\n\nbatch_size = 256\ndim = 393216\n\ndef get_inputs():\n    \
                   x = torch.rand(batch_size, dim)\n    return [x]\n";
    let text = crate::extract::borrow_inputs(candidate, problem).expect("borrowed");
    let ex = extract_text(Language::Triton, &text);
    let p = crate::features::profile(ex.kernel("rows_kernel").expect("kernel"));
    assert_eq!(p.features.blocks, 256.0, "a block a row: {:?}", p.assumed);
    assert!(p.assumed.is_empty(), "no size left to run time: {:?}", p.assumed);
}
