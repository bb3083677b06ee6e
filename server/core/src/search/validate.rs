//! Whether a variant may go to the GPU: it parses, still has the kernel, changes only the
//! kernel, its launch and what they use, its declarations still build a job, and its
//! launch respects the hardware (≤ 1024 threads in whole warps, grid limits, ≤ 48 KiB of
//! static shared memory, `__launch_bounds__` no smaller than the block) and the kernel's
//! own assumptions (its `static_assert`s; `A / B` and loops over `A` in steps of `B` need
//! `B` to divide `A`: see [`assumptions`]), all evaluated with the values the launch the
//! job runs as gives.

use super::assumptions;
use super::knobs::line_number;
use crate::extract::{extract, extract_text};
use crate::features::expr::Env;
use crate::kernel::{HelperKind, Kernel, Language, TextRange};
use crate::measure::protocol::{CudaVersion, Job};
use crate::measure::spec;
use crate::source::SourceText;

/// The file a search starts from.
#[derive(Clone, Debug)]
pub struct Original {
    pub text: String,
    pub language: Language,
    pub kernel: Kernel,
    /// Where a variant may differ: the kernel, the top-level items around its launches,
    /// and the definitions of the helpers and constants it uses.
    pub regions: Vec<TextRange>,
}

impl Original {
    /// The kernel `name` of `text`, checked to be runnable as it is.
    pub fn new(text: &str, language: Language, name: &str) -> Result<Self, String> {
        let src = SourceText::new(language, text);
        let extraction = extract(&src);
        let Some(kernel) = extraction.kernel(name).cloned() else {
            let names: Vec<&str> = extraction.kernels.iter().map(|k| k.name.as_str()).collect();
            return Err(if names.is_empty() {
                "the file has no kernel".to_string()
            } else {
                format!("no kernel named `{name}` (the file has {})", names.join(", "))
            });
        };
        if kernel.has_errors {
            return Err(format!("`{name}` has a syntax error: fix it before searching"));
        }
        if language != kernel.language {
            return Err(format!(
                "`{name}` is CUDA written in a Python string; search does not rewrite those yet (copy the kernel into a .cu file to search it)"
            ));
        }
        let regions = merge(text, regions(&src, text, &kernel));
        let original = Self { text: text.to_string(), language, kernel, regions };
        original.job_check(text, &original.kernel).map_err(|e| format!("cannot run `{name}`: {e}"))?;
        Ok(original)
    }

    /// The variant's kernel if the variant may be measured, else why not.
    pub fn check(&self, text: &str) -> Result<Kernel, String> {
        let extraction = extract_text(self.language, text);
        let Some(kernel) = extraction.kernel(&self.kernel.name).cloned() else {
            return Err(format!("the variant has no kernel `{}`", self.kernel.name));
        };
        if kernel.has_errors {
            return Err("the variant has a syntax error".to_string());
        }
        if let Some(at) = self.outside_change(text) {
            return Err(format!(
                "the variant changes line {} outside the kernel and its launch configuration",
                line_number(&self.text, at)
            ));
        }
        self.job_check(text, &kernel)?;
        Ok(kernel)
    }

    /// Where the text between the regions is not in `text` as it is in the original (the
    /// start of the first such stretch), if anywhere. Linear: the stretches are found in
    /// order, the first at the start and the last at the end.
    fn outside_change(&self, text: &str) -> Option<usize> {
        let mut at = 0;
        let mut prev_end = 0;
        let last = self.regions.len();
        for (i, r) in
            self.regions.iter().chain(std::iter::once(&TextRange::new(self.text.len(), self.text.len()))).enumerate()
        {
            let gap = self.text.get(prev_end..r.start.max(prev_end)).unwrap_or("");
            let found = if i == 0 {
                text.starts_with(gap).then_some(0)
            } else if i == last {
                (text.len() >= at + gap.len() && text.ends_with(gap)).then(|| text.len() - gap.len())
            } else {
                text.get(at..).and_then(|t| t.find(gap)).map(|p| at + p)
            };
            match found {
                Some(p) => at = p + gap.len(),
                None => return Some(prev_end),
            }
            prev_end = r.end.max(prev_end);
        }
        None
    }

