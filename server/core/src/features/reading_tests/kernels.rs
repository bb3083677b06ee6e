//! How the steps of a kernel ladder change what a warp does: a tree reduction's branch
//! that leaves most lanes of every warp idle, shared-memory strides that conflict on the
//! banks, and unrolled vector accesses that together cover a row.

use super::profile_of;

/// A per-block sum over shared memory (our own text); `step` is one tree step of the loop
/// `loop_head`, as the classic reduction ladder rewrites it.
fn block_sum(loop_head: &str, step: &str) -> String {
    format!(
        r#"
#define THREADS 256
__global__ void block_sum(const float *in, float *out) {{
    __shared__ float part[THREADS];
    unsigned int t = threadIdx.x;
    part[t] = in[blockIdx.x * blockDim.x + t];
    __syncthreads();
    {loop_head} {{
        {step}
        __syncthreads();
    }}
    if (t == 0) out[blockIdx.x] = part[0];
}}
void run(const float *in, float *out) {{
    const int n = 1 << 24;
    block_sum<<<n / THREADS, THREADS>>>(in, out);
}}
"#
    )
}

const UPWARD: &str = "for (unsigned int s = 1; s < blockDim.x; s *= 2)";
const DOWNWARD: &str = "for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1)";

/// Interleaved addressing: one lane in `2s` adds, in every warp.
fn divergent() -> String {
    block_sum(UPWARD, "if (t % (2 * s) == 0) part[t] += part[t + s];")
}

/// Strided index: the first lanes add, `2s` words apart.
fn strided() -> String {
    block_sum(UPWARD, "int at = 2 * s * t; if (at < blockDim.x) part[at] += part[at + s];")
}

/// Sequential addressing: the first `s` lanes add neighbours `s` away.
fn sequential() -> String {
    block_sum(DOWNWARD, "if (t < s) part[t] += part[t + s];")
}

#[test]
fn a_branch_one_lane_in_k_takes_costs_its_whole_warp() {
    let (divergent, sequential) = (profile_of(&divergent(), "block_sum"), profile_of(&sequential(), "block_sum"));
    // Eight steps; in most, every warp issues the add for one lane in 2s: far more shared
    // work than the steps where only the first lanes (whole warps) run.
    let ratio = divergent.features.shared_accesses / sequential.features.shared_accesses;
    assert!(ratio > 2.0, "{ratio}: {:?} vs {:?}", divergent.features, sequential.features);
    // `t % (2 * s)` divides by a value known only at run time.
    assert!(divergent.cost.compute > 2.0 * sequential.cost.compute, "{:?} vs {:?}", divergent.cost, sequential.cost);
    assert!(divergent.cost.total > sequential.cost.total * 1.1, "{:?} vs {:?}", divergent.cost, sequential.cost);
    // The eight steps are eight barriers, not nine.
    assert_eq!(sequential.features.syncs, 9.0, "{:?}", sequential.features);
    assert_eq!(divergent.features.syncs, 9.0, "{:?}", divergent.features);
}

#[test]
fn a_stride_of_two_s_words_conflicts_on_the_banks_and_sequential_addressing_does_not() {
    let (divergent, strided, sequential) = (
        profile_of(&divergent(), "block_sum"),
        profile_of(&strided(), "block_sum"),
        profile_of(&sequential(), "block_sum"),
    );
    assert_eq!(divergent.features.bank_conflicts, 0.0, "each lane reads its own word: {:?}", divergent.features);
    assert_eq!(sequential.features.bank_conflicts, 0.0, "{:?}", sequential.features);
    assert!(strided.features.bank_conflicts > 0.0, "{:?}", strided.features);
    // The strided step issues for the first warps only, as the sequential one does, but
    // its conflicts make it the dearer of the two; the divergent one is dearer still.
    assert!(strided.cost.shared > 2.0 * sequential.cost.shared, "{:?} vs {:?}", strided.cost, sequential.cost);
    assert!(strided.cost.total > sequential.cost.total, "{:?} vs {:?}", strided.cost, sequential.cost);
    assert!(divergent.cost.total > strided.cost.total, "{:?} vs {:?}", divergent.cost, strided.cost);
}

