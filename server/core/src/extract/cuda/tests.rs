//! Tests of the CUDA reader: kernels, helpers, launches and their host constants.

use crate::extract::extract_text;
use crate::kernel::{HelperKind, Language};

const SRC: &str = r#"
#define TILE 32
#define PAD 1
__device__ __forceinline__ float sq(float x) { return x * x; }
__device__ float unused(float x) { return x; }

template <int BLOCK>
__global__ void __launch_bounds__(256, 2) scale(const float* __restrict__ a, float* out, int n) {
  __shared__ float tile[TILE][TILE + PAD];
  int i = blockIdx.x * BLOCK + threadIdx.x;
  if (i < n) out[i] = sq(a[i]);
}

extern "C" void launch(const float* a, float* o, int n, cudaStream_t s) {
  const int threads = 256;
  dim3 grid((n + threads - 1) / threads);
  scale<256><<<grid, threads, 0, s>>>(a, o, n);
}
"#;

#[test]
fn later_assignments_update_or_void_a_launch_local() {
    let src = r#"
__global__ void k(float* x, int n) { }
void launch(float* x, int n, bool big) {
    int blocks = (n + 255) / 256;
    if (blocks > 1056) blocks = 1056;
    int grid2 = n / 256;
    grid2 = max(grid2, 1);
    int odd = n / 128;
    if (big) odd = 7;
    k<<<blocks, 256>>>(x, n);
}
"#;
    let ex = extract_text(Language::Cuda, src);
    let locals = &ex.kernel("k").expect("kernel").launches[0].locals;
    assert_eq!(locals.get("blocks").map(String::as_str), Some("min((n + 255) / 256, 1056)"));
    assert_eq!(locals.get("grid2").map(String::as_str), Some("max((n / 256), 1)"));
    // Set only on some paths: not known.
    assert_eq!(locals.get("odd").map(String::as_str), Some(crate::kernel::SET_ON_SOME_PATHS));
}

#[test]
fn an_assignment_after_a_launch_reaches_it_only_around_a_loop() {
    let src = r#"
__global__ void partial_sums(const int* in, int* out, int n) { out[blockIdx.x] = in[threadIdx.x]; }
void sum(const int* x, int* a, int* b, int n) {
    int blocks = (n + 1023) / 1024;
    partial_sums<<<blocks, 1024>>>(x, a, n);
    int s = blocks;
    while (s > 1) {
        blocks = (s + 1023) / 1024;
        partial_sums<<<blocks, 1024>>>(a, b, s);
        s = blocks;
    }
}
"#;
    let ex = extract_text(Language::Cuda, src);
    let launches = &ex.kernel("partial_sums").expect("kernel").launches;
    // The first pass runs over the whole input, whatever the loop after it does.
    assert_eq!(launches[0].locals.get("blocks").map(String::as_str), Some("(n + 1023) / 1024"));
    // Inside the loop, a value the loop itself changes is not known.
    assert_eq!(launches[1].locals.get("blocks").map(String::as_str), Some(crate::kernel::SET_ON_SOME_PATHS));
}

#[test]
fn finds_template_kernel_helpers_bounds_and_launch() {
    let ex = extract_text(Language::Cuda, SRC);
    assert_eq!(ex.kernels.len(), 1);
    let k = &ex.kernels[0];
    assert_eq!(k.name, "scale");
    assert!(k.source.starts_with("template <int BLOCK>"));
    assert_eq!(k.launch_bounds, vec!["256", "2"]);
    assert_eq!(k.constexpr_params, vec!["BLOCK"]);
    let names: Vec<_> = k.helpers.iter().map(|h| (h.name.as_str(), h.kind)).collect();
    assert_eq!(
        names,
        vec![("PAD", HelperKind::Define), ("TILE", HelperKind::Define), ("sq", HelperKind::DeviceFunction)]
    );
    assert_eq!(k.launches.len(), 1);
    let l = &k.launches[0];
    assert_eq!(l.grid.as_deref(), Some("grid"));
    assert_eq!(l.block.as_deref(), Some("threads"));
    assert_eq!(l.meta.get("BLOCK").map(String::as_str), Some("256"));
    assert_eq!(l.locals.get("threads").map(String::as_str), Some("256"));
    assert_eq!(l.locals.get("grid").map(String::as_str), Some("dim3((n + threads - 1) / threads)"));
    assert_eq!(&SRC[k.name_range.start..k.name_range.end], "scale");
    assert!(SRC[..k.signature_end].ends_with("int n)"));
}

