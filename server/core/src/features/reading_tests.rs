//! Profiles of kernels written in styles other than the corpus's own (found misread in
//! the foreign-style training set): what a user reading `kforecast profile` would notice.

use crate::extract::extract_text;
use crate::kernel::Language;

mod constant_memory;
mod exclusive;
mod host_code;
mod jit_helpers;
mod kernels;
mod launches;
mod pointer_ranges;
mod python;
mod run_time_sizes;
mod tails;
mod tensor_cores;
mod torch;
mod torch_fusion;
mod torch_matmul;
mod wrapper_chains;

fn profile_of(src: &str, name: &str) -> super::Profile {
    let ex = extract_text(Language::Cuda, src);
    super::profile(ex.kernel(name).expect("kernel"))
}

const ROWS: f64 = 4096.0;
const COLS: f64 = 4096.0;

/// A row-per-warp argmax over a declared 4096 × 4096 matrix, its row read by `read`.
fn argmax_rows(read: &str) -> String {
    format!(
        r#"
// kforecast: rows = 4096; cols = 4096; x: f32[rows, cols] randn; out: i32[rows]
__global__ void argmax_rows(const float* __restrict__ x, int* __restrict__ out, int rows, int cols) {{
    int lane = threadIdx.x & 31;
    int r = blockIdx.x * 8 + (threadIdx.x >> 5);
    if (r >= rows) return;
    const float* row = x + (size_t)r * cols;
    float best = -1e30f;
    for (int j = lane; j < cols; j += 32) {{
        float v = {read};
        best = v > best ? v : best;
    }}
    if (lane == 0) out[r] = (int)best;
}}
void launch(const float* x, int* out, int rows, int cols) {{
    argmax_rows<<<(rows + 7) / 8, 256>>>(x, out, rows, cols);
}}
"#
    )
}

#[test]
fn loads_through_ldg_and_pointer_arithmetic_are_counted() {
    let matrix = ROWS * COLS * 4.0;
    for read in ["row[j]", "__ldg(row + j)", "__ldg(&row[j])", "*(row + j)"] {
        let p = profile_of(&argmax_rows(read), "argmax_rows");
        let ratio = p.features.load_bytes / matrix;
        assert!((0.9..1.2).contains(&ratio), "{read}: {} bytes loaded", p.features.load_bytes);
    }
}

#[test]
fn a_cooperative_groups_loop_reads_its_row_once() {
    let src = r#"
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
struct ArgMax { float v; int j; };
__device__ ArgMax pick(ArgMax a, ArgMax b) { return b.v > a.v ? b : a; }
// kforecast: rows = 4096; cols = 4096; x: f32[rows, cols] randn; out: i32[rows]
__global__ void row_argmax(const float* __restrict__ x, int* __restrict__ out, int cols) {
    cg::thread_block block = cg::this_thread_block();
    const float* row = x + (size_t)blockIdx.x * cols;
    ArgMax mine{-1e30f, 0};
    for (int j = block.thread_rank(); j < cols; j += 256) mine = pick(mine, ArgMax{row[j], j});
    if (block.thread_rank() == 0) out[blockIdx.x] = mine.j;
}
void launch(const float* x, int* out, int rows, int cols) {
    row_argmax<<<rows, 256>>>(x, out, cols);
}
"#;
    let p = profile_of(src, "row_argmax");
    let ratio = p.features.load_bytes / (ROWS * COLS * 4.0);
    assert!((0.9..1.2).contains(&ratio), "{} bytes loaded", p.features.load_bytes);
    assert_eq!(p.features.uncoalesced_bytes, 0.0, "{:?}", p.features);
}

#[test]
fn sizes_known_only_at_run_time_make_a_plausible_problem_together() {
    // rows and cols come from the tensor at run time: the grid is rows, the loop cols.
    let src = argmax_rows("row[j]").replace("// kforecast: rows = 4096; cols = 4096;", "// sizes:");
    let p = profile_of(&src, "argmax_rows");
    assert_eq!(p.assumed, ["cols", "rows"]);
    let elements = super::expr::ASSUMED_SIZE;
    let ratio = p.features.load_bytes / (4.0 * elements);
    assert!((0.5..2.0).contains(&ratio), "{} bytes loaded", p.features.load_bytes);
    assert!(p.features.blocks < elements, "{} blocks", p.features.blocks);
}