#[test]
fn lanes_a_branch_leaves_apart_read_global_memory_apart() {
    // The same ladder in place in global memory: the adding lanes of `t % (2 * s) == 0`
    // are 2s apart, so are their elements; sectors are fetched for the lanes between.
    let in_place = |step: &str| {
        block_sum(UPWARD, step).replace(
            "part[t] = in[blockIdx.x * blockDim.x + t];",
            "float *g = (float *)in + blockIdx.x * blockDim.x; part[t] = 0.f;",
        )
    };
    let divergent = profile_of(&in_place("if (t % (2 * s) == 0) g[t] += g[t + s];"), "block_sum");
    let strided = profile_of(&in_place("int at = 2 * s * t; if (at < blockDim.x) g[at] += g[at + s];"), "block_sum");
    assert!(divergent.features.uncoalesced_bytes > 0.0, "{:?}", divergent.features);
    let ratio = divergent.features.uncoalesced_bytes / strided.features.uncoalesced_bytes;
    assert!((0.8..1.25).contains(&ratio), "{ratio}: {:?} vs {:?}", divergent.features, strided.features);
    assert!(divergent.cost.total > strided.cost.total, "{:?} vs {:?}", divergent.cost, strided.cost);
}

/// Eight halves per thread (our own text), read and written by `body` at `i = 8 * thread`.
fn eight_halves(body: &str) -> String {
    format!(
        r#"
#include <cuda_fp16.h>
#define HALF2(v) (reinterpret_cast<half2 *>(&(v))[0])
#define LDST128BITS(v) (reinterpret_cast<float4 *>(&(v))[0])
__global__ void add8(half *a, half *b, half *c, int n) {{
    int i = 8 * (blockIdx.x * blockDim.x + threadIdx.x);
    if (i + 7 >= n) return;
    {body}
}}
void run(half *a, half *b, half *c) {{
    const int n = 1 << 24;
    add8<<<n / 8 / 256, 256>>>(a, b, c, n);
}}
"#
    )
}

#[test]
fn unrolled_vector_accesses_at_constant_offsets_cover_the_row() {
    let wide = profile_of(
        &eight_halves(
            "half pa[8], pb[8], pc[8];\n    LDST128BITS(pa[0]) = LDST128BITS(a[i]);\n    \
             LDST128BITS(pb[0]) = LDST128BITS(b[i]);\n    \
             for (int k = 0; k < 8; k += 2) HALF2(pc[k]) = __hadd2(HALF2(pa[k]), HALF2(pb[k]));\n    \
             LDST128BITS(c[i]) = LDST128BITS(pc[0]);",
        ),
        "add8",
    );
    let pairs = (0..4)
        .map(|k| format!("HALF2(c[i + {o}]) = __hadd2(HALF2(a[i + {o}]), HALF2(b[i + {o}]));", o = 2 * k))
        .collect::<Vec<_>>()
        .join("\n    ");
    let four_half2 = profile_of(&eight_halves(&pairs), "add8");
    let cast =
        profile_of(&eight_halves(&pairs.replace("HALF2(c[i + 0])", "reinterpret_cast<half2 *>(&c[i + 0])[0]")), "add8");
    let bytes = 2.0 * f64::from(1u32 << 24);
    for (which, p) in [("wide", &wide), ("four", &four_half2), ("cast", &cast)] {
        assert_eq!(p.features.uncoalesced_bytes, 0.0, "{which}: {:?}", p.features);
        assert!((p.features.load_bytes / (2.0 * bytes) - 1.0).abs() < 0.01, "{:?}", p.features);
        assert!((p.features.store_bytes / bytes - 1.0).abs() < 0.01, "{:?}", p.features);
        // Sixteen bytes a lane, in one access or four.
        assert_eq!(p.features.vector_width, 4.0, "{which}: {:?}", p.features);
    }
    // One HALF2 of the eight alone skips three quarters of each lane's 16 bytes.
    let alone = profile_of(&eight_halves("HALF2(c[i]) = __hadd2(HALF2(a[i]), HALF2(b[i]));"), "add8");
    assert!(alone.features.uncoalesced_bytes > 0.0, "{:?}", alone.features);
    // Four floats of eight at offsets 0 and 4: FLOAT4 twice covers them too.
    let floats = eight_halves("").replace("half *", "float *").replace(
        "if (i + 7 >= n) return;",
        "if (i + 7 >= n) return;\n    float4 u = reinterpret_cast<float4 *>(&a[i + 4])[0];\n    \
         float4 v = reinterpret_cast<float4 *>(&a[i])[0];\n    c[i] = u.x + v.x;",
    );
    let floats = profile_of(&floats, "add8");
    // Eight floats a thread, every one read once (only the lone scalar store is strided).
    assert!((floats.features.load_bytes / (2.0 * bytes) - 1.0).abs() < 0.01, "{:?}", floats.features);
    let store_waste = floats.features.store_bytes - bytes / 4.0;
    assert!((floats.features.uncoalesced_bytes - store_waste).abs() < 1.0, "{:?}", floats.features);
}

