use super::*;

const TRANSPOSE: &str = r#"#include <cuda_runtime.h>

#define BLOCK_X 32
#define BLOCK_Y 8

// kforecast: rows = 4096; cols = 4096; in: f32[rows, cols]; out: f32[rows, cols]
__global__ void __launch_bounds__(BLOCK_X * BLOCK_Y)
transpose(const float* __restrict__ in, float* __restrict__ out, int rows, int cols)
{
    const int x = blockIdx.x * BLOCK_X + threadIdx.x;
    const int y = blockIdx.y * BLOCK_Y + threadIdx.y;
    if (x < cols && y < rows)
        out[(size_t)x * rows + y] = in[(size_t)y * cols + x];
}

static inline int ceil_div(int a, int b) { return (a + b - 1) / b; }

extern "C" void launch_transpose(const float* in, float* out, int rows, int cols, cudaStream_t stream)
{
    dim3 block(BLOCK_X, BLOCK_Y);
    dim3 grid(ceil_div(cols, BLOCK_X), ceil_div(rows, BLOCK_Y));
    transpose<<<grid, block, 0, stream>>>(in, out, rows, cols);
}
"#;

const TILED: &str = r#"__global__ void __launch_bounds__(BLOCK_X * BLOCK_Y)
transpose(const float* __restrict__ in, float* __restrict__ out, int rows, int cols)
{
    __shared__ float tile[32][33];
    const int x = blockIdx.x * 32 + threadIdx.x;
    for (int j = threadIdx.y; j < 32; j += BLOCK_Y)
        tile[j][threadIdx.x] = in[(size_t)(blockIdx.y * 32 + j) * cols + x];
    __syncthreads();
    for (int j = threadIdx.y; j < 32; j += BLOCK_Y)
        out[(size_t)(blockIdx.x * 32 + j) * rows + blockIdx.y * 32 + threadIdx.x] = tile[threadIdx.x][j];
}"#;

const LAUNCH: &str = r#"extern "C" void launch_transpose(const float* in, float* out, int rows, int cols, cudaStream_t stream)
{
    dim3 block(32, BLOCK_Y);
    dim3 grid(ceil_div(cols, 32), ceil_div(rows, 32));
    transpose<<<grid, block, 0, stream>>>(in, out, rows, cols);
}"#;

