//! Host code that sizes a launch the way sample programs do: a shape helper setting the
//! block and grid through references, a launcher called from an entry point whose size is
//! known only at run time, shared memory through a helper, grid-stride `while` loops.

use super::profile_of;

/// A pairwise-sum reduction in the style of tutorial ladders (our own text): shared memory
/// through a helper struct, cooperative-groups barriers, the launch shape from a helper.
const PAIR_SUM: &str = r#"
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
template <class T> struct SharedBuffer {
    __device__ inline operator T *() { extern __shared__ int raw[]; return (T *)raw; }
};
template <class T> __global__ void pair_sum(T *in, T *out, unsigned int n) {
    cg::thread_block cta = cg::this_thread_block();
    T *buf = SharedBuffer<T>();
    unsigned int t = threadIdx.x;
    unsigned int i = blockIdx.x * (blockDim.x * 2) + threadIdx.x;
    T acc = (i < n) ? in[i] : 0;
    if (i + blockDim.x < n) acc += in[i + blockDim.x];
    buf[t] = acc;
    cg::sync(cta);
    for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (t < s) buf[t] = acc = acc + buf[t + s];
        cg::sync(cta);
    }
    if (t == 0) out[blockIdx.x] = acc;
}
unsigned int round_up_pow2(unsigned int x) { --x; x |= x >> 1; x |= x >> 2; x |= x >> 4; return ++x; }
void shape_for(int step, int n, int most, int &blocks, int &threads) {
    if (step < 3) {
        threads = (n < most) ? round_up_pow2(n) : most;
        blocks = (n + threads - 1) / threads;
    } else {
        threads = (n < most * 2) ? round_up_pow2((n + 1) / 2) : most;
        blocks = (n + threads * 2 - 1) / (threads * 2);
    }
    if (blocks > 2147483647) {
        printf("grid too large\n");
        blocks /= 2;
        threads *= 2;
    }
}
template <class T> void sum_once(int size, int threads, int blocks, T *in, T *out) {
    dim3 block(threads, 1, 1);
    dim3 grid(blocks, 1, 1);
    int bytes = (threads <= 32) ? 2 * threads * sizeof(T) : threads * sizeof(T);
    pair_sum<T><<<grid, block, bytes>>>(in, out, size);
}
extern "C" int run(float *in, float *out, int n) {
    const int most = 256;
    const int step = 3;
    int threads = 0, blocks = 0;
    shape_for(step, n, most, blocks, threads);
    sum_once<float>(n, threads, blocks, in, out);
    return 0;
}
"#;

#[test]
fn a_launch_shaped_by_a_helper_through_references_reads_its_whole_input() {
    let p = profile_of(PAIR_SUM, "pair_sum");
    // One size known only at run time (`n`): the launch covers all of it, two per thread.
    assert_eq!(p.assumed.len(), 1, "{:?}", p.assumed);
    let n = crate::features::expr::ASSUMED_SIZE;
    let ratio = p.features.load_bytes / (4.0 * n);
    assert!((0.9..1.2).contains(&ratio), "{} bytes loaded of {}", p.features.load_bytes, 4.0 * n);
    assert_eq!(p.features.block_threads, 256.0);
    assert!(p.features.shared_accesses > 0.0, "the helper's pointer is shared memory");
    assert!(p.features.syncs > 0.0, "cg::sync is a barrier");
}

#[test]
fn a_grid_stride_while_loop_reads_its_input_once_per_instance() {
    let src = r#"
template <unsigned int B, bool EVEN> __global__ void strided_sum(const float *in, float *out, unsigned int n) {
    unsigned int stride = B * gridDim.x;
    float acc = 0.f;
    if (EVEN) {
        unsigned int i = blockIdx.x * B * 2 + threadIdx.x;
        stride = stride << 1;
        while (i < n) {
            acc += in[i];
            if (i + B < n) acc += in[i + B];
            i += stride;
        }
    } else {
        unsigned int i = blockIdx.x * B + threadIdx.x;
        while (i < n) {
            acc += in[i];
            i += stride;
        }
    }
    if (threadIdx.x == 0) out[blockIdx.x] = acc;
}
void go(const float *in, float *out) {
    const unsigned int n = 1 << 24;
    strided_sum<256, true><<<64, 256>>>(in, out, n);
}
"#;
    let p = profile_of(src, "strided_sum");
    let ratio = p.features.load_bytes / (4.0 * 16_777_216.0);
    assert!((0.9..1.2).contains(&ratio), "{} bytes loaded", p.features.load_bytes);
}