#[test]
fn a_launch_sees_the_constants_of_its_own_branch() {
    let src = |big: &str| {
        format!(
                "template <int BM> __global__ void k(float* a) {{ a[threadIdx.x] = BM; }}\n\
                 void run(float* a, int n) {{\n  if (n >= 128) {{\n    const int BM = {big};\n    k<BM><<<n / BM, BM>>>(a);\n  }} else {{\n    const int BM = 16;\n    k<BM><<<n / BM, BM>>>(a);\n  }}\n}}\n"
            )
    };
    let (a, b) = (extract_text(Language::Cuda, &src("64")), extract_text(Language::Cuda, &src("128")));
    let first = &a.kernels[0].launches[0];
    assert_eq!(first.locals.get("BM").map(String::as_str), Some("64"), "{:?}", first.locals);
    assert_eq!(a.kernels[0].launches[1].locals.get("BM").map(String::as_str), Some("16"));
    assert_ne!(a.kernels[0].identity(), b.kernels[0].identity(), "the big tiles changed");
}

#[test]
fn comments_whitespace_and_local_names_do_not_change_identity() {
    let base = extract_text(Language::Cuda, SRC);
    let edited = SRC
        .replace("int i = blockIdx.x", "// index\n  int idx =   blockIdx.x")
        .replace("if (i < n) out[i] = sq(a[i]);", "if (idx < n) out[idx] = sq(a[idx]); /* done */");
    let edited = extract_text(Language::Cuda, &edited);
    assert_ne!(base.kernels[0].raw_hash, edited.kernels[0].raw_hash);
    assert_eq!(base.kernels[0].identity(), edited.kernels[0].identity());
    let changed = extract_text(Language::Cuda, &SRC.replace("#define PAD 1", "#define PAD 0"));
    assert_ne!(base.kernels[0].identity(), changed.kernels[0].identity());
}

#[test]
fn half_typed_code_does_not_panic() {
    for cut in (0..SRC.len()).step_by(7) {
        if SRC.is_char_boundary(cut) {
            let _ = extract_text(Language::Cuda, &SRC[..cut]);
        }
    }
}

/// Kernel Tuner's style: tunable parameters as `#define`s, read by `#if` regions that
/// define what the kernel uses, and by the kernel's pragmas.
fn tuned(padding: u32, unroll: u32) -> String {
    format!(
        r#"
#define block_size_x 48
#define use_padding {padding}
constexpr int unroll_factor = {unroll};
#define width (block_size_x + 16)
#ifndef use_padding
    #define use_padding 1
#endif
#if use_padding == 1
    #undef width
    #define width (block_size_x + 32)
#endif
__global__ void tuned(float* out, const float* in) {{
    __shared__ float tile[8][width];
    float s = 0.0f;
    #pragma unroll unroll_factor
    for (int j = 0; j < 8; j++) s += in[j * blockDim.x + threadIdx.x];
    tile[threadIdx.y][threadIdx.x] = s;
    out[threadIdx.x] = tile[threadIdx.y][threadIdx.x];
}}
"#
    )
}

#[test]
fn a_tunable_parameter_read_by_an_if_region_or_a_pragma_changes_the_kernel() {
    let id = |padding, unroll| extract_text(Language::Cuda, &tuned(padding, unroll)).kernels[0].identity();
    assert_ne!(id(0, 1), id(1, 1), "padding on defines another width: not the same kernel");
    assert_ne!(id(0, 1), id(0, 8), "another unroll factor: not the same kernel");
    assert_eq!(id(0, 1), id(0, 1));
}