    /// The declarations build a job, and the CUDA launch is within the limits.
    fn job_check(&self, text: &str, kernel: &Kernel) -> Result<(), String> {
        let (job, items) = spec::job(("a.py", &self.kernel, &self.text), ("a.py", kernel, text))
            .map_err(|errors| errors.into_iter().map(|e| e.message).collect::<Vec<_>>().join("; "))?;
        match job {
            Job::Triton(_) => triton_limits(kernel, text),
            Job::Cuda(job) => {
                let env = assumptions::kernel_env(kernel, spec::launch_env(kernel, text, &items));
                launch_limits(kernel, &job.candidate, &env)?;
                assumptions::check(kernel, &env)
            }
        }
    }
}

/// The kernel, the top-level items holding its launches, and its helpers' definitions.
fn regions(src: &SourceText, text: &str, kernel: &Kernel) -> Vec<TextRange> {
    let mut out = vec![kernel.range];
    let items = src.item_ranges();
    for l in &kernel.launches {
        out.extend(items.iter().filter(|i| i.start <= l.range.start && l.range.end <= i.end));
    }
    for h in &kernel.helpers {
        out.extend(items.iter().filter(|i| {
            let t = text.get(i.start..i.end).unwrap_or("");
            defines(t, &h.name) || (h.kind != HelperKind::Define && !h.text.is_empty() && t.contains(h.text.trim()))
        }));
    }
    // Constants a launch reads from the file (`#define THREADS 256` above the host code).
    for l in &kernel.launches {
        for name in l.locals.keys() {
            out.extend(items.iter().filter(|i| text.get(i.start..i.end).is_some_and(|t| defines(t, name))));
        }
    }
    out
}

/// Sorted regions, widened to whole lines (changes are compared line by line) and joined
/// where only whitespace separates them.
fn merge(text: &str, mut regions: Vec<TextRange>) -> Vec<TextRange> {
    for r in &mut regions {
        r.start = text.get(..r.start).and_then(|t| t.rfind('\n')).map(|i| i + 1).unwrap_or(0);
        r.end = text.get(r.end..).and_then(|t| t.find('\n')).map(|i| r.end + i + 1).unwrap_or(text.len());
    }
    regions.sort_by_key(|r| (r.start, r.end));
    let mut out: Vec<TextRange> = Vec::new();
    for r in regions {
        match out.last_mut() {
            Some(last) if r.start <= last.end || text.get(last.end..r.start).is_some_and(|g| g.trim().is_empty()) => {
                last.end = last.end.max(r.end);
            }
            _ => out.push(r),
        }
    }
    out
}

/// `item` is `#define NAME …`.
fn defines(item: &str, name: &str) -> bool {
    item.strip_prefix("#define")
        .map(str::trim_start)
        .and_then(|rest| rest.strip_prefix(name))
        .is_some_and(|rest| rest.is_empty() || rest.starts_with(|c: char| c.is_whitespace() || c == '('))
}

/// Largest static shared memory per block without opting in.
const STATIC_SMEM: f64 = 48.0 * 1024.0;

/// Threads of an SM (H100 and every GPU since Volta).
const THREADS_PER_SM: f64 = 2048.0;

/// Shared memory of an H100 SM that one block may use (opted in, as Triton does).
const TRITON_SMEM: f64 = 227.0 * 1024.0;