#[test]
fn a_switch_over_block_sizes_launches_the_case_its_caller_picks() {
    let src = r#"
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
template <unsigned int B> __global__ void group_sum(const float *in, float *out, unsigned int n) {
    cg::thread_block cta = cg::this_thread_block();
    unsigned int i = blockIdx.x * cta.size() + cta.thread_rank();
    unsigned int stride = gridDim.x * cta.size();
    float acc = 0.f;
    while (i < n) {
        acc += in[i];
        i += stride;
    }
    if (cta.thread_rank() == 0) out[blockIdx.x] = acc;
}
void choose(int n, int most, int &blocks, int &threads) {
    threads = (n < most) ? 32 : most;
    blocks = 64;
}
void launch(int size, int threads, int blocks, const float *in, float *out) {
    switch (threads) {
    case 256: group_sum<256><<<blocks, threads>>>(in, out, size); break;
    case 128: group_sum<128><<<blocks, threads>>>(in, out, size); break;
    case 32: group_sum<32><<<blocks, threads>>>(in, out, size); break;
    }
}
extern "C" void run(const float *in, float *out, int n) {
    int threads = 0, blocks = 0;
    choose(n, 128, blocks, threads);
    launch(n, threads, blocks, in, out);
}
"#;
    let p = profile_of(src, "group_sum");
    assert_eq!(p.features.block_threads, 128.0, "the caller's 128, not the typical 256");
    let n = crate::features::expr::ASSUMED_SIZE;
    let ratio = p.features.load_bytes / (4.0 * n);
    assert!((0.9..1.2).contains(&ratio), "a group-sized stride reads the input once: {}", p.features.load_bytes);
}

/// A torch-extension file in the style of kernel collections (our own text): vector
/// accesses through macros, the launch inside a binding macro instantiated per variant.
fn macro_bound(variant: &str, ty: &str, lanes: u32, body: &str) -> String {
    format!(
        r#"
#define FLOAT4(value) (reinterpret_cast<float4 *>(&(value))[0])
#define LDST128(value) (reinterpret_cast<float4 *>(&(value))[0])
__global__ void scale_{variant}_kernel({ty} *x, {ty} *y, int N) {{
  int idx = {lanes} * (blockIdx.x * blockDim.x + threadIdx.x);
  {body}
}}
#define BIND_SCALE(name, elem, lanes)                                    \
  void scale_##name(torch::Tensor x, torch::Tensor y) {{                 \
    const int N = x.numel();                                             \
    dim3 block(256 / (lanes));                                           \
    dim3 grid((N + 256 - 1) / 256);                                      \
    scale_##name##_kernel<<<grid, block>>>(                              \
        reinterpret_cast<elem *>(x.data_ptr()),                          \
        reinterpret_cast<elem *>(y.data_ptr()), N);                      \
  }}
BIND_SCALE({variant}, {ty}, {lanes})
"#
    )
}

#[test]
fn a_launch_in_a_binding_macro_and_vector_access_macros_are_read() {
    let plain = macro_bound("f32", "float", 1, "if (idx < N) y[idx] = 2.f * x[idx];");
    let wide = macro_bound(
        "f32x4",
        "float",
        4,
        "if (idx < N) { float4 v = FLOAT4(x[idx]); v.x *= 2.f; v.y *= 2.f; v.z *= 2.f; v.w *= 2.f; FLOAT4(y[idx]) = v; }",
    );
    let half =
        macro_bound("f16x8", "half", 8, "half p[8]; LDST128(p[0]) = LDST128(x[idx]); LDST128(y[idx]) = LDST128(p[0]);");
    let (p, w, h) = (
        profile_of(&plain, "scale_f32_kernel"),
        profile_of(&wide, "scale_f32x4_kernel"),
        profile_of(&half, "scale_f16x8_kernel"),
    );
    assert_eq!(p.features.block_threads, 256.0, "the launch inside the macro is read");
    assert_eq!(w.features.block_threads, 64.0);
    // The same problem: the same bytes for both float variants, half of them in halves.
    let ratio = w.features.load_bytes / p.features.load_bytes;
    assert!((0.9..1.1).contains(&ratio), "float4 accesses read 16 bytes each: {ratio}");
    assert!(w.features.store_bytes > 0.0, "a vector store through the macro is a store");
    let ratio = h.features.load_bytes / p.features.load_bytes;
    assert!((0.4..0.6).contains(&ratio), "halves read half the bytes: {ratio}");
}