#[test]
fn the_definition_an_if_region_takes_is_the_one_the_kernel_uses() {
    let width = |padding| {
        let ex = extract_text(Language::Cuda, &tuned(padding, 1));
        let k = &ex.kernels[0];
        k.helpers.iter().find(|h| h.name == "width").map(|h| h.value().to_string())
    };
    assert_eq!(width(0).as_deref(), Some("(block_size_x + 16)"));
    assert_eq!(width(1).as_deref(), Some("(block_size_x + 32)"));
}

#[test]
fn constants_inside_a_headers_include_guard_are_read() {
    // A header inlined into a file keeps its `#ifndef X` / `#define X` guard: its constants
    // are what the kernel and its launch use, not a region the guard's own define turns off.
    let src = "#ifndef DIMS_CUH\n#define DIMS_CUH\nconstexpr int BM = 64;\n#endif\n\
               __global__ void k(float* x, int n) { int i = blockIdx.x * BM + threadIdx.x; if (i < n) x[i] *= 2.0f; }\n\
               void run(float* x) { int n = 1 << 24; k<<<n / BM, BM>>>(x, n); }\n";
    let threads = |src: &str| {
        let ex = extract_text(Language::Cuda, src);
        let p = crate::features::profile(ex.kernel("k").expect("kernel"));
        (p.features.block_threads, p.assumed.is_empty())
    };
    assert_eq!(threads(src), (64.0, true));
    // A region a define elsewhere turns off is still off: `BM` is then unknown.
    let off = src.replace("#define DIMS_CUH\n", "").replace("#ifndef DIMS_CUH", "#ifndef USE_OTHER");
    assert_ne!(threads(&format!("#define USE_OTHER\n{off}")), (64.0, true));
}

#[test]
fn a_launch_inside_a_lambda_takes_the_arguments_its_call_passes() {
    // A benchmark harness's style: the launch in a lambda, the grid and block passed to it.
    let src = "__global__ void k(float* x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] *= 2.0f; }\n\
               void run(float* x) {\n  int n = 1 << 24;\n  dim3 g(n / 64), b(64);\n  \
               auto launch = [](float* x, int n, dim3 grid, dim3 block) { k<<<grid, block>>>(x, n); };\n  \
               launch(x, n, g, b);\n}\n";
    let ex = extract_text(Language::Cuda, src);
    let p = crate::features::profile(ex.kernel("k").expect("kernel"));
    assert_eq!(p.features.block_threads, 64.0);
    assert!(p.assumed.is_empty(), "{:?}", p.assumed);
}

#[test]
fn a_shared_tile_with_an_alignment_attribute_is_read_with_the_loop_around_it() {
    let src = "constexpr int BK = 16;\n\
               __global__ void g(int K, const float* A, float* C) {\n\
               \x20 __shared__ __align__(sizeof(float) * 4) float As[16 * BK];\n\
               \x20 float acc = 0.0f;\n\
               \x20 for (int k = 0; k < K; k += BK) {\n\
               \x20   As[threadIdx.x] = A[k + threadIdx.x];\n\
               \x20   __syncthreads();\n\
               \x20   acc += As[(threadIdx.x + 1) % 256];\n\
               \x20   __syncthreads();\n\
               \x20 }\n\
               \x20 C[blockIdx.x * 256 + threadIdx.x] = acc;\n}\n\
               void run(const float* A, float* C) { g<<<64, 256>>>(4096, A, C); }\n";
    let profile = |src: &str| crate::features::profile(extract_text(Language::Cuda, src).kernel("g").expect("kernel"));
    let (aligned, plain) = (profile(src), profile(&src.replace("__align__(sizeof(float) * 4) ", "")));
    assert_eq!(aligned.features.shared_arrays, 1.0);
    assert_eq!(aligned.features.load_bytes, plain.features.load_bytes);
    assert_eq!(aligned.features.shared_accesses, plain.features.shared_accesses);
}