#[test]
fn a_cast_launch_dimension_is_not_a_size_named_unsigned() {
    let src = r#"
#define CDIV(a, b) (((a) + (b) - 1) / (b))
__global__ void scale(const float* x, float* y, long long n) {
    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = 2.0f * x[i];
}
void launch(const float* x, float* y, int rows, int cols) {
    long long total = (long long)rows * cols;
    scale<<<(unsigned)CDIV(total, 256), 256>>>(x, y, total);
}
"#;
    let p = profile_of(src, "scale");
    assert_eq!(p.assumed, ["cols", "rows"]);
    let each = super::expr::assumed_each(&["cols", "rows"]);
    assert_eq!(p.features.blocks, (each * each / 256.0).ceil());
}

#[test]
fn float_scalars_and_window_offsets_are_not_problem_sizes() {
    let src = r#"
__global__ void pool(const float* x, float* y, int H, int W, int OH, int OW, int S, int P, float eps) {
    int ox = blockIdx.x * blockDim.x + threadIdx.x;
    int oy = blockIdx.y;
    if (ox >= OW) return;
    float best = -1e30f;
    for (int ky = 0; ky < 3; ++ky) {
        int iy = oy * S - P + ky;
        for (int kx = 0; kx < 3; ++kx) {
            int ix = ox * S - P + kx;
            if (iy >= 0 && iy < H && ix >= 0 && ix < W) best = fmaxf(best, x[iy * W + ix] + eps);
        }
    }
    y[oy * OW + ox] = best;
}
void launch(const float* x, float* y, int H, int W, int S, int P, float eps) {
    int OH = (H + 2 * P - 3) / S + 1, OW = (W + 2 * P - 3) / S + 1;
    dim3 grid((OW + 127) / 128, OH);
    pool<<<grid, 128>>>(x, y, H, W, OH, OW, S, P, eps);
}
"#;
    let p = profile_of(src, "pool");
    for name in ["eps", "P"] {
        assert!(!p.assumed.iter().any(|a| a == name), "{name} taken for a size: {:?}", p.assumed);
    }
}

#[test]
fn a_grid_sized_from_the_sm_count_has_that_many_blocks() {
    for query in [
        "int sms = 0; cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);",
        "cudaDeviceProp props; cudaGetDeviceProperties(&props, 0); int sms = props.multiProcessorCount;",
    ] {
        let src = format!(
            r#"
// kforecast: n = 1 << 24; x: f32[n] randn; y: f32[n]
__global__ void axpy(const float* x, float* y, int n) {{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) y[i] += 2.0f * x[i];
}}
void launch(const float* x, float* y, int n) {{
    {query}
    int grid = sms * 4;
    axpy<<<grid, 256>>>(x, y, n);
}}
"#
        );
        let p = profile_of(&src, "axpy");
        assert_eq!(p.features.blocks, 132.0 * 4.0, "{query}");
        let ratio = p.features.load_bytes / (2.0 * 4.0 * f64::from(1u32 << 24));
        assert!((0.9..1.2).contains(&ratio), "{query}: {} bytes loaded", p.features.load_bytes);
    }
}