#[test]
fn a_launch_dispatched_through_nested_macros_in_a_function_is_read() {
    let src = r#"
template <const int THREADS> __global__ void row_scale_kernel(float *x, float *y, int N, int K) {
  int row = blockIdx.x;
  int col = threadIdx.x;
  y[row * K + col] = 2.f * x[row * K + col];
}
#define LAUNCH_ROW_SCALE(K)                                              \
  row_scale_kernel<(K)><<<grid, block>>>(                               \
      reinterpret_cast<float *>(x.data_ptr()),                          \
      reinterpret_cast<float *>(y.data_ptr()), N, (K));
#define DISPATCH_ROW_SCALE(N, K)                                         \
  dim3 block((K));                                                      \
  dim3 grid((N));                                                       \
  switch ((K)) {                                                        \
  case 128:                                                             \
    LAUNCH_ROW_SCALE(128)                                               \
    break;                                                              \
  case 512:                                                             \
    LAUNCH_ROW_SCALE(512)                                               \
    break;                                                              \
  default:                                                              \
    throw std::runtime_error("K");                                      \
  }
void row_scale(torch::Tensor x, torch::Tensor y) {
  const int N = 8192;
  const int K = 512;
  DISPATCH_ROW_SCALE(N, K)
}
"#;
    let p = profile_of(src, "row_scale_kernel");
    assert_eq!(p.features.block_threads, 512.0, "the case K picks, through two macros");
    let ratio = p.features.load_bytes / (4.0 * 8192.0 * 512.0);
    assert!((0.9..1.2).contains(&ratio), "{} bytes loaded", p.features.load_bytes);
}

/// A reduction done by one launch per doubling stride (our own text), sized at run time or
/// in the file.
fn stride_passes(size: &str) -> String {
    format!(
        "__global__ void add_strided(float *out, const float *in, int stride, int n) {{\n\
         int i = blockIdx.x * blockDim.x + threadIdx.x;\n    if (i + stride < n) out[i] += in[i + stride];\n}}\n\
         void reduce_all(float *out, const float *in, int n) {{\n    int blocks = (n + 255) / 256;\n    \
         for (int stride = 1; stride < n; stride *= 2) {{\n        add_strided<<<blocks, 256>>>(out, in, stride, n);\n    }}\n}}\n\
         int main() {{ float *a, *b; reduce_all(a, b, {size}); return 0; }}\n"
    )
}

#[test]
fn a_launch_per_doubling_stride_runs_log2_n_times() {
    let known = profile_of(&stride_passes("1 << 20"), "add_strided");
    assert_eq!(known.features.launches, 20.0, "{:?}", known.features);
    // Sized at run time: still a pass per doubling of the size taken, not a few.
    let run_time = profile_of(&stride_passes("atoi(argv[1])"), "add_strided");
    assert!(run_time.features.launches > 10.0 && run_time.features.launches <= 64.0, "{:?}", run_time.features);
}

#[test]
fn a_kernel_launched_through_cuda_launch_kernel_is_sized_by_that_launch() {
    let src = "namespace ops {\n__global__ void scale_rows(float *y, const float *x, int rows, int cols) {\n    \
               int i = blockIdx.x * blockDim.x + threadIdx.x;\n    if (i < rows * cols) y[i] = 2.0f * x[i];\n}\n}\n\
               int run(float *out, const float *in) {\n    int rows = 4096, cols = 4096;\n    \
               dim3 block(256);\n    dim3 grid((rows * cols + 255) / 256);\n    \
               void *args[] = {(void *)&out, (void *)&in, (void *)&rows, (void *)&cols};\n    \
               cudaLaunchKernel((void *)ops::scale_rows, grid, block, args, 0, 0);\n    return 0;\n}\n";
    let p = profile_of(src, "scale_rows");
    assert_eq!(p.features.blocks, 65536.0, "{:?}", p.features);
    // 4096² floats read and written once: 134 MB, sized by the launch, not assumed.
    let bytes = p.features.load_bytes + p.features.store_bytes;
    assert!((bytes / 134.2e6 - 1.0).abs() < 0.05, "{bytes} B: {:?}", p.features);
    assert!(p.assumed.is_empty(), "{:?}", p.assumed);
}