/// A grid-stride sum (our own text) of `T`s ending in `tail`, which adds `sum` to `*out`.
fn grid_sum(ty: &str, tail: &str) -> String {
    format!(
        r#"
__global__ void grid_sum(const {ty} *in, {ty} *out, int n) {{
    {ty} sum = 0;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) sum += in[i];
    {tail}
}}
void run(const {ty} *in, {ty} *out) {{
    const int n = 1 << 24;
    grid_sum<<<1024, 256>>>(in, out, n);
}}
"#
    )
}

#[test]
fn a_warps_integer_atomics_on_one_address_cost_one_atomic() {
    let warp_first = "for (int o = 16; o > 0; o >>= 1) sum += __shfl_down_sync(0xffffffff, sum, o);\n    \
                      if (threadIdx.x % 32 == 0) atomicAdd(out, sum);";
    let each = profile_of(&grid_sum("int", "atomicAdd(out, sum);"), "grid_sum");
    let reduced = profile_of(&grid_sum("int", warp_first), "grid_sum");
    // The compiler reduces the warp's integer adds to one: no dearer than reducing by hand.
    let ratio = each.cost.atomics / reduced.cost.atomics;
    assert!((0.9..1.1).contains(&ratio), "{ratio}: {:?} vs {:?}", each.cost, reduced.cost);
    // Float adds are not combined: every lane's add waits its turn at the address.
    let each = profile_of(&grid_sum("float", "atomicAdd(out, sum);"), "grid_sum");
    let reduced = profile_of(&grid_sum("float", warp_first), "grid_sum");
    assert!(each.cost.atomics > 16.0 * reduced.cost.atomics, "{:?} vs {:?}", each.cost, reduced.cost);
}

/// A tiled transpose (our own text), `T`×`T` tiles of `T`×8 threads, the tile's row `row`.
fn tiled_transpose(t: u32, row: &str) -> String {
    format!(
        r#"
#define T {t}
__global__ void transpose(float *out, const float *in, int n) {{
    __shared__ float tile[T][{row}];
    int x = blockIdx.x * T + threadIdx.x, y = blockIdx.y * T + threadIdx.y;
    for (int j = 0; j < T; j += 8) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * n + x];
    __syncthreads();
    x = blockIdx.y * T + threadIdx.x; y = blockIdx.x * T + threadIdx.y;
    for (int j = 0; j < T; j += 8) out[(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];
}}
void run(float *out, const float *in) {{
    const int n = 8192;
    transpose<<<dim3(n / T, n / T), dim3(T, 8)>>>(out, in, n);
}}
"#
    )
}

#[test]
fn a_column_of_an_unpadded_tile_conflicts_as_many_ways_as_the_lanes_share_a_bank() {
    let wide = profile_of(&tiled_transpose(32, "T"), "transpose");
    let padded = profile_of(&tiled_transpose(32, "T + 1"), "transpose");
    let narrow = profile_of(&tiled_transpose(16, "T"), "transpose");
    assert_eq!(padded.features.bank_conflicts, 0.0, "{:?}", padded.features);
    // 32 lanes one row apart in a 32-word row: one bank, 32 turns for each column read.
    let per_read = wide.features.bank_conflicts / (wide.features.shared_accesses / 2.0);
    assert!((per_read - 31.0 / 15.0).abs() < 0.01, "{per_read}: {:?}", wide.features);
    assert!(wide.cost.shared > 10.0 * padded.cost.shared, "{:?} vs {:?}", wide.cost, padded.cost);
    // 16 lanes along x, 16 words apart: two banks, 8 turns.
    let per_read = narrow.features.bank_conflicts / (narrow.features.shared_accesses / 2.0);
    assert!((per_read - 7.0 / 15.0).abs() < 0.01, "{per_read}: {:?}", narrow.features);
}

