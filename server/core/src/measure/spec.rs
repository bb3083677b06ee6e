//! Declarations that say how to run a kernel, and the jobs built from them.
//!
//! Declarations are comment lines directly above a kernel (or its decorators) that
//! start with `kforecast:`; items are separated by `;`:
//!
//! ```text
//! // kforecast: n = 1 << 24; alpha = 2.0           sizes and scalar arguments
//! // kforecast: x: f32[n] randn; y: f32[n] zeros   buffers: dtype[shape] init
//! // kforecast: grid = cdiv(n, 256); block = 256    launch shape (CUDA; else the launch site's)
//! // kforecast: outputs = y; rtol = 1e-3            what to compare, and how closely
//! # kforecast: wrapper = softmax(x)                 Triton: the launch wrapper to call
//! ```
//!
//! Whatever can be inferred is: a CUDA kernel's argument types come from its
//! signature; a non-const pointer is an output; with one integer parameter every
//! undeclared buffer has that many elements; grid and block come from the launch site
//! (its host locals and `#define`s, with the kernel's arguments bound to the declared
//! values); template arguments from the launch site too.
//!
//! Here: the declarations, [`job`] and what both languages share; `host` reads what the
//! host code around a launch gives, `cuda` builds the CUDA job and NVRTC's translation
//! unit, `triton` the Triton job.

use super::protocol::{Arg, CudaJob, CudaVersion, DType, Init, Job, SourceFile, TritonInput, TritonJob, TritonVersion};
use crate::extract::host::{facts_at, HostFacts};
use crate::features::expr::{components, Env};
use crate::kernel::{HelperKind, Kernel, LaunchSite, TextRange, SET_ON_SOME_PATHS};
use crate::source::parser_for;
use crate::Language;
use std::collections::BTreeMap;

pub use crate::declaration::Item;
use crate::declaration::{self, items_before, SETTINGS};

mod cuda;
mod host;
mod triton;

use cuda::*;
pub use cuda::{cuda_job, cuda_translation_unit};
use host::*;
pub use host::{inferred_params, launch_env};
pub use triton::triton_job;
use triton::*;

/// A mistake in a declaration, or something that could not be inferred.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SpecError {
    pub range: TextRange,
    pub message: String,
    /// A value nothing in the file pins down (the code may well be right: a warning, not
    /// an error), as opposed to a declaration that is wrong.
    pub missing: bool,
}

impl SpecError {
    /// A mistake: `message` at `range`.
    pub fn new(range: TextRange, message: String) -> Self {
        Self { range, message, missing: false }
    }

    /// A value the job needs that the file does not give.
    pub fn missing(range: TextRange, message: String) -> Self {
        Self { range, message, missing: true }
    }
}

/// The declaration items of `kernel` in `text` (the comment block above it).
pub fn items(text: &str, kernel: &Kernel) -> Vec<Item> {
    items_before(text, kernel.range.start)
}

/// The job for a (base, candidate) pair of one kernel, built from the candidate's
/// declarations (the base's when the candidate has none), and those declarations. A side
/// is (file name, kernel, file text); a Triton job imports the files by these names.
pub fn job(base: (&str, &Kernel, &str), candidate: (&str, &Kernel, &str)) -> Result<(Job, Vec<Item>), Vec<SpecError>> {
    let ((base_name, bk, base_text), (cand_name, ck, cand_text)) = (base, candidate);
    let mut declared = items(cand_text, ck);
    if declared.is_empty() {
        declared = items(base_text, bk);
    }
    let job = match ck.language {
        Language::Cuda => {
            let mut job = cuda_job((bk, base_text), (ck, cand_text), &declared, ck.name_range)?;
            let file = |name: &str, text: &str| SourceFile {
                name: cuda_file_name(name),
                text: text.to_string(),
                include_dir: None,
            };
            job.base.file = Some(file(base_name, base_text));
            job.candidate.file = Some(file(cand_name, cand_text));
            Job::Cuda(job)
        }
        Language::Triton => {
            if !declared.iter().any(|i| i.key == "wrapper") {
                declared.extend(data_call_items(ck, cand_text));
            }
            Job::Triton(triton_job(&ck.name, (base_name, base_text), (cand_name, cand_text), &declared, ck.name_range)?)
        }
    };
    Ok((job, declared))
}

/// A typed buffer: `f32[n, m] randn out`.
struct BufferDecl {
    dtype: DType,
    shape: Vec<String>,
    init: Option<Init>,
    output: Option<bool>,
}