#[test]
fn a_row_of_threads_along_y_reading_through_an_auto_cast_pointer_is_read() {
    // A torch extension's row softmax: a block of `n_cols / 4` threads along y (x is 1),
    // each reading a float4 through `auto v = reinterpret_cast<const float4*>(…)`.
    let src = r#"
#include <torch/extension.h>
__device__ float biggest(float4 v) { return fmaxf(fmaxf(v.x, v.y), fmaxf(v.z, v.w)); }
template <typename T>
__global__ void row_max4(T* __restrict__ input, T* __restrict__ output, int n_cols, int n_rows) {
    const int col = threadIdx.y;
    if (col >= n_cols / 4) return;
    for (int row = blockIdx.x * blockDim.x + threadIdx.x; row < n_rows; row += gridDim.x) {
        auto v = reinterpret_cast<const float4*>(&input[row * n_cols]);
        output[row * (n_cols / 4) + col] = biggest(v[col]);
    }
}
torch::Tensor run(torch::Tensor in) {
    const int n_rows = in.size(0);
    const int n_cols = in.size(1);
    auto out = torch::empty({n_rows, n_cols / 4}, in.options());
    dim3 block(1, n_cols / 4, 1);
    dim3 grid(std::min(n_rows, 65535), 1, 1);
    row_max4<float><<<grid, block>>>(in.data_ptr<float>(), out.data_ptr<float>(), n_cols, n_rows);
    return out;
}
"#;
    let p = profile_of(src, "row_max4");
    assert!(p.features.block_threads >= 128.0, "a row of threads, not one: {:?}", p.features);
    assert_eq!(p.features.vector_width, 4.0, "{:?}", p.features);
    assert!(p.features.load_bytes > 1e6, "its rows are read: {:?}", p.features);
}

#[test]
fn a_launcher_called_with_commented_arguments_binds_each_to_its_parameter() {
    // `/*seg*/ 64`: the comment names the argument, it is not one.
    let src = "template <typename T>\n__global__ void k(const T* x, T* y, int n, int seg) {\n  \
               int i = blockIdx.x * blockDim.x + threadIdx.x;\n  \
               for (int s = 0; s < seg; ++s) if (i < n) y[i] += x[i];\n}\n\
               template <typename T>\nvoid launch(const T* x, T* y, int n, int seg, int warps) {\n  \
               k<T><<<(n + 32 * warps - 1) / (32 * warps), 32 * warps>>>(x, y, n, seg);\n}\n\
               extern \"C\" void run(const float* x, float* y) {\n  \
               launch<float>(x, y, /*n*/ 1 << 24, /*seg*/ 64, /*warps*/ 8);\n}\n";
    let p = profile_of(src, "k");
    assert_eq!((p.features.blocks, p.features.block_threads), (65536.0, 256.0), "{:?}", p.features);
    assert_eq!(p.guesses, 0, "every size is given by the call");
}

#[test]
fn a_launcher_s_sizes_come_from_the_entry_point_not_an_earlier_test_sweep() {
    // The file's test harness calls the launcher first, at a small size; the entry point
    // (what a run calls) at the real one.
    let src = "__global__ void k(const float* x, float* y, int n) {\n  \
               int i = blockIdx.x * blockDim.x + threadIdx.x;\n  if (i < n) y[i] = 2.0f * x[i];\n}\n\
               void launch(const float* x, float* y, int n, int threads) {\n  \
               k<<<(n + threads - 1) / threads, threads>>>(x, y, n);\n}\n\
               void run_tests(const float* x, float* y) {\n  \
               for (int t = 64; t <= 1024; t *= 2) launch(x, y, 1000, t);\n}\n\
               extern \"C\" void run(const float* x, float* y) {\n  launch(x, y, 1 << 24, 256);\n}\n";
    let p = profile_of(src, "k");
    assert_eq!((p.features.blocks, p.features.block_threads), (65536.0, 256.0), "{:?}", p.features);
}