fn with<T>(text: &str, language: Language, name: &str, f: impl FnOnce(&Parent<'_>) -> T) -> T {
    let k = extract_text(language, text).kernel(name).cloned().expect("kernel");
    f(&Parent { text, kernel: &k, values: None, speedup: Some(1.0), description: "original" })
}

fn rewrite(reply: &str) -> Result<Rewrite, RewriteError> {
    with(TRANSPOSE, Language::Cuda, "transpose", |p| apply(p, reply))
}

#[test]
fn a_fenced_kernel_replaces_exactly_the_kernel() {
    let r = rewrite(&format!("Shared-memory tiles make both accesses coalesced.\n```cuda\n{TILED}\n```\n"))
        .expect("rewrite");
    assert_eq!(r.summary, "Shared-memory tiles make both accesses coalesced.");
    assert!(!r.launch_changed);
    let start = TRANSPOSE.find("__global__").expect("start");
    let end = TRANSPOSE.find("\n\nstatic inline").expect("end");
    assert_eq!(r.text, format!("{}{TILED}{}", &TRANSPOSE[..start], &TRANSPOSE[end..]));
}

#[test]
fn the_launch_is_replaced_where_given_in_any_of_the_accepted_forms() {
    let expected_launch = |r: &Rewrite| r.text.contains("dim3 grid(ceil_div(cols, 32), ceil_div(rows, 32));");
    // A block tagged `launch`.
    let r = rewrite(&format!("Tiles.\n```cuda\n{TILED}\n```\n```launch\n{LAUNCH}\n```")).expect("tagged");
    assert!(r.launch_changed && expected_launch(&r) && r.text.matches("launch_transpose").count() == 1);
    // After the kernel in its block, with copies of the file's own definitions and an include.
    let copy = "#include <cuda_runtime.h>\n#define BLOCK_Y 8\nstatic inline int ceil_div(int a, int b) { return (a + b - 1) / b; }";
    let r = rewrite(&format!("```\n{copy}\n\n{TILED}\n\n{LAUNCH}\n```")).expect("one block");
    assert!(r.launch_changed && expected_launch(&r), "{}", r.text);
    assert_eq!(r.text.matches("#define BLOCK_Y").count(), 1, "{}", r.text);
    assert_eq!(r.text.matches("ceil_div(int a").count(), 1);
    // A JSON object.
    let json = serde_json::json!({"summary": "tiles", "kernel": TILED, "launch": LAUNCH}).to_string();
    let r = rewrite(&json).expect("json");
    assert!(r.launch_changed && expected_launch(&r) && r.summary == "tiles");
    let r = rewrite(&format!("Here it is:\n```json\n{json}\n```")).expect("json in a block");
    assert!(r.launch_changed && expected_launch(&r));
    assert!(rewrite(&format!("My answer: {json} (as asked)")).is_ok(), "json in prose");
    // A bare definition.
    let r = rewrite(TILED).expect("bare");
    assert!(!r.launch_changed && r.text.contains("__shared__ float tile[32][33];"));
    // A new helper next to the kernel is kept, before it.
    let helper = "#define TILE 32";
    let r =
        rewrite(&format!("```cuda\n{helper}\n{}\n```", TILED.replace("[32][33]", "[TILE][TILE + 1]"))).expect("helper");
    assert!(r.text.contains("#define TILE 32\n\n__global__"), "{}", r.text);
}

#[test]
fn unusable_answers_are_refused_with_the_reason() {
    assert_eq!(rewrite("  \n"), Err(RewriteError::Empty));
    assert_eq!(rewrite(&"{".repeat(MAX_REPLY_BYTES + 1)), Err(RewriteError::TooLarge(MAX_REPLY_BYTES)));
    assert_eq!(rewrite("I would use shared memory."), Err(RewriteError::NoKernel("transpose".into())));
    assert_eq!(rewrite(&format!("```cuda\n{}", &TILED[..200])), Err(RewriteError::CutOff));
    assert_eq!(
        rewrite(&format!("```cuda\n{}\n```", TILED.replace("\ntranspose(", "\ntranspose_tiled("))),
        Err(RewriteError::Renamed { name: "transpose".into(), found: "transpose_tiled".into() })
    );
    let e = rewrite(&format!("```cuda\n{}\n```", TILED.replace("int rows, int cols", "int rows, int cols, int ld")))
        .expect_err("signature");
    assert!(matches!(e, RewriteError::Signature { .. }), "{e}");
    assert!(e.to_string().contains("int ld"), "{e}");
    // Layout and comments in the signature are not a change.
    let spaced = TILED.replace("const float* __restrict__ in", "const float *__restrict__ in /* input */");
    assert!(rewrite(&format!("```cuda\n{spaced}\n```")).is_ok());
    let launch = LAUNCH.replace("cudaStream_t stream", "cudaStream_t stream, int extra");
    assert_eq!(
        rewrite(&format!("```cuda\n{TILED}\n```\n```launch\n{launch}\n```")),
        Err(RewriteError::LauncherSignature("launch_transpose".into()))
    );
    assert_eq!(
        rewrite(&format!("```cuda\n{TILED}\n```\n```launch\nvoid other() {{}}\n```")),
        Err(RewriteError::NoLauncher("launch_transpose".into()))
    );
    assert_eq!(
        rewrite(&format!("```cuda\n#define BLOCK_Y 16\n{TILED}\n```")),
        Err(RewriteError::Redefines("BLOCK_Y".into()))
    );
    assert_eq!(
        rewrite(&format!("```cuda\n{}\n```", TILED.replace("__syncthreads();", "__syncthreads(;"))),
        Err(RewriteError::SyntaxError("transpose".into()))
    );
    // The same kernel, only comments and layout changed.
    let start = TRANSPOSE.find("__global__").expect("start");
    let end = TRANSPOSE.find("\n\nstatic inline").expect("end");
    let same = TRANSPOSE[start..end].replace("    if (x", "    // bounds\n    if (x");
    assert_eq!(rewrite(&format!("```cuda\n{same}\n```")), Err(RewriteError::Unchanged));
    assert_eq!(rewrite(&format!("```cuda\n{}\n```", &TRANSPOSE[start..end])), Err(RewriteError::Unchanged));
}

const ADD: &str = r#"import triton
import triton.language as tl

# kforecast: wrapper = add(x, y); x: f32[1 << 24]; y: f32[1 << 24]
@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    tl.store(out_ptr + offsets, tl.load(x_ptr + offsets, mask=mask) + tl.load(y_ptr + offsets, mask=mask), mask=mask)


def add(x, y):
    out = torch.empty_like(x)
    n_elements = out.numel()
    BLOCK_SIZE = 64
    grid = (triton.cdiv(n_elements, BLOCK_SIZE),)
    add_kernel[grid](x, y, out, n_elements, BLOCK_SIZE=BLOCK_SIZE, num_warps=1)
    return out
"#;

#[test]
fn triton_kernels_and_wrappers_are_rewritten() {
    let kernel = "def add_kernel(x_ptr, y_ptr, out_ptr, n_elements, BLOCK_SIZE: tl.constexpr):\n    pid = tl.program_id(0)\n    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)\n    mask = offsets < n_elements\n    x = tl.load(x_ptr + offsets, mask=mask)\n    y = tl.load(y_ptr + offsets, mask=mask)\n    tl.store(out_ptr + offsets, x + y, mask=mask)";
    let wrapper = ADD[ADD.find("def add(").expect("wrapper")..].replace("BLOCK_SIZE = 64", "BLOCK_SIZE = 1024");
    let reply = format!("Bigger blocks.\n```python\nimport triton\n{kernel}\n```\n```launch\n{wrapper}```\n");
    let r = with(ADD, Language::Triton, "add_kernel", |p| apply(p, &reply)).expect("rewrite");
    assert!(r.launch_changed && r.text.contains("BLOCK_SIZE = 1024"), "{}", r.text);
    assert!(r.text.contains("@triton.jit\ndef add_kernel("), "the decorator is kept: {}", r.text);
    assert_eq!(r.text.matches("import triton\n").count(), 1);
    let prompt = with(ADD, Language::Triton, "add_kernel", |p| messages(p, "NVIDIA H100"));
    let user = &prompt[1].content;
    assert!(user.contains("```python\n@triton.jit\ndef add_kernel(") && user.contains("## Its launching function"));
    assert!(user.contains("132 SMs") && user.contains("x: f32[1 << 24]"), "{user}");
    assert!(prompt[0].content.contains("```launch"));
}

#[test]
fn the_prompt_shows_helpers_kernel_launch_sizes_and_hardware() {
    let msgs = with(TRANSPOSE, Language::Cuda, "transpose", |p| messages(p, "NVIDIA H100 80GB HBM3"));
    let user = &msgs[1].content;
    for needle in [
        "#define BLOCK_X 32",
        "## The kernel to rewrite\n\n```cuda\n__global__ void __launch_bounds__",
        "extern \"C\" void launch_transpose",
        "rows = 4096; cols = 4096",
        "132 SMs",
    ] {
        assert!(user.contains(needle), "{needle}: {user}");
    }
    assert!(msgs[0].content.contains("Keep the kernel's name, its template parameters and its parameter list"));
    // The key follows the parent text, the model and the device.
    let k = |text: &str, model: &str, device: &str| with(text, Language::Cuda, "transpose", |p| key(model, p, device));
    assert_eq!(k(TRANSPOSE, "m", "H100"), k(TRANSPOSE, "m", "H100"));
    assert_ne!(k(TRANSPOSE, "m", "H100"), k(TRANSPOSE, "n", "H100"));
    assert_ne!(k(TRANSPOSE, "m", "H100"), k(TRANSPOSE, "m", "A100"));
    assert_ne!(k(TRANSPOSE, "m", "H100"), k(&TRANSPOSE.replace("BLOCK_Y 8", "BLOCK_Y 16"), "m", "H100"));
}