fn parse_buffer(value: &str) -> Result<BufferDecl, String> {
    let open = value.find('[').ok_or_else(|| format!("expected `dtype[shape]`, got `{value}`"))?;
    let close = value.rfind(']').ok_or_else(|| format!("missing `]` in `{value}`"))?;
    let dtype_text = value[..open].trim();
    let dtype = DType::parse(dtype_text)
        .ok_or_else(|| format!("unknown dtype `{dtype_text}` (use f16, bf16, f32, f64, i8, u8, i32, u32, i64, u64)"))?;
    let shape = declaration::list(&value[open + 1..close]);
    if shape.is_empty() {
        return Err("a buffer needs a shape, e.g. `f32[n]`".to_string());
    }
    let mut init = None;
    let mut output = None;
    // `randint(0, 256)`: no spaces inside parentheses before splitting into words.
    let mut rest = String::new();
    let mut depth = 0;
    for c in value[close + 1..].chars() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            c if c.is_whitespace() && depth > 0 => continue,
            _ => {}
        }
        rest.push(c);
    }
    for word in rest.split_whitespace() {
        match word {
            "out" | "output" => output = Some(true),
            "in" | "input" => output = Some(false),
            w => {
                init = Some(Init::parse(w).ok_or_else(|| {
                    format!("unknown initialiser `{w}` (use randn, rand, zeros, ones, arange, randint(lo,hi))")
                })?)
            }
        }
    }
    Ok(BufferDecl { dtype, shape, init, output })
}

/// Values and texts declared, as an evaluation environment.
fn declared_env(items: &[Item]) -> Env {
    let mut env = Env::default();
    for it in items.iter().filter(|i| !i.typed && !SETTINGS.contains(&i.key.as_str())) {
        env.define(&it.key, &it.value);
    }
    env
}

/// The declared values, then what the file says elsewhere (a CUDA string's sizes from the
/// Python that calls it).
fn kernel_declared_env(k: &Kernel, items: &[Item]) -> Env {
    let mut declared = declared_env(items);
    for (key, v) in k.declared.definitions() {
        if !declared.texts.contains_key(&key) {
            declared.define(&key, &v);
        }
    }
    declared
}

/// A value the declaration pins down. A device query (`num_sms()`, capping a grid-stride
/// launch) is taken as an H100's, as the profile takes it.
fn eval_exact(env: &Env, text: &str) -> Option<f64> {
    env.eval(text).filter(|e| e.guesses == e.device_queries).map(|e| e.value)
}

/// A CUDA kernel parameter.
#[derive(Clone, Debug)]
pub(crate) struct Param {
    pub(crate) name: String,
    pub(crate) base_type: String,
    pub(crate) pointer: bool,
    pub(crate) constant: bool,
}

pub(crate) fn cuda_params(kernel: &Kernel) -> Vec<Param> {
    let mut parser = parser_for(Language::Cuda);
    let Some(tree) = parser.parse(kernel.source.as_bytes(), None) else { return Vec::new() };
    let src = &*kernel.source;
    let mut params = Vec::new();
    let mut list = None;
    crate::extract::walk_preorder(tree.root_node(), |n| {
        if list.is_some() {
            return false;
        }
        if n.kind() == "function_declarator" {
            list = n.child_by_field_name("parameters");
            return false;
        }
        true
    });
    let Some(list) = list else { return params };
    let mut cursor = list.walk();
    for p in list.named_children(&mut cursor).filter(|p| p.kind() == "parameter_declaration") {
        let text = &src[p.byte_range()];
        let Some(decl) = p.child_by_field_name("declarator") else { continue };
        let Some(name_node) = crate::extract::declarator_name(decl) else { continue };
        let base_type = p.child_by_field_name("type").map(|t| src[t.byte_range()].to_string()).unwrap_or_default();
        params.push(Param {
            name: src[name_node.byte_range()].to_string(),
            base_type,
            pointer: decl.kind() == "pointer_declarator" || text.contains('*'),
            constant: text.trim_start().starts_with("const") || text.contains(" const "),
        });
    }
    params
}

pub(crate) fn vector_dtype(t: &str) -> Option<DType> {
    ["float4", "float2"].iter().any(|v| t.contains(v)).then_some(DType::F32)
}

fn vector_lanes(t: &str) -> f64 {
    if t.contains("float4") {
        4.0
    } else if t.contains("float2") {
        2.0
    } else {
        1.0
    }
}