/// A 3×3 convolution of a 4096 × 4096 image (our own text): `naive` reads each neighbour
/// from global memory, `tiled` stages an 18 × 18 tile with its halo in shared memory first.
fn conv3x3(tiled: bool) -> String {
    let body = if tiled {
        r#"__shared__ float s[18][18];
    int tx = threadIdx.x, ty = threadIdx.y;
    int x = blockIdx.x * 16 + tx - 1, y = blockIdx.y * 16 + ty - 1;
    s[ty][tx] = (x >= 0 && x < W && y >= 0 && y < W) ? in[y * W + x] : 0.0f;
    __syncthreads();
    if (tx >= 1 && tx < 17 && ty >= 1 && ty < 17) {
        float acc = 0.0f;
        for (int i = 0; i < 3; ++i)
            for (int j = 0; j < 3; ++j) acc += s[ty + i - 1][tx + j - 1] * w[i * 3 + j];
        out[(y) * W + x] = acc;
    }"#
    } else {
        r#"int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    float acc = 0.0f;
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) {
            int r = y + i - 1, c = x + j - 1;
            if (r >= 0 && r < W && c >= 0 && c < W) acc += in[r * W + c] * w[i * 3 + j];
        }
    out[y * W + x] = acc;"#
    };
    let block = if tiled { "dim3(18, 18)" } else { "dim3(16, 16)" };
    format!(
        r#"
#define W 4096
__global__ void conv(const float *in, const float *w, float *out) {{
    {body}
}}
void run(const float *in, const float *w, float *out) {{
    conv<<<dim3(W / 16, W / 16), {block}>>>(in, w, out);
}}
"#
    )
}

#[test]
fn a_stencils_neighbours_and_its_weights_cost_one_read_of_the_input() {
    let image = 4096.0 * 4096.0 * 4.0;
    let (naive, tiled) = (profile_of(&conv3x3(false), "conv"), profile_of(&conv3x3(true), "conv"));
    // Nine neighbours a thread, each another thread's own pixel: DRAM moves the image once,
    // and the nine weights every thread reads are cache hits.
    let ratio = naive.features.load_bytes / image;
    assert!((0.9..1.1).contains(&ratio), "{ratio}: {:?}", naive.features);
    // The tile moves as much (its halo again), and pays the barrier and the idle halo lanes.
    assert!(tiled.features.load_bytes >= naive.features.load_bytes, "{:?} vs {:?}", tiled.features, naive.features);
    assert!(tiled.cost.total > naive.cost.total, "{:?} vs {:?}", tiled.cost, naive.cost);
    // Neighbours written out one by one (a five-point stencil) are read once too.
    let five = conv3x3(false).replace(
        "for (int i = 0; i < 3; ++i)\n        for (int j = 0; j < 3; ++j) {\n            int r = y + i - 1, c = x + j - 1;\n            if (r >= 0 && r < W && c >= 0 && c < W) acc += in[r * W + c] * w[i * 3 + j];\n        }",
        "if (x > 0 && y > 0 && x < W - 1 && y < W - 1)\n        acc = in[y * W + x - 1] + in[y * W + x + 1] + in[(y - 1) * W + x] + in[(y + 1) * W + x] - 4.0f * in[y * W + x];",
    );
    assert!(five.contains("4.0f"), "the five-point text");
    let ratio = profile_of(&five, "conv").features.load_bytes / image;
    assert!((0.9..1.1).contains(&ratio), "{ratio}");
}