#[test]
fn a_one_block_tail_kernel_is_not_a_second_pass() {
    let src = r#"
// kforecast: n = 1 << 24; x: f32[n] randn; y: f32[n]
__global__ void body4(const float4* x, float4* y, int n4) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n4) { float4 v = x[i]; v.x *= 2.f; v.y *= 2.f; v.z *= 2.f; v.w *= 2.f; y[i] = v; }
}
__global__ void tail(const float* x, float* y, int start, int n) {
    int i = start + threadIdx.x;
    if (i < n) y[i] = 2.f * x[i];
}
void launch(const float* x, float* y, int n) {
    body4<<<(n / 4 + 255) / 256, 256>>>((const float4*)x, (float4*)y, n / 4);
    tail<<<1, 32>>>(x, y, n / 4 * 4, n);
}
"#;
    let ex = extract_text(Language::Cuda, src);
    let mut p = super::profile(ex.kernel("body4").expect("kernel"));
    let t = super::profile(ex.kernel("tail").expect("kernel"));
    assert!(t.features.load_bytes < 1024.0, "{:?}", t.features);
    p.absorb(&t, &super::Rates::H100);
    assert!((p.features.global_passes - 1.0).abs() < 0.01, "{}", p.features.global_passes);
    let mut twice = super::profile(ex.kernel("body4").expect("kernel"));
    twice.absorb(&super::profile(ex.kernel("body4").expect("kernel")), &super::Rates::H100);
    assert_eq!(twice.features.global_passes, 2.0);
}

#[test]
fn a_loop_written_as_a_macro_is_walked() {
    let src = r#"
#define FOR_GRID_STRIDE(i, n) \
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < (n); \
         i += (long long)gridDim.x * blockDim.x)
// kforecast: n = 1 << 24; idx: i32[n] randint(0, 256); w: f32[n] randn; bins: f32[256] zeros
__global__ void bincount(const int* idx, const float* w, float* bins, long long n) {
    FOR_GRID_STRIDE(i, n) atomicAdd(bins + idx[i], w[i]);
}
void launch(const int* idx, const float* w, float* bins, long long n) {
    bincount<<<1024, 256>>>(idx, w, bins, n);
}
"#;
    let p = profile_of(src, "bincount");
    let n = f64::from(1u32 << 24);
    let ratio = p.features.load_bytes / (8.0 * n);
    assert!((0.9..1.2).contains(&ratio), "{} bytes loaded", p.features.load_bytes);
    // One atomic per element, spread over the threads.
    let per_thread = n / (1024.0 * 256.0);
    assert!(p.features.atomics >= 0.9 * per_thread, "{:?}", p.features);
    assert_eq!(p.features.loops, 1.0);
}

#[test]
fn a_column_major_thread_order_is_uncoalesced_at_run_time_sizes() {
    let kernel = |order: &str| {
        format!(
            r#"
__global__ void up2(const float* in, float* out, long long planes, int H, int W) {{
    const int OH = 2 * H, OW = 2 * W;
    long long idx = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (idx >= planes * OH * OW) return;
    {order}
    long long p = idx / ((long long)OH * OW);
    out[(p * OH + oy) * OW + ox] = in[(p * H + oy / 2) * W + ox / 2];
}}
void launch(const float* in, float* out, long long planes, int H, int W) {{
    up2<<<(planes * 4 * H * W + 255) / 256, 256>>>(in, out, planes, H, W);
}}
"#
        )
    };
    let rows = profile_of(&kernel("int ox = (int)(idx % OW); int oy = (int)((idx / OW) % OH);"), "up2");
    let cols = profile_of(&kernel("int oy = (int)(idx % OH); int ox = (int)((idx / OH) % OW);"), "up2");
    assert_eq!(rows.features.uncoalesced_bytes, 0.0, "{:?}", rows.features);
    assert!(cols.features.uncoalesced_bytes > rows.features.store_bytes, "{:?}", cols.features);
}