/// A `tl.dot` kernel's pipelined tiles must fit in shared memory:
/// `num_stages × (BLOCK_M·BLOCK_K + BLOCK_K·BLOCK_N)` elements.
fn triton_limits(kernel: &Kernel, text: &str) -> Result<(), String> {
    let Some(launch) = kernel.launches.first() else { return Ok(()) };
    if !kernel.source.contains("tl.dot") {
        return Ok(());
    }
    let mut env = Env::default();
    // `BLOCK_M=BLOCK_M` passes the launching function's local of that name.
    for (k, v) in launch.locals.iter().chain(launch.meta.iter().filter(|(k, v)| k.as_str() != v.trim())) {
        env.define(k, v);
    }
    for (k, v) in &launch.meta {
        if let Some(e) = env.eval(v).filter(|e| e.guesses == 0) {
            env.set(k, e.value);
        }
    }
    let tile = |suffix: &str| {
        launch
            .meta
            .keys()
            .find(|k| k.starts_with("BLOCK") && k.ends_with(suffix))
            .and_then(|k| env.values.get(k))
            .copied()
    };
    let (Some(m), Some(n), Some(k)) = (tile("_M"), tile("_N"), tile("_K")) else { return Ok(()) };
    let stages = env.values.get("num_stages").copied().unwrap_or(3.0).max(1.0);
    let elem = if ["float16", "bfloat16", "f16", "bf16"].iter().any(|t| text.contains(t)) { 2.0 } else { 4.0 };
    let bytes = stages * (m * k + k * n) * elem;
    if bytes > TRITON_SMEM {
        return Err(format!(
            "{stages} stages of {m}×{k} and {k}×{n} tiles need {:.0} KiB of shared memory, over the 227 KiB of an SM",
            bytes / 1024.0
        ));
    }
    Ok(())
}

fn launch_limits(kernel: &Kernel, version: &CudaVersion, env: &Env) -> Result<(), String> {
    let threads: u64 = version.block.iter().map(|&b| b as u64).product();
    if threads % 32 != 0 {
        return Err(format!("a block of {:?} is {threads} threads, not a whole number of warps", version.block));
    }
    let smem = static_shared_bytes(&kernel.source, env) + version.shared_mem as f64;
    if smem > STATIC_SMEM {
        return Err(format!("{:.0} KiB of shared memory per block is over the 48 KiB limit", smem / 1024.0));
    }
    if let Some(bound) = kernel.launch_bounds.first().and_then(|b| env.eval(b)).filter(|e| e.guesses == 0) {
        if bound.value < threads as f64 {
            return Err(format!("__launch_bounds__ allows {} threads but the block has {threads}", bound.value));
        }
        let min_blocks = kernel.launch_bounds.get(1).and_then(|b| env.eval(b)).map(|e| e.value).unwrap_or(1.0);
        if bound.value * min_blocks > THREADS_PER_SM {
            return Err(format!("__launch_bounds__ asks for {min_blocks} blocks of {} threads per SM", bound.value));
        }
    }
    Ok(())
}

/// Bytes of `__shared__ T name[a][b];` arrays (not `extern`), evaluated in `env`.
fn static_shared_bytes(source: &str, env: &Env) -> f64 {
    let mut total = 0.0;
    let mut rest = source;
    while let Some(p) = rest.find("__shared__") {
        let before = &rest[..p];
        let decl_end = rest[p..].find(';').map(|e| p + e).unwrap_or(rest.len());
        let decl = &rest[p + "__shared__".len()..decl_end];
        rest = &rest[decl_end.min(rest.len())..];
        if before.trim_end().ends_with("extern") || !decl.contains('[') {
            continue;
        }
        let head = &decl[..decl.find('[').unwrap_or(decl.len())];
        let bytes = match head.split_whitespace().find(|w| *w != "volatile" && *w != "__align__") {
            Some("double" | "long" | "int64_t" | "uint64_t" | "float2" | "size_t") => 8.0,
            Some("half" | "__half" | "__nv_bfloat16" | "short" | "half2") => 2.0,
            Some("char" | "int8_t" | "uint8_t" | "bool") => 1.0,
            Some("float4" | "double2" | "int4") => 16.0,
            _ => 4.0,
        };
        let mut elems = 1.0;
        for dim in decl.split('[').skip(1) {
            let dim = dim.split(']').next().unwrap_or("");
            match env.eval(dim) {
                Some(e) if e.guesses == 0 => elems *= e.value,
                _ => elems = 0.0,
            }
        }
        total += elems * bytes;
    }
    total
}