#[test]
fn reads_other_threads_do_not_share_are_dram_traffic_each() {
    // Each thread sums its own row three times over (three loops): nothing is a neighbour's.
    let src = r#"
__global__ void rows3(const float *x, float *out, int n) {
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    float m = 0.0f, s = 0.0f, t = 0.0f;
    for (int c = 0; c < n; c++) m = fmaxf(m, x[row * n + c]);
    for (int c = 0; c < n; c++) s += x[row * n + c] - m;
    for (int c = 0; c < n; c++) t += x[row * n + c] * s;
    out[row] = t;
}
void run(const float *x, float *out) {
    rows3<<<4096 / 256, 256>>>(x, out, 4096);
}
"#;
    let p = profile_of(src, "rows3");
    assert!(p.features.load_bytes > 2.0 * 4096.0 * 4096.0 * 4.0, "{:?}", p.features);
    // Two halves of an array a thread adds (a reduction's first step): each half is DRAM's.
    let halves = r#"
__global__ void halves(const float *x, float *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = x[i] + x[i + n / 2];
}
void run(const float *x, float *out) {
    const int n = 1 << 24;
    halves<<<n / 2 / 256, 256>>>(x, out, n);
}
"#;
    let p = profile_of(halves, "halves");
    let ratio = p.features.load_bytes / (f64::from(1u32 << 24) * 4.0);
    assert!((0.95..1.05).contains(&ratio), "{ratio}: {:?}", p.features);
}

/// A 256-bin histogram of 2^24 values (our own text), counted by `count` in a grid-stride
/// loop; `merge` runs after it.
fn histogram(shared: bool, count: &str) -> String {
    let (setup, merge) = if shared {
        (
            "__shared__ int local[256];\n    for (int b = threadIdx.x; b < num_bins; b += blockDim.x) local[b] = 0;\n    __syncthreads();",
            "__syncthreads();\n    for (int b = threadIdx.x; b < num_bins; b += blockDim.x) atomicAdd(&hist[b], local[b]);",
        )
    } else {
        ("", "")
    };
    format!(
        r#"
__global__ void histo(const int *data, int *hist, int n, int num_bins) {{
    {setup}
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {{
        int v = data[i];
        {count}
    }}
    {merge}
}}
void run(const int *data, int *hist) {{
    histo<<<1024, 256>>>(data, hist, 1 << 24, 256);
}}
"#
    )
}

#[test]
fn atomics_on_a_few_bins_serialise_and_a_privatised_histogram_avoids_them() {
    let global = profile_of(&histogram(false, "atomicAdd(&hist[v], 1);"), "histo");
    let pointer = profile_of(&histogram(false, "atomicAdd(hist + v, 1);"), "histo");
    let private = profile_of(&histogram(true, "atomicAdd(&local[v], 1);"), "histo");
    let private_pointer = profile_of(&histogram(true, "atomicAdd(local + v, 1);"), "histo");
    // 2^24 adds onto 256 counters (32 sectors): each sector's adds wait their turn, far
    // dearer than an add per lane on addresses of its own.
    let lanes = profile_of(&histogram(false, "atomicAdd(&hist[i], v);"), "histo");
    assert!(global.cost.atomics > 4.0 * lanes.cost.atomics, "{:?} vs {:?}", global.cost, lanes.cost);
    assert_eq!(global.cost.atomics, pointer.cost.atomics, "`hist + v` is `&hist[v]`");
    // Counting in shared memory, one global add per bin and block: the histogram's win.
    assert!(private.features.shared_atomics >= 1.0, "{:?}", private.features);
    assert_eq!(private.features.shared_atomics, private_pointer.features.shared_atomics, "`local + v`: on chip");
    assert_eq!(private.cost.atomics, private_pointer.cost.atomics, "{:?}", private_pointer.cost);
    assert!(global.cost.total > 4.0 * private.cost.total, "{:?} vs {:?}", global.cost, private.cost);
}

/// A half-precision dot product (our own text) whose threads add their sums to `*out`
/// through `add`, a device function of `T` and `P` (with `extra` beside it).
fn half_dot(extra: &str, add_body: &str) -> String {
    format!(
        r#"
#include <cuda_fp16.h>
template <typename T, int P>
__device__ void add(T *out, T v) {{
    {add_body}
}}
{extra}
template <typename T, int P>
__global__ void dot(const T *a, const T *b, T *out, int n) {{
    T sum = 0;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) sum = sum + a[i] * b[i];
    add<T, P>(out, sum);
}}
void run(const half *a, const half *b, half *out) {{
    dot<half, 2><<<(1 << 24) / 256, 256>>>(a, b, out, 1 << 24);
}}
"#
    )
}