#[test]
fn a_window_stride_is_taken_as_one_not_as_a_size() {
    let src = r#"
__global__ void pool(const float* x, float* y, int H, int W, int OH, int OW, int stride, int pad, int total) {
    int o = blockIdx.x * blockDim.x + threadIdx.x;
    if (o >= total) return;
    int ox = o % OW, oy = (o / OW) % OH, plane = o / (OW * OH);
    float best = -1e30f;
    for (int k = 0; k < 9; ++k) {
        int iy = oy * stride - pad + k / 3, ix = ox * stride - pad + k % 3;
        if (iy >= 0 && iy < H && ix >= 0 && ix < W) best = fmaxf(best, x[(plane * H + iy) * W + ix]);
    }
    y[o] = best;
}
void launch(const float* x, float* y, int N, int C, int H, int W, int stride, int pad) {
    int OH = (H + 2 * pad - 3) / stride + 1, OW = (W + 2 * pad - 3) / stride + 1;
    int total = N * C * OH * OW;
    pool<<<(total + 255) / 256, 256>>>(x, y, H, W, OH, OW, stride, pad, total);
}
"#;
    let p = profile_of(src, "pool");
    assert_eq!(p.assumed, ["C", "H", "N", "W"]);
    // Stride 1, padding 1: as many outputs as inputs, about 2^22 of them.
    let outputs = p.features.store_bytes / 4.0;
    assert!((0.5..2.0).contains(&(outputs / super::expr::ASSUMED_SIZE)), "{outputs} outputs");
    // The window's guard `ix < W` holds in every row of outputs (ix wraps with o % OW): each
    // output reads its window, its neighbours' pixels from L1/L2, and one fresh element.
    assert!(p.features.load_bytes >= 0.99 * p.features.store_bytes, "{:?}", p.features);
}

#[test]
fn a_pointer_derived_per_lane_strides_its_reads() {
    let kernel = |pointer: &str| {
        format!(
            r#"
// kforecast: n = 1 << 20; x: f32[n, 64] randn; y: f32[n]
__global__ void k(const float* x, float* y, int n) {{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const float* p = {pointer};
    y[i] = __ldg(p + 0 * n + 1) + p[0];
}}
void launch(const float* x, float* y, int n) {{ k<<<(n + 255) / 256, 256>>>(x, y, n); }}
"#
        )
    };
    let along = profile_of(&kernel("x + i"), "k");
    let across = profile_of(&kernel("x + (size_t)i * 64"), "k");
    assert_eq!(along.features.uncoalesced_bytes, 0.0, "{:?}", along.features);
    assert!(across.features.uncoalesced_bytes > along.features.load_bytes, "{:?}", across.features);
}

#[test]
fn a_tile_padded_by_a_zero_define_is_not_padded() {
    let kernel = |pad: u32| {
        format!(
            r#"
#define TILE 32
#define PAD {pad}
// kforecast: n = 4096; x: f32[n, n] randn; y: f32[n, n]
__global__ void transpose_tile(const float* x, float* y, int n) {{
    __shared__ float tile[TILE][TILE + PAD];
    int c = blockIdx.x * TILE + threadIdx.x, r = blockIdx.y * TILE + threadIdx.y;
    tile[threadIdx.y][threadIdx.x] = x[r * n + c];
    __syncthreads();
    y[(blockIdx.x * TILE + threadIdx.y) * n + blockIdx.y * TILE + threadIdx.x] = tile[threadIdx.x][threadIdx.y];
}}
void launch(const float* x, float* y, int n) {{
    transpose_tile<<<dim3(n / TILE, n / TILE), dim3(TILE, TILE)>>>(x, y, n);
}}
"#
        )
    };
    let plain = profile_of(&kernel(0), "transpose_tile");
    let padded = profile_of(&kernel(1), "transpose_tile");
    assert_eq!((plain.features.shared_padded, padded.features.shared_padded), (0.0, 1.0));
    assert!(plain.features.bank_conflicts > 0.0 && padded.features.bank_conflicts == 0.0, "{:?}", plain.features);
}

/// An elementwise kernel whose loads and stores are written in `__device__` helpers.
fn through_helpers(index: &str) -> String {
    format!(
        r#"
__device__ __forceinline__ float load_scaled(const float* __restrict__ p, long long at, float s) {{
    return s * p[at];
}}
__device__ void store_out(float* q, int at, float v) {{ q[at] = v; }}
__device__ float warp_sum(float v) {{
    for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffff, v, o);
    return v;
}}
__device__ float deep(const float* p, int at, int k) {{ return k > 0 ? deep(p, at, k - 1) : p[at]; }}
// kforecast: n = 1 << 24; x: f32[n, 32] randn; y: f32[n]
__global__ void scale(const float* x, float* y, int n) {{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) store_out(y, i, warp_sum(load_scaled(x, {index}, 2.0f)) + deep(x, i, 3));
}}
void launch(const float* x, float* y, int n) {{ scale<<<(n + 255) / 256, 256>>>(x, y, n); }}
"#
    )
}