#[test]
fn the_size_of_a_type_alias_is_the_size_of_the_type_it_names() {
    // `using vec_t = float2; constexpr int VEC = sizeof(vec_t) / sizeof(float);`: two floats
    // a step, not an unknown size.
    let src = "using vec_t = float2;\nconstexpr int VEC = sizeof(vec_t) / sizeof(float);\n\
               __global__ void k(const float* a, float* b) {\n\
               \x20 for (int i = 0; i < VEC; ++i) b[threadIdx.x * VEC + i] = a[threadIdx.x * VEC + i];\n}\n\
               void run(const float* a, float* b) { k<<<1024, 256>>>(a, b); }\n";
    let p = crate::features::profile(extract_text(Language::Cuda, src).kernel("k").expect("kernel"));
    assert!(p.assumed.is_empty(), "{:?}", p.assumed);
    let read = 1024.0 * 256.0 * 2.0 * 4.0;
    assert!((read..2.0 * read).contains(&p.features.load_bytes), "{}", p.features.load_bytes);
}

#[test]
fn brace_initialised_sizes_are_read_like_assigned_ones() {
    // Modern C++'s `constexpr int M{1025};` at file level and in the launcher, and a
    // `dim3 block{32, 8}`: the same sizes as `= 1025` and `block(32, 8)`.
    let braced = "constexpr int M{4096};\n\
                  __global__ void k(const float* a, float* b) {\n\
                  \x20 int i = blockIdx.x * blockDim.x * blockDim.y + threadIdx.y * 32 + threadIdx.x;\n\
                  \x20 if (i < M) b[i] = a[i];\n}\n\
                  void run(const float* a, float* b) {\n\
                  \x20 constexpr unsigned int PER_BLOCK{256};\n\
                  \x20 dim3 block{32, 8};\n\
                  \x20 k<<<M / PER_BLOCK, block>>>(a, b);\n}\n";
    let assigned = braced
        .replace("M{4096}", "M = 4096")
        .replace("PER_BLOCK{256}", "PER_BLOCK = 256")
        .replace("block{32, 8}", "block(32, 8)");
    let profile = |src: &str| crate::features::profile(extract_text(Language::Cuda, src).kernel("k").expect("kernel"));
    let (p, q) = (profile(braced), profile(&assigned));
    assert!(p.assumed.is_empty(), "{:?}", p.assumed);
    assert_eq!((p.features.block_threads, p.features.blocks), (256.0, 16.0));
    assert_eq!((p.features.load_bytes, p.features.blocks), (q.features.load_bytes, q.features.blocks));
}

#[test]
fn a_launch_through_a_local_holding_a_kernel_is_that_kernels_launch() {
    // A benchmark harness's style: the step's kernel is picked into a local, then launched.
    let src = r#"
__global__ void naive(const float* in, float* out, int n) { out[threadIdx.x] = in[threadIdx.x]; }
template <int TILE>
__global__ void tiled(const float* in, float* out, int n) {
    __shared__ float smem[TILE][TILE + 1];
    smem[threadIdx.y][threadIdx.x] = in[threadIdx.x];
    out[threadIdx.x] = smem[threadIdx.x][threadIdx.y];
}
extern "C" void run(const float* in, float* out, int N) {
    constexpr int TILE = 32;
    const dim3 block = {TILE, TILE};
    const dim3 grid = {N / TILE, N / TILE};
    auto kernel = tiled<TILE>;
    kernel<<<grid, block>>>(in, out, N);
}
"#;
    let ex = extract_text(Language::Cuda, src);
    let tiled = ex.kernel("tiled").expect("kernel");
    assert_eq!(tiled.launches.len(), 1, "the local's launch is the kernel's: {tiled:?}");
    assert!(ex.kernel("naive").expect("kernel").launches.is_empty(), "the kernel not picked does not run");
}