/// Identifiers, numbers and single punctuation characters.
pub(super) fn tokens(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        if c.is_ascii_alphanumeric() || c == b'_' {
            let start = i;
            while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                i += 1;
            }
            out.push(&text[start..i]);
        } else {
            if !c.is_ascii_whitespace() && c.is_ascii() {
                out.push(&text[i..i + 1]);
            }
            i += 1;
            while i < bytes.len() && !bytes[i].is_ascii() {
                i += 1;
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const TRANSPOSE: &str = r#"#define TILE_DIM   32
#define BLOCK_ROWS 8
// kforecast: rows = 4096; cols = 4096; in: f32[rows, cols]; out: f32[rows, cols]
__global__ void __launch_bounds__(TILE_DIM * BLOCK_ROWS)
transpose(const float* __restrict__ in, float* __restrict__ out, int rows, int cols)
{
    __shared__ float tile[TILE_DIM][TILE_DIM + 1];
    int x = blockIdx.x * TILE_DIM + threadIdx.x;
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS) tile[threadIdx.y + j][threadIdx.x] = in[x + j];
}
// the host side
void launch(const float* in, float* out, int rows, int cols) {
    dim3 block(TILE_DIM, BLOCK_ROWS);
    dim3 grid(cols / TILE_DIM, rows / TILE_DIM);
    transpose<<<grid, block>>>(in, out, rows, cols);
}
"#;

    fn set(text: &str, name: &str, from: &str, to: &str) -> String {
        text.replace(&format!("#define {name} {from}"), &format!("#define {name} {to}"))
    }

    #[test]
    fn hardware_limits_and_kernel_assumptions() {
        let o = Original::new(TRANSPOSE, Language::Cuda, "transpose").expect("original");
        assert!(o.check(&set(TRANSPOSE, "TILE_DIM", "  32", "  64")).is_ok());
        let e = o.check(&set(TRANSPOSE, "TILE_DIM", "  32", "  256")).expect_err("2048 threads");
        assert!(e.contains("more than 1024 threads"), "{e}");
        let e = o.check(&set(TRANSPOSE, "TILE_DIM", "  32", "  128")).expect_err("smem");
        assert!(e.contains("shared memory"), "{e}");
        let e = o.check(&set(TRANSPOSE, "BLOCK_ROWS", "8", "2").replace("TILE_DIM   32", "TILE_DIM   8"));
        let e = e.expect_err("16 threads");
        assert!(e.contains("whole number of warps"), "{e}");
        let e = o.check(&set(TRANSPOSE, "BLOCK_ROWS", "8", "16").replace("TILE_DIM   32", "TILE_DIM   8"));
        let e = e.expect_err("divides");
        assert!(e.contains("`BLOCK_ROWS` (16) must divide `TILE_DIM` (8)"), "{e}");
        let e = o.check(&TRANSPOSE.replace("// the host side", "// the host code")).expect_err("outside");
        assert!(e.contains("outside the kernel"), "{e}");
        assert!(o.check(&TRANSPOSE.replace("(TILE_DIM * BLOCK_ROWS)", "(TILE_DIM * BLOCK_ROWS, 2)")).is_ok());
        let e = o.check(&TRANSPOSE.replace("(TILE_DIM * BLOCK_ROWS)", "(128)")).expect_err("bounds");
        assert!(e.contains("__launch_bounds__ allows 128 threads"), "{e}");
        assert!(o.check(&TRANSPOSE.replace("transpose(", "transpos(")).is_err());
    }

    const TEMPLATED: &str = r#"template <const int BM, const int BK, const int TM>
__global__ void tiled(int n, const float *A, float *C) {
  constexpr uint threads = BM / TM;
  static_assert(threads >= BK && threads % BK == 0, "a row of tiles per BK threads");
  static_assert(BM * BK * sizeof(float) <= 48 * 1024, "static shared memory");
  __shared__ float As[BM * BK];
  const uint row = threadIdx.x / BK;
  As[threadIdx.x] = A[blockIdx.x * BM + row];
  C[blockIdx.x * BM + threadIdx.x] = As[threadIdx.x];
}

void run(int n, const float *A, float *C) {
  if (n >= 128) {
    const uint BM = 256;
    const uint TM = 2;
    tiled<BM, 8, TM><<<n / BM, BM / TM>>>(n, A, C);
  } else {
    const uint BM = 32;
    const uint TM = 4;
    tiled<BM, 8, TM><<<n / BM, BM / TM>>>(n, A, C);
  }
}

int main() {
  const int n = 1 << 20;
  float *A, *C;
  cudaMalloc(&A, sizeof(float) * n);
  cudaMalloc(&C, sizeof(float) * n);
  run(n, A, C);
}
"#;

    #[test]
    fn a_variant_that_breaks_a_static_assert_is_refused() {
        let o = Original::new(TEMPLATED, Language::Cuda, "tiled").expect("original");
        // The launch that runs is the first branch's (n = 2^20): BM = 256, TM = 2.
        assert!(o.check(&TEMPLATED.replace("const uint TM = 2;", "const uint TM = 4;")).is_ok());
        let e = o.check(&TEMPLATED.replace(
            "tiled<BM, 8, TM><<<n / BM, BM / TM>>>(n, A, C);\n  } else",
            "tiled<BM, 12, TM><<<n / BM, BM / TM>>>(n, A, C);\n  } else",
        ));
        let e = e.expect_err("128 threads are not rows of 12");
        assert!(e.contains("static_assert(threads >= BK && threads % BK == 0)"), "{e}");
        assert!(e.contains("a row of tiles per BK threads") && e.contains("`threads % BK == 0` is false"), "{e}");
        // Only the launch that runs is judged: the other branch's tiles may be anything.
        assert!(o.check(&TEMPLATED.replace("const uint TM = 4;", "const uint TM = 8;")).is_ok());
    }

    #[test]
    fn a_change_far_from_the_kernel_in_a_large_file_is_found() {
        let filler: String = (0..20_000).map(|i| format!("static int unused_{i} = {i};\n")).collect();
        let text = TRANSPOSE.replace("// the host side\n", &format!("// the host side\n{filler}"));
        let o = Original::new(&text, Language::Cuda, "transpose").expect("original");
        assert!(o.check(&set(&text, "TILE_DIM", "  32", "  64")).is_ok());
        let e = o.check(&text.replace("unused_19999 = 19999", "unused_19999 = 1")).expect_err("outside");
        assert!(e.contains("outside the kernel"), "{e}");
    }

    #[test]
    fn triton_tiles_must_fit_in_shared_memory() {
        let text = r#"import triton
# kforecast: wrapper = mm(a, b); a: f16[256, 256]; b: f16[256, 256]
@triton.jit
def k(a_ptr, b_ptr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    acc = tl.dot(tl.load(a_ptr), tl.load(b_ptr))

def mm(a, b):
    BLOCK_M, BLOCK_N, BLOCK_K = 64, 64, 32
    k[(1,)](a, b, BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, BLOCK_K=BLOCK_K, num_stages=3)
"#;
        let o = Original::new(text, Language::Triton, "k").expect("original");
        let big = text.replace("64, 64, 32", "256, 256, 128").replace("num_stages=3", "num_stages=4");
        let e = o.check(&big).expect_err("too big");
        assert!(e.contains("over the 227 KiB"), "{e}");
        assert!(o.check(&text.replace("64, 64, 32", "128, 128, 64")).is_ok());
    }

    #[test]
    fn an_original_that_cannot_run_is_refused_with_the_reason() {
        let e = Original::new(&TRANSPOSE.replace("// kforecast: rows = 4096; ", "// "), Language::Cuda, "transpose")
            .expect_err("no sizes");
        assert!(e.starts_with("cannot run `transpose`"), "{e}");
        assert!(Original::new(TRANSPOSE, Language::Cuda, "nope").expect_err("none").contains("no kernel named"));
    }
}