#[test]
fn loads_and_stores_in_device_helpers_count_with_the_call_arguments() {
    let n = f64::from(1u32 << 24);
    let along = profile_of(&through_helpers("i"), "scale");
    let f = &along.features;
    // `load_scaled` and `deep` read x (L2 serves the second), `store_out` writes y.
    assert!(f.load_bytes >= 0.9 * 4.0 * n && f.load_bytes <= 2.2 * 4.0 * n, "{f:?}");
    assert!((0.9..1.2).contains(&(f.store_bytes / (4.0 * n))), "{f:?}");
    assert_eq!(f.uncoalesced_bytes, 0.0, "{f:?}");
    assert!(f.shuffles >= 5.0, "the warp sum's shuffles: {f:?}");
    // The index bound to the helper's parameter sets the stride of its read.
    let across = profile_of(&through_helpers("(long long)i * 32"), "scale");
    assert!(across.features.uncoalesced_bytes > f.load_bytes, "{:?} {:?}", across.features, f);
}

/// Rotary embedding over x[batch, seq_len, num_heads, head_dim] with tables
/// [seq_len, head_dim / 2]: four sizes known only at run time.
const ROPE: &str = r#"
__global__ void rope(float* x, const float* cos_t, const float* sin_t, int batch, int seq_len, int num_heads, int head_dim) {
    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    int half = head_dim / 2;
    if (i >= (long long)batch * seq_len * num_heads * half) return;
    int d = i % half;
    long long t = i / half;
    int s = (t / num_heads) % seq_len;
    float* v = x + t * head_dim;
    float c = cos_t[s * half + d], sn = sin_t[s * half + d];
    float a = v[d], b = v[d + half];
    v[d] = a * c - b * sn;
    v[d + half] = a * sn + b * c;
}
void launch(float* x, const float* cos_t, const float* sin_t, int batch, int seq_len, int num_heads, int head_dim) {
    long long total = (long long)batch * seq_len * num_heads * (head_dim / 2);
    rope<<<(total + 255) / 256, 256>>>(x, cos_t, sin_t, batch, seq_len, num_heads, head_dim);
}
"#;

#[test]
fn four_unknown_sizes_keep_each_tensor_in_a_realistic_range() {
    let p = profile_of(ROPE, "rope");
    assert_eq!(p.assumed, ["batch", "head_dim", "num_heads", "seq_len"]);
    // x is one large tensor of the assumed size, read and written once.
    let ratio = p.features.store_bytes / (4.0 * super::expr::ASSUMED_SIZE);
    assert!((0.5..2.0).contains(&ratio), "{:?}", p.features);
    // Over the whole prior: x (all four) stays within its elements, and the tables
    // (seq_len × head_dim) and a head (seq_len rows) are not a few dozen elements.
    for (elements, each) in crate::forecast::trained::size_prior(&p.assumed) {
        let v = |n: &str| super::expr::assumed_value(n, each);
        let x = v("batch") * v("seq_len") * v("num_heads") * v("head_dim");
        assert!((0.5..2.0).contains(&(x / elements)), "x: {x} at {elements}");
        if elements >= super::expr::ASSUMED_SIZE {
            assert!(v("seq_len") >= 256.0 && v("seq_len") * v("head_dim") >= 16384.0, "at {elements}: {each}");
        }
    }
    // Without names that tell a role, N·C·H·W still make one tensor of the assumed size.
    let names = ["N", "H", "W", "K"];
    let each = super::expr::assumed_each(&names);
    assert!((0.5..2.0).contains(&(each.powi(4) / super::expr::ASSUMED_SIZE)), "{each}");
}