#[test]
fn a_half_atomic_costs_two_of_a_half2_and_the_branch_an_h100_build_takes_counts() {
    let contended = |src: &str| profile_of(src, "dot").features.contended_atomics;
    let scalar = contended(&half_dot("", "atomicAdd(out, v);"));
    let pair = contended(&half_dot("", "half2 h; h.x = v; h.y = 0; atomicAdd(reinterpret_cast<half2 *>(out), h);"));
    assert!((scalar - 2.0 * pair).abs() < 1e-9 && pair > 0.0, "{scalar} vs {pair}");
    // The launch's `add<half, 2>` runs the file's specialisation, not the template's loop.
    let special = half_dot(
        "template <>\n__device__ void add<half, 2>(half *out, half v) {\n    half2 h; h.x = v; h.y = 0;\n    \
         atomicAdd(reinterpret_cast<half2 *>(out), h);\n}",
        "for (int k = 0; k < P; ++k) atomicAdd(out + k, v);",
    );
    assert_eq!(contended(&special), pair);
    // An H100 build compiles the `#else` branch; of an `if`/`else` a thread runs one.
    let arch = half_dot(
        "",
        "#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ < 700)\n    atomicAdd(out, v);\n#else\n    \
         half2 h; h.x = v; h.y = 0;\n    if (((size_t)out & 3) == 0) atomicAdd(reinterpret_cast<half2 *>(out), h);\n    \
         else atomicAdd(reinterpret_cast<half2 *>(out - 1), h);\n#endif",
    );
    assert_eq!(contended(&arch), pair);
}

#[test]
fn a_grid_a_host_function_computes_is_evaluated() {
    let src = r#"
#define N (16 * 1024 * 1024)
#define THREADS 512
int blocks_for(int total) {
    // One thread per element.
    return (total + THREADS - 1) / THREADS;
}
__global__ void scale(const float *x, float *y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = 2.0f * x[i];
}
void run(const float *x, float *y) {
    scale<<<blocks_for(N), THREADS>>>(x, y, N);
}
"#;
    let p = profile_of(src, "scale");
    assert_eq!(p.features.blocks, f64::from(16 * 1024 * 1024 / 512), "{:?}", p.features);
    assert_eq!(p.guesses, 0, "{p:?}");
}

#[test]
fn one_unknown_size_squared_by_the_grid_makes_a_problem_not_a_dimension_of_that_size() {
    // An N × N copy (our own text) with N known only at run time: the N² threads, not N,
    // make the elements a size nothing gives is assumed to have.
    let src = r#"
__global__ void copy2d(const float *a, float *b, int N) {
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < N && y < N) b[y * N + x] = a[y * N + x];
}
void run(const float *a, float *b, int N) {
    dim3 block(32, 32);
    copy2d<<<dim3((N + 31) / 32, (N + 31) / 32), block>>>(a, b, N);
}
"#;
    let p = profile_of(src, "copy2d");
    assert_eq!(p.assumed, ["N"]);
    let threads = p.features.blocks * p.features.block_threads;
    let ratio = threads / super::super::expr::ASSUMED_SIZE;
    assert!((0.5..2.0).contains(&ratio), "{ratio}: {:?}", p.features);
    assert!((p.features.store_bytes / (4.0 * threads) - 1.0).abs() < 0.01, "{:?}", p.features);
}

#[test]
fn pragma_unroll_one_keeps_a_loop_rolled() {
    let src = |pragma: &str| {
        format!(
            r#"
#define UNROLL 1
__global__ void sum8(const float *in, float *out, int n) {{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float s = 0.0f;
    {pragma}
    for (int j = 0; j < 8; j++) s += in[j * n + i];
    out[i] = s;
}}
void run(const float *in, float *out) {{
    const int n = 1 << 22;
    sum8<<<n / 256, 256>>>(in, out, n);
}}
"#
        )
    };
    let unrolled = |pragma: &str| profile_of(&src(pragma), "sum8").features.unrolled_loops;
    assert_eq!(unrolled("#pragma unroll"), 1.0);
    assert_eq!(unrolled("#pragma unroll 4"), 1.0);
    assert_eq!(unrolled("#pragma unroll 1"), 0.0, "`unroll 1` keeps the loop rolled");
    assert_eq!(unrolled("#pragma unroll UNROLL"), 0.0, "through the file's constant");
}