pub(crate) fn dtype_name(d: DType) -> &'static str {
    match d {
        DType::F16 => "f16",
        DType::Bf16 => "bf16",
        DType::F32 => "f32",
        DType::F64 => "f64",
        DType::I8 => "i8",
        DType::U8 => "u8",
        DType::I32 => "i32",
        DType::U32 => "u32",
        DType::I64 => "i64",
        DType::U64 => "u64",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::extract::extract_text;

    const SAXPY: &str = r#"#define THREADS 256
// y = a*x + y
// kforecast: n = 1 << 20; a = 2.0
__global__ void saxpy(int n, float a, const float* __restrict__ x, float* __restrict__ y) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}
void launch(int count, float a, const float* x, float* y) {
    int blocks = (count + THREADS - 1) / THREADS;
    saxpy<<<blocks, THREADS>>>(count, a, x, y);
}
"#;

    #[test]
    fn infers_buffers_outputs_and_launch_shape() {
        let k = extract_text(Language::Cuda, SAXPY).kernels.remove(0);
        let items = items(SAXPY, &k);
        assert_eq!(items.len(), 2);
        let job = cuda_job((&k, SAXPY), (&k, SAXPY), &items, k.name_range).expect("job");
        assert_eq!(job.candidate.grid, [4096, 1, 1]);
        assert_eq!(job.candidate.block, [256, 1, 1]);
        match &job.args[2] {
            Arg::Buffer { name, len, output, dtype, .. } => {
                assert_eq!((name.as_str(), *len, *output, *dtype), ("x", 1 << 20, false, DType::F32));
            }
            other => panic!("{other:?}"),
        }
        assert!(matches!(&job.args[3], Arg::Buffer { output: true, .. }));
        assert!(job.base.source.contains("__global__ void saxpy") && !job.base.source.contains("<<<"));
        assert_eq!(job.base.name_expression, "&saxpy");
    }

    #[test]
    fn mistakes_point_at_the_declaration() {
        let text = SAXPY.replace("a = 2.0", "a = two; y: q16[n]");
        let k = extract_text(Language::Cuda, &text).kernels.remove(0);
        let errs = cuda_job((&k, &text), (&k, &text), &items(&text, &k), k.name_range).expect_err("errors");
        let messages: Vec<_> = errs.iter().map(|e| e.message.clone()).collect();
        assert!(messages.iter().any(|m| m.contains("unknown dtype `q16`")), "{messages:?}");
        assert!(messages.iter().any(|m| m.contains("cannot evaluate `two`")), "{messages:?}");
        let bad = errs.iter().find(|e| e.message.contains("q16")).expect("q16");
        assert_eq!(&text[bad.range.start..bad.range.end], "y: q16[n]");
        let missing = SAXPY.replace("// kforecast: n = 1 << 20; a = 2.0\n", "");
        let k = extract_text(Language::Cuda, &missing).kernels.remove(0);
        let errs = cuda_job((&k, &missing), (&k, &missing), &items(&missing, &k), k.name_range).expect_err("errors");
        assert!(errs.iter().any(|e| e.message.contains("parameter `n` needs a value")));
    }

    #[test]
    fn launch_limits_are_declaration_errors() {
        let text = SAXPY.replace("saxpy<<<blocks, THREADS>>>", "saxpy<<<dim3(1, 70000), THREADS>>>");
        let k = extract_text(Language::Cuda, &text).kernels.remove(0);
        let errs = cuda_job((&k, &text), (&k, &text), &items(&text, &k), k.name_range).expect_err("errors");
        assert!(errs.iter().any(|e| e.message.contains("grid.y = 70000 is over the limit of 65535")), "{errs:?}");
    }

    #[test]
    fn a_grid_capped_in_the_wrapper_is_launched_capped_and_a_conditional_one_is_refused() {
        let capped = SAXPY.replace("    saxpy<<<", "    if (blocks > 1056) blocks = 1056;\n    saxpy<<<");
        let k = extract_text(Language::Cuda, &capped).kernels.remove(0);
        let job = cuda_job((&k, &capped), (&k, &capped), &items(&capped, &k), k.name_range).expect("job");
        assert_eq!(job.base.grid, [1056, 1, 1]);
        let unsure = SAXPY.replace("    saxpy<<<", "    if (a > 1.0f) blocks = 7;\n    saxpy<<<");
        let k = extract_text(Language::Cuda, &unsure).kernels.remove(0);
        let errs = cuda_job((&k, &unsure), (&k, &unsure), &items(&unsure, &k), k.name_range).expect_err("errors");
        assert!(errs.iter().any(|e| e.message.contains("`blocks` is set on some paths only")), "{errs:?}");
    }

    #[test]
    fn a_function_like_macro_reaches_nvrtc_whole_and_sizes_the_grid() {
        let text = SAXPY
            .replace(
                "#define THREADS 256\n",
                "#define THREADS 256\n#define AXPY(a, x, y) \\\n    ((a) * (x) + (y))\n#define BLOCKS_FOR(n, t) (((n) + (t) - 1) / (t))\n",
            )
            .replace("y[i] = a * x[i] + y[i]", "y[i] = AXPY(a, x[i], y[i])")
            .replace("int blocks = (count + THREADS - 1) / THREADS;", "int blocks = BLOCKS_FOR(count, THREADS);");
        let k = extract_text(Language::Cuda, &text).kernels.remove(0);
        let job = cuda_job((&k, &text), (&k, &text), &items(&text, &k), k.name_range).expect("job");
        let line = job.base.source.lines().find(|l| l.starts_with("#define AXPY(a, x, y)")).unwrap_or_default();
        assert!(line.ends_with("((a) * (x) + (y))"), "{}", job.base.source);
        assert_eq!(job.base.grid, [4096, 1, 1]);
    }

    const MATVEC: &str = include_str!("../../../../tests/data/foreign/matvec.cu");
    const MATVEC_WARP: &str = include_str!("../../../../tests/data/foreign/matvec_warp.cu");
    const SGEMM: &str = include_str!("../../../../tests/data/foreign/sgemm/sgemm_2d.cu");
    const SGEMM_TUNED: &str = include_str!("../../../../tests/data/foreign/sgemm/sgemm_2d_tuned.cu");
    const SCALE: &str = include_str!("../../../../tests/data/foreign/halfscale/scale.cu");
    const SCALE_VEC: &str = include_str!("../../../../tests/data/foreign/halfscale/scale_vec.cu");

    /// The CUDA job of a pair of files holding one kernel, with no declarations.
    fn pair_job(base: &str, candidate: &str) -> Result<CudaJob, Vec<SpecError>> {
        let b = extract_text(Language::Cuda, base).kernels.remove(0);
        let c = extract_text(Language::Cuda, candidate).kernels.remove(0);
        let sizes: Vec<_> = items(candidate, &c).into_iter().filter(|i| !SETTINGS.contains(&i.key.as_str())).collect();
        assert!(sizes.is_empty(), "no sizes declared in the file: {sizes:?}");
        match job(("base.cu", &b, base), ("candidate.cu", &c, candidate))?.0 {
            Job::Cuda(j) => Ok(j),
            Job::Triton(_) => panic!("a CUDA job"),
        }
    }

    fn scalar(job: &CudaJob, name: &str) -> Option<f64> {
        job.args.iter().find_map(|a| match a {
            Arg::Scalar { name: n, value, .. } if n == name => Some(*value),
            _ => None,
        })
    }

    fn buffer_len(job: &CudaJob, name: &str) -> Option<u64> {
        job.args.iter().find_map(|a| match a {
            Arg::Buffer { name: n, len, .. } if n == name => Some(*len),
            _ => None,
        })
    }

    #[test]
    fn sizes_come_from_a_launchers_declarators_and_its_cuda_malloc_calls() {
        let job = pair_job(MATVEC, MATVEC_WARP).expect("job");
        assert_eq!((scalar(&job, "M"), scalar(&job, "N")), (Some(8192.0), Some(8192.0)));
        assert_eq!(buffer_len(&job, "A"), Some(8192 * 8192));
        assert_eq!((buffer_len(&job, "x"), buffer_len(&job, "y")), (Some(8192), Some(8192)));
        assert_eq!(job.base.grid, [32, 1, 1]);
        assert_eq!(job.candidate.grid, [1024, 1, 1]);
        assert!(job.args.iter().any(|a| matches!(a, Arg::Buffer { name, output: true, .. } if name == "y")));
        let file = job.candidate.file.as_ref().expect("the whole file, for nvcc");
        assert_eq!((file.name.as_str(), file.text.as_str()), ("candidate.cu", MATVEC_WARP));
    }

    #[test]
    fn a_templated_sgemm_takes_its_sizes_from_main_and_tiles_from_the_taken_branch() {
        let job = pair_job(SGEMM, SGEMM_TUNED).expect("job");
        for (name, v) in [("M", 2048.0), ("N", 2048.0), ("K", 2048.0), ("alpha", 1.0), ("beta", 0.0)] {
            assert_eq!(scalar(&job, name), Some(v), "{name}");
        }
        assert_eq!(buffer_len(&job, "A"), Some(2048 * 2048));
        assert_eq!(job.base.name_expression, "&sgemm2DBlocktiling<64, 64, 8, 4, 4>");
        assert_eq!(job.candidate.name_expression, "&sgemm2DBlocktiling<128, 128, 8, 8, 8>");
        assert_eq!((job.base.grid, job.base.block), ([32, 32, 1], [256, 1, 1]));
        assert_eq!((job.candidate.grid, job.candidate.block), ([16, 16, 1], [256, 1, 1]));
        // The kernel stays at its own lines for NVRTC's messages.
        let line = SGEMM[..SGEMM.find("template <const int BM").unwrap_or(0)].matches('\n').count() + 1;
        assert!(job.base.source.contains(&format!("#line {line}\ntemplate <const int BM")), "{}", job.base.source);
        // Small matrices take the other branch.
        let small = SGEMM.replace("const int M = 2048, N = 2048, K = 2048;", "const int M = 64, N = 64, K = 64;");
        let job = pair_job(&small, &small).expect("job");
        assert_eq!(job.base.name_expression, "&sgemm2DBlocktiling<32, 32, 8, 4, 4>");
    }

    #[test]
    fn a_half_kernel_with_a_local_header_gets_its_scalar_from_the_caller() {
        let job = pair_job(SCALE, SCALE_VEC).expect("job");
        assert_eq!((scalar(&job, "s"), scalar(&job, "n")), (Some(2.0), Some(16777216.0)));
        assert!(job
            .args
            .iter()
            .any(|a| matches!(a, Arg::Buffer { name, dtype: DType::F16, len: 16777216, .. } if name == "x")));
        assert_eq!(job.candidate.grid, [32768, 1, 1]);
    }

    #[test]
    fn a_size_set_differently_on_two_paths_is_named() {
        let text = MATVEC.replace(
            "  const int threads = 256;\n",
            "  int threads;\n  if (M > 4096) {\n    threads = 128;\n  } else {\n    threads = 256;\n  }\n",
        );
        let errs = pair_job(&text, &text).expect_err("errors");
        assert!(errs.iter().any(|e| e.message.contains("`threads` is set on some paths only")), "{errs:?}");
        let agreed = text.replace("threads = 128;", "threads = 256;");
        assert_eq!(pair_job(&agreed, &agreed).expect("job").base.block, [256, 1, 1]);
    }

    #[test]
    fn triton_wrapper_and_inputs() {
        let text = "import triton\n# kforecast: wrapper = softmax(x); x: f32[rows, 1024] randn; rows = 64\n@triton.jit\ndef k(x_ptr):\n    pass\n";
        let kernel = extract_text(Language::Triton, text).kernels.remove(0);
        let it = items(text, &kernel);
        let job = triton_job("k", ("a.py", text), ("a.py", text), &it, kernel.name_range).expect("job");
        assert_eq!(job.base.wrapper, "softmax");
        assert_eq!(job.args, vec!["x"]);
        assert!(matches!(&job.inputs[0], TritonInput::Tensor { shape, .. } if shape == &vec![64, 1024]));
    }

    #[test]
    fn a_gpu_mode_program_is_called_with_the_tuple_generate_input_makes() {
        let text = "import torch\nimport triton\n\n@triton.jit\ndef k(x_ptr, w_ptr, y_ptr, N, BLOCK: tl.constexpr):\n    pass\n\n\
                    def custom_kernel(data):\n    x, w = data\n    y = torch.empty_like(x)\n    \
                    k[(x.shape[0],)](x, w, y, x.shape[1], BLOCK=1024)\n    return y\n\n\
                    def generate_input(M: int, N: int = 4096, seed: int = 0):\n    \
                    x = torch.randn(M, N, device='cuda', dtype=torch.float16)\n    w = torch.randn(N, device='cuda')\n    \
                    return x, w\n\nif __name__ == '__main__':\n    custom_kernel(generate_input(8192))\n";
        let kernel = extract_text(Language::Triton, text).kernels.remove(0);
        let (job, items) = job(("a.py", &kernel, text), ("b.py", &kernel, text)).expect("job");
        let Job::Triton(job) = job else { panic!("a Triton job") };
        assert_eq!(job.args, ["x", "w"]);
        assert!(
            matches!(&job.inputs[0], TritonInput::Tensor { shape, dtype: DType::F16, .. } if shape == &[8192, 4096])
        );
        assert!(matches!(&job.inputs[1], TritonInput::Tensor { shape, dtype: DType::F32, .. } if shape == &[4096]));
        assert_eq!(job.candidate.wrapper, TUPLE_ADAPTER);
        assert!(job.candidate.source.ends_with("def _kforecast_call(x, w):\n    return custom_kernel((x, w,))\n"));
        assert!(items.iter().any(|i| i.key == "wrapper" && i.value == "custom_kernel((x, w))"), "{items:?}");
    }
}