/// `y = 2x` over a declared 2^20 elements, written as `body`, launched as `launch`.
fn scale_written(body: &str, launch: &str) -> String {
    format!(
        r#"
// kforecast: n = 1 << 20; x: f32[n] randn; y: f32[n]
__global__ void scale(const float* x, float* y, int n) {{ {body} }}
void launch(const float* x, float* y, int n) {{ scale{launch}(x, y, n); }}
"#
    )
}

#[test]
fn a_loop_one_thread_runs_alone_is_serial_latency_bound_work() {
    let serial = profile_of(&scale_written("for (int i = 0; i < n; ++i) y[i] = 2.0f * x[i];", "<<<1, 1>>>"), "scale");
    let guarded = profile_of(
        &scale_written("if (threadIdx.x == 0) { for (int i = 0; i < n; ++i) y[i] = 2.0f * x[i]; }", "<<<1, 256>>>"),
        "scale",
    );
    let parallel = profile_of(
        &scale_written(
            "int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) y[i] = 2.0f * x[i];",
            "<<<(n + 255) / 256, 256>>>",
        ),
        "scale",
    );
    // 2^20 loads one after another (tens of ns each) against 8 MB at full bandwidth: thousands of times slower.
    let n = f64::from(1u32 << 20);
    for (what, p) in [("<<<1, 1>>>", &serial), ("threadIdx.x == 0", &guarded)] {
        assert!(p.cost.total / parallel.cost.total > 3000.0, "{what}: {:?} against {:?}", p.cost, parallel.cost);
        assert!(p.cost.total >= n * super::Rates::H100.serial_load, "{what}: {:?}", p.cost);
    }
    let ratio = guarded.cost.total / serial.cost.total;
    assert!((0.5..2.0).contains(&ratio), "the same serial pass: {ratio}");
    // Thread 0 of each of 1024 blocks sums its row of 4096 alone: 4096 loads in turn.
    let rows = r#"
// kforecast: rows = 1024; cols = 4096; x: f32[rows, cols] randn; y: f32[rows]
__global__ void row_sum(const float* x, float* y, int cols) {
    if (threadIdx.x == 0) {
        float s = 0.0f;
        for (int j = 0; j < cols; ++j) s += x[(size_t)blockIdx.x * cols + j];
        y[blockIdx.x] = s;
    }
}
void launch(const float* x, float* y, int rows, int cols) { row_sum<<<rows, 256>>>(x, y, cols); }
"#;
    let p = profile_of(rows, "row_sum");
    assert!(p.cost.total >= 4096.0 * super::Rates::H100.serial_load, "{:?}", p.cost);
}

#[test]
fn a_loop_without_an_initialiser_starts_where_its_variable_stands() {
    // A z-sweep: each block walks its own slab, `for (; k < k_end; ++k)`.
    let src = "__global__ void sweep(const float* in, float* out, int z, int m, int n) {\n  \
               int i = threadIdx.x + blockIdx.x * blockDim.x;\n  int j = threadIdx.y + blockIdx.y * blockDim.y;\n  \
               const int block_z = z / gridDim.z;\n  int k = block_z * blockIdx.z;\n  const int k_end = k + block_z;\n  \
               for (; k < k_end; ++k) {\n    out[(k * m + j) * n + i] = 2.0f * in[(k * m + j) * n + i];\n  }\n}\n\
               extern \"C\" void run(const float* in, float* out) {\n  dim3 block(32, 8, 1);\n  \
               dim3 grid(256 / 32, 256 / 8, 4);\n  sweep<<<grid, block>>>(in, out, 256, 256, 256);\n}\n";
    let p = profile_of(src, "sweep");
    // Each of the 256³ floats read once: the slab of 64, not the mean thread's distance from 0.
    assert_eq!(p.features.load_bytes, 4.0 * 256.0 * 256.0 * 256.0, "{:?}", p.features);
}
