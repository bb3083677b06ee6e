//! A filled-in `kforecast:` declaration for a kernel that has none: what `spec::job`
//! cannot infer (buffer sizes, scalar values, a Triton wrapper's call) written out with
//! plausible values, for the user to correct; what the host code gives (the launch in the
//! file or linked from another, its `cudaMalloc`s) is written as it is. The editor offers
//! it as a quick fix.

use super::protocol::DType;
use super::spec::{cuda_params, dtype_name, vector_dtype};
use crate::declaration::{self, PREFIX};
use crate::kernel::{Kernel, Language};

/// Where to insert a declaration and what.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Template {
    /// Byte offset of the start of the kernel's first line (its decorators, for Triton).
    pub offset: usize,
    /// Whole lines, each ending in `\n`, indented as the kernel is.
    pub text: String,
}

/// The declaration to insert above `kernel` in `text`, or `None` when it already has one
/// (a template would then only repeat or contradict it).
pub fn template(kernel: &Kernel, text: &str) -> Option<Template> {
    if !declaration::items_before(text, kernel.range.start).is_empty() {
        return None;
    }
    let start = kernel.range.start.min(text.len());
    let offset = text.get(..start)?.rfind('\n').map(|i| i + 1).unwrap_or(0);
    let indent: String = text[offset..].chars().take_while(|c| *c == ' ' || *c == '\t').collect();
    let (comment, items) = match kernel.language {
        Language::Cuda => ("//", cuda_items(kernel, &super::spec::inferred_params(kernel, text))),
        Language::Triton => ("#", triton_items(kernel)),
    };
    if items.is_empty() {
        return None;
    }
    Some(Template { offset, text: format!("{indent}{comment} {PREFIX} {}\n", items.join("; ")) })
}

/// Sizes for the integer parameters, small enough that their product stays a few
/// million elements: one size 2^20, two 2^10 each, more 2^8 each.
fn size_for(count: usize) -> &'static str {
    match count {
        0 | 1 => "1 << 20",
        2 => "1024",
        _ => "256",
    }
}

/// A number as a declaration writes it (`8192`, `0.5`).
fn number(v: f64) -> String {
    if v.fract() == 0.0 && v.abs() < 1e15 {
        format!("{}", v as i64)
    } else {
        format!("{v}")
    }
}

/// Each parameter declared: with the value the host code gives it where it gives one
/// (`known`: the launch's arguments and `cudaMalloc`s, in the file or linked from another),
/// else a plausible one.
fn cuda_items(kernel: &Kernel, known: &std::collections::BTreeMap<String, f64>) -> Vec<String> {
    let params = cuda_params(kernel);
    let type_of = |t: &str| t.replace("const", "").trim().to_string();
    let ints: Vec<&str> = params
        .iter()
        .filter(|p| !p.pointer && DType::parse(&type_of(&p.base_type)).is_some_and(|d| !d.is_float()))
        .map(|p| p.name.as_str())
        .collect();
    let mut items = Vec::new();
    let mut extent = ints.join(" * ");
    if ints.is_empty() {
        items.push("n = 1 << 20".to_string());
        extent = "n".to_string();
    }
    for p in &params {
        let t = type_of(&p.base_type);
        if p.pointer {
            let Some(dtype) = DType::parse(&t).or_else(|| vector_dtype(&t)) else { continue };
            let len = known.get(&p.name).map_or_else(|| extent.clone(), |v| number(*v));
            items.push(format!("{}: {}[{len}]", p.name, dtype_name(dtype)));
        } else if let Some(dtype) = DType::parse(&t) {
            let guess = if dtype.is_float() { "1.0" } else { size_for(ints.len()) };
            let value = known.get(&p.name).map_or_else(|| guess.to_string(), |v| number(*v));
            items.push(format!("{} = {value}", p.name));
        }
    }
    if kernel.launches.is_empty() {
        let n = ints.first().copied().unwrap_or("n");
        items.push(format!("grid = ({n} + 255) / 256"));
        items.push("block = 256".to_string());
    }
    items
}

/// A Triton kernel is measured through the wrapper that launches it: `wrapper = f(x, n)`
/// and each of the wrapper's parameters declared (a name that reads as a size is a
/// number, anything else a tensor).
fn triton_items(kernel: &Kernel) -> Vec<String> {
    let Some(site) = kernel.launches.iter().find(|l| !l.host_name.is_empty()) else {
        return vec![format!("wrapper = {}_wrapper(x)", kernel.name), "x: f32[1 << 20] randn".to_string()];
    };
    let params: Vec<&String> = site.host_params.iter().filter(|p| !site.host_defaults.contains_key(*p)).collect();
    let mut items = vec![format!(
        "wrapper = {}({})",
        site.host_name,
        params.iter().map(|p| p.as_str()).collect::<Vec<_>>().join(", ")
    )];
    for p in params {
        if reads_as_size(p) {
            items.push(format!("{p} = 4096"));
        } else {
            items.push(format!("{p}: f32[1 << 20] randn"));
        }
    }
    items
}