#[test]
fn a_torch_tensor_accessor_is_global_memory_read_along_its_rows() {
    // A KernelBench-style GELU over a 4096 × 4096 tensor, read through raw pointers and
    // through packed accessors: the same bytes either way.
    let src = |params: &str, read: &str, write: &str| {
        format!(
            r#"
#include <torch/extension.h>
__global__ void gelu(const {params}, int rows, int cols) {{
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx < rows * cols) {{
        int row = idx / cols;
        int col = idx % cols;
        float v = {read};
        {write} = 0.5f * v * (1.0f + tanhf(0.79788456f * v));
    }}
}}
void run(torch::Tensor x, torch::Tensor out) {{
    const int rows = 4096, cols = 4096;
    gelu<<<(rows * cols + 255) / 256, 256>>>(x.data_ptr<float>(), out.data_ptr<float>(), rows, cols);
}}
"#
        )
    };
    let pointers = profile_of(&src("float* x, float* out", "x[idx]", "out[idx]"), "gelu");
    let accessors = profile_of(
        &src(
            "torch::PackedTensorAccessor32<float, 2, torch::RestrictPtrTraits> x, torch::PackedTensorAccessor<float,2> out",
            "x[row][col]",
            "out[row][col]",
        ),
        "gelu",
    );
    let matrix = 4096.0 * 4096.0 * 4.0;
    for (what, p) in [("pointers", &pointers), ("accessors", &accessors)] {
        assert!((p.features.load_bytes / matrix - 1.0).abs() < 0.05, "{what}: {:?}", p.features);
        assert!((p.features.store_bytes / matrix - 1.0).abs() < 0.05, "{what}: {:?}", p.features);
        assert_eq!(p.features.uncoalesced_bytes, 0.0, "{what}: read along the rows");
    }
}

#[test]
fn math_on_doubles_costs_the_fp64_routine_and_float_math_does_not() {
    let src = |body: &str| {
        format!(
            r#"
#include <math.h>
__global__ void gelu(const float* x, float* out, int n) {{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {{
        float v = x[i];
        out[i] = {body};
    }}
}}
void run(const float* x, float* out) {{
    const int n = 1 << 24;
    gelu<<<n / 256, 256>>>(x, out, n);
}}
"#
        )
    };
    let ops = |body: &str| profile_of(&src(body), "gelu").features.scalar_ops;
    let float = ops("0.5f * v * (1.0f + tanhf(0.7978845608f * v))");
    // The float overload: `tanh` of a float, the constant folded by the compiler.
    let overload = ops("0.5f * v * (1.0f + tanh(sqrtf(2.0f / 3.14159265f) * v))");
    let double = ops("0.5f * v * (1.0f + tanh(sqrt(2.0 / M_PI) * v))");
    assert!(overload < 1.5 * float, "{overload} against {float}");
    assert!(double > 4.0 * float, "{double} against {float}");
    assert!(ops("(float)exp((double)v)") > 4.0 * ops("expf(v)"));
}

/// A per-channel recurrence over T steps whose inner loop walks the steps before the
/// current one (a triangle: T·(T−1)/2 iterations), or only the current one.
fn recurrence(inner: &str) -> String {
    format!(
        r#"
// kforecast: T = 1024; C = 4096
__global__ void scan_back(const float *k, float *g, int T, int C) {{
    const int c = blockIdx.x * blockDim.x + threadIdx.x;
    float acc = 0;
    for (int i = 0; i < T; i++) {{
        {inner}
        g[i * C + c] = acc;
    }}
}}
void run(const float *k, float *g) {{
    scan_back<<<4096 / 256, 256>>>(k, g, 1024, 4096);
}}
"#
    )
}

#[test]
fn an_inner_loop_bounded_by_the_outer_ones_variable_runs_half_the_outer_trips_on_average() {
    let triangle = profile_of(&recurrence("for (int j = 0; j < i; j++) acc += k[j * C + c];"), "scan_back");
    let single = profile_of(&recurrence("acc += k[i * C + c];"), "scan_back");
    // The triangle reads about T/2 = 512 times what one step per iteration reads; before,
    // its inner loop was counted 8 times, a guess.
    let ratio = triangle.features.load_bytes / single.features.load_bytes;
    assert!((300.0..800.0).contains(&ratio), "triangle reads {ratio:.0}x the single step's bytes");
    assert_eq!(triangle.guesses, single.guesses, "the inner trip count is no guess");
}