fn reads_as_size(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    (name.len() == 1 && name.chars().all(|c| c.is_ascii_uppercase()))
        || ["n", "m", "k"].contains(&lower.as_str())
        || lower.starts_with("n_")
        || lower.starts_with("num_")
        || lower.ends_with("_size")
        || lower.ends_with("_len")
        || ["size", "numel", "rows", "cols", "length", "dim"].contains(&lower.as_str())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::extract::extract_text;
    use crate::measure::spec;

    fn kernels(language: Language, text: &str) -> Vec<Kernel> {
        extract_text(language, text).kernels
    }

    fn with_template(language: Language, text: &str) -> (String, Template) {
        let k = kernels(language, text).into_iter().next().expect("a kernel");
        let t = template(&k, text).expect("a template");
        let mut out = text.to_string();
        out.insert_str(t.offset, &t.text);
        (out, t)
    }

    #[test]
    fn a_cuda_kernel_without_a_declaration_gets_one_that_builds_its_job() {
        let text = "__global__ void scale(const float* x, float* y, float a, int n) {\n  int i = blockIdx.x * blockDim.x + threadIdx.x;\n  if (i < n) y[i] = a * x[i];\n}\n";
        let k = &kernels(Language::Cuda, text)[0];
        assert!(spec::job(("a.cu", k, text), ("a.cu", k, text)).is_err(), "no declaration: no job");
        let (declared, t) = with_template(Language::Cuda, text);
        assert_eq!(t.offset, 0);
        assert_eq!(
            t.text,
            "// kforecast: x: f32[n]; y: f32[n]; a = 1.0; n = 1 << 20; grid = (n + 255) / 256; block = 256\n"
        );
        let k = &kernels(Language::Cuda, &declared)[0];
        let built = spec::job(("a.cu", k, &declared), ("a.cu", k, &declared));
        assert!(built.is_ok(), "{:?}", built.err());
    }

    #[test]
    fn two_sizes_share_the_buffers_extent_and_a_launch_site_gives_the_grid() {
        let text = "__global__ void transpose(const float* in, float* out, int rows, int cols) {\n  int r = blockIdx.y, c = threadIdx.x;\n  if (r < rows && c < cols) out[c * rows + r] = in[r * cols + c];\n}\n\nvoid run(const float* in, float* out, int rows, int cols) {\n  dim3 grid(cols / 32, rows);\n  transpose<<<grid, 32>>>(in, out, rows, cols);\n}\n";
        let (declared, t) = with_template(Language::Cuda, text);
        assert_eq!(t.text, "// kforecast: in: f32[rows * cols]; out: f32[rows * cols]; rows = 1024; cols = 1024\n");
        let k = &kernels(Language::Cuda, &declared)[0];
        let built = spec::job(("a.cu", k, &declared), ("a.cu", k, &declared));
        assert!(built.is_ok(), "{:?}", built.err());
    }

    #[test]
    fn a_triton_kernel_is_declared_through_its_wrapper() {
        let text = "import triton\nimport triton.language as tl\n\n\n@triton.jit\ndef add_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):\n    i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)\n    tl.store(y_ptr + i, tl.load(x_ptr + i, mask=i < n), mask=i < n)\n\n\ndef add(x, y, n):\n    add_kernel[(n // 1024,)](x, y, n, BLOCK=1024)\n";
        let (declared, t) = with_template(Language::Triton, text);
        assert!(text[t.offset..].starts_with("@triton.jit"));
        assert_eq!(
            t.text,
            "# kforecast: wrapper = add(x, y, n); x: f32[1 << 20] randn; y: f32[1 << 20] randn; n = 4096\n"
        );
        let k = &kernels(Language::Triton, &declared)[0];
        let built = spec::job(("a.py", k, &declared), ("a.py", k, &declared));
        assert!(built.is_ok(), "{:?}", built.err());
    }

    #[test]
    fn what_the_launch_in_another_file_gives_fills_the_template() {
        // main.cu sizes M and N and allocates A, x, y; it leaves `scale` to a runtime value.
        let kernels_cu = "__global__ void matvec(const float* A, const float* x, float* y, int M, int N, float scale) {\n  \
                          int r = blockIdx.x * blockDim.x + threadIdx.x; if (r < M) y[r] = scale * A[r * N] * x[0];\n}\n";
        let main = "float get_scale();\nint main() {\n  const int M = 8192, N = 4096;\n  float *A, *x, *y;\n  \
                    cudaMalloc(&A, sizeof(float) * M * N);\n  cudaMalloc(&x, sizeof(float) * N);\n  \
                    matvec<<<(M + 255) / 256, 256>>>(A, x, y, M, N, get_scale());\n}\n";
        let mut ks = kernels(Language::Cuda, kernels_cu);
        let other = crate::extract::workspace::OtherFile { label: "main.cu".into(), text: main };
        crate::extract::workspace::link(&mut ks, kernels_cu, &[other]);
        let t = template(&ks[0], kernels_cu).expect("a template");
        assert_eq!(
            t.text,
            "// kforecast: A: f32[33554432]; x: f32[4096]; y: f32[M * N]; M = 8192; N = 4096; scale = 1.0\n"
        );
    }

    #[test]
    fn a_kernel_that_declares_something_gets_no_template() {
        let text = "// kforecast: n = 1 << 24\n__global__ void k(float* x, int n) { if (n) x[0] = 1; }\n";
        let k = &kernels(Language::Cuda, text)[0];
        assert_eq!(template(k, text), None);
    }

    #[test]
    fn the_template_keeps_the_kernels_indentation() {
        let text =
            "namespace a {\n  __global__ void k(float* x, int n) { if (threadIdx.x < n) x[threadIdx.x] = 0; }\n}\n";
        let k = &kernels(Language::Cuda, text)[0];
        let t = template(k, text).expect("a template");
        assert!(t.text.starts_with("  // kforecast: x: f32[n]; n = 1 << 20"), "{}", t.text);
    }
}
