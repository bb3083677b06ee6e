//! Domain types for kernels found in a source file.

use crate::declaration::Declared;
use crate::hash::ContentHash;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::Path;

/// Source language of a kernel.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Language {
    /// CUDA C++ (`.cu`, `.cuh`).
    Cuda,
    /// Triton (`@triton.jit` functions in `.py`). Also the language of a Python file as a
    /// whole: the CUDA in its strings (`load_inline`, CuPy) gives kernels of language `Cuda`.
    Triton,
}

impl Language {
    /// Language of a path by its extension, if kforecast handles it.
    pub fn from_path(path: &Path) -> Option<Self> {
        match path.extension()?.to_str()? {
            "cu" | "cuh" => Some(Self::Cuda),
            "py" => Some(Self::Triton),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Self::Cuda => "CUDA",
            Self::Triton => "Triton",
        }
    }
}

/// A byte range in a document.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct TextRange {
    pub start: usize,
    pub end: usize,
}

impl TextRange {
    pub fn new(start: usize, end: usize) -> Self {
        Self { start, end: end.max(start) }
    }

    pub fn shifted(self, delta: isize) -> Self {
        let shift = |x: usize| (x as isize + delta).max(0) as usize;
        Self::new(shift(self.start), shift(self.end))
    }

    pub fn len(&self) -> usize {
        self.end - self.start
    }

    pub fn is_empty(&self) -> bool {
        self.start == self.end
    }
}

/// The value of a launching function's local that is assigned on some paths only (its
/// value at the launch is not known from the text).
pub const SET_ON_SOME_PATHS: &str = "<set on some paths only>";

/// A place where a kernel is launched.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct LaunchSite {
    /// The whole launch expression.
    pub range: TextRange,
    /// CUDA `<<<grid, block, shared, stream>>>` operands or Triton's `[grid]`.
    pub grid: Option<String>,
    pub block: Option<String>,
    pub shared_mem: Option<String>,
    pub stream: Option<String>,
    /// Template arguments (CUDA) or keyword arguments (Triton: `BLOCK_SIZE`, `num_warps`, …).
    pub meta: BTreeMap<String, String>,
    /// Positional argument texts.
    pub args: Vec<String>,
    /// Local constants of the launching function (`int threads = 256;`, `BLOCK = 1024`),
    /// so that `block` or `grid` written through a variable can still be evaluated.
    pub locals: BTreeMap<String, String>,
    /// Parameters of the launching function (Triton: the wrapper the declaration calls).
    #[serde(default)]
    pub host_params: Vec<String>,
    /// Default values of the launching function's parameters (`num_groups: int = 32`),
    /// which hold where the call leaves them out.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub host_defaults: BTreeMap<String, String>,
    /// The launching function's name.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub host_name: String,
    /// Where the launch is when it is in another file (`src/main.cu:12`): read for the
    /// launch shape and sizes, never edited.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub external: Option<String>,
    /// Byte counts (numbers) of the buffers the launch passes, by the name it passes them
    /// under, where another file allocates them (`cudaMalloc` beside a launch in another
    /// file, or in the caller of the launcher there). A launch's own file is read at Verify.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub allocations: BTreeMap<String, String>,
    /// Trip counts of the loops around the launch in its function, outermost first
    /// (`passes`, `(n - 0 + 2 - 1) / 2`); an empty text where a loop's count is not
    /// written (`for t in tensors:`, a `while`). The launch runs once per trip of each.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub trips: Vec<String>,
    /// The branches of its function the launch lies in, outermost first (`if (n < 1024)
    /// small<<<…>>>(…); else big<<<…>>>(…);`, a `case`, an earlier `if (…) { …; return; }`):
    /// it runs where each holds.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub taken: Vec<Branch>,
    /// Calls into GPU libraries (`cublasSgemm`, `cudnnConvolutionForward`, `thrust::sort`,
    /// `cub::DeviceScan::…`) and host syncs in the launching function, with their arguments,
    /// in the order written (each distinct call once: CUB's two-call pattern, a size query
    /// then the work, is one); the library's work is costed from them where kforecast knows
    /// it (see `features::torch_ops::library`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub library_calls: Vec<LibraryCall>,
    /// The launching function is not reached from the file's entry points (`main`, an
    /// `extern "C"` function) where it has some: a step's launcher the entry does not call.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub unreached: bool,
    /// The file's entry points reach the launching function: a run of the program makes
    /// this launch (a backward pass its entry calls is no forward-only program's extra).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub reached: bool,
}

/// A call into a GPU library (`cublasSgemm(handle, …, m, n, k, …)`, `thrust::sort(first,
/// last)`, `cub::DeviceReduce::Sum(…, n)`) as written in a host function.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct LibraryCall {
    /// The callee, without template arguments (`thrust::reduce`).
    pub name: String,
    /// Its argument texts, in order.
    pub args: Vec<String>,
}

impl LaunchSite {
    /// The distinct names of its library calls, in the order written.
    pub fn library_names(&self) -> Vec<&str> {
        let mut out: Vec<&str> = Vec::new();
        for call in &self.library_calls {
            if !out.contains(&call.name.as_str()) {
                out.push(&call.name);
            }
        }
        out
    }
}

/// Host calls that wait for the GPU or for the driver, whose latency a run of the launching
/// function pays (see `features::torch_ops::HOST_SYNC`); a tensor's `.item()` (a copy to
/// the host) is one too, named `.item`.
pub const HOST_SYNCS: [&str; 9] = [
    "cudaDeviceSynchronize",
    "cudaStreamSynchronize",
    "cudaEventSynchronize",
    "cudaMemcpy",
    "cudaMemcpy2D",
    "cudaMalloc",
    "cudaFree",
    "cudaMallocHost",
    "cudaFreeHost",
];

/// Whether the library call named `name` is a host sync (see [`HOST_SYNCS`]), not a
/// library's work.
pub fn is_host_sync(name: &str) -> bool {
    name == ".item" || HOST_SYNCS.contains(&name)
}

/// One branch a launch lies in: it runs where `condition` (C's or Python's form) is true
/// if `holds`, false if not; where the condition has no value (`x.is_contiguous()`), it
/// runs if `if_unknown` (an `if`'s first branch, after an early `return`), else not (an
/// `else`: the branch written first is the one taken).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Branch {
    pub condition: String,
    pub holds: bool,
    pub if_unknown: bool,
}

impl LaunchSite {
    /// Every text the launch is evaluated from: locals, grid, block, shared memory and
    /// meta-parameters.
    pub fn texts(&self) -> impl Iterator<Item = &str> {
        self.locals
            .values()
            .chain(&self.grid)
            .chain(&self.block)
            .chain(&self.shared_mem)
            .chain(self.meta.values())
            .map(String::as_str)
    }
}

/// A helper a kernel uses from the same file: a `__device__` function, a `#define`,
/// a file-level constant, or a Triton `@triton.jit` helper it calls.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Helper {
    pub name: String,
    pub kind: HelperKind,
    /// Text of the definition (for an object-like `#define`, its value).
    pub text: String,
    /// Hash of its normalised tokens.
    pub hash: ContentHash,
}

impl Helper {
    /// What the helper stands for in an expression (see [`definition_value`]).
    pub fn value(&self) -> &str {
        definition_value(self.kind, &self.text)
    }
}

/// The value a `#define` or a constant stands for: a macro's body, the right-hand side of
/// `constexpr int X = 4;` (CUDA), or the text itself (a Triton constant's text is its value).
pub fn definition_value(kind: HelperKind, text: &str) -> &str {
    if kind == HelperKind::Constant {
        if let Some((head, value)) = text.split_once('=') {
            if !head.contains('(') {
                return value.trim().trim_end_matches(';').trim();
            }
        }
        // `constexpr int M{1025};`: a brace initialiser of one value.
        if let Some(open) = text.find('{') {
            let head = &text[..open];
            let named = head.trim_end().ends_with(|c: char| c.is_ascii_alphanumeric() || c == '_');
            let value = brace_single(text[open..].trim().trim_end_matches(';'));
            if let Some(value) = value.filter(|_| named && !head.contains('(')) {
                return value;
            }
        }
    }
    text
}

/// The one value a brace initialiser holds (`{1025}` → `1025`); `None` for an empty list,
/// several values or a nested list.
pub(crate) fn brace_single(list: &str) -> Option<&str> {
    let inner = list.trim().strip_prefix('{')?.strip_suffix('}')?.trim();
    (!inner.is_empty() && !inner.contains([',', '{', ';'])).then_some(inner)
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum HelperKind {
    DeviceFunction,
    Define,
    /// A function-like `#define NAME(params) body`, its whole definition on one line.
    Macro,
    Constant,
    JitFunction,
}

/// One kernel as found in one version of a file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Kernel {
    pub name: String,
    pub language: Language,
    /// The whole definition, template header or decorators included.
    pub range: TextRange,
    /// The kernel's name in its definition.
    pub name_range: TextRange,
    /// Just after the closing parenthesis of the parameter list.
    pub signature_end: usize,
    /// Definition text (shared by the copies of a kernel: current, baseline, last good).
    pub source: std::sync::Arc<str>,
    /// Hash of the raw definition text (any edit changes it).
    pub raw_hash: ContentHash,
    /// Hash of the normalised definition: comments, whitespace and local names removed.
    pub normalized_hash: ContentHash,
    /// See [`Kernel::identity`]; computed once, when the kernel is extracted.
    pub identity: ContentHash,
    /// Helpers it uses, sorted by name.
    pub helpers: Vec<Helper>,
    /// `__launch_bounds__(…)` arguments.
    pub launch_bounds: Vec<String>,
    /// Template parameter names (CUDA) or `tl.constexpr` parameters (Triton).
    pub constexpr_params: Vec<String>,
    /// Launch sites in the same file.
    pub launches: Vec<LaunchSite>,
    /// `@triton.autotune` configurations: meta-parameters plus `num_warps`/`num_stages`.
    pub autotune: Vec<BTreeMap<String, String>>,
    /// The definition contains a syntax error.
    pub has_errors: bool,
    /// Sizes and shapes the `kforecast:` lines above it declare (empty without them).
    #[serde(default)]
    pub declared: Declared,
    /// Triton: the other kernels its launching wrapper launches, in launch order (timed
    /// with it, since a measurement runs the whole wrapper). They carry no companions.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub companions: Vec<Kernel>,
    /// A PyTorch-only program (a module's `forward` of torch operations, no kernel of its
    /// own; see [`crate::extract::torch_program`]): its launch holds `forward`'s
    /// assignments, and it costs only the torch operations they run.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub torch_program: bool,
    /// A torch program that runs calls in a Python loop (`for`, `while`): the reader takes
    /// each operation once, not once per iteration, so its cost is not what the GPU sees.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub torch_loops: bool,
}

impl Kernel {
    /// Identity of this version for caching and comparison: the normalised kernel,
    /// its helpers and its launch context. Two versions with equal identity are
    /// the same kernel for the forecaster.
    pub fn identity(&self) -> ContentHash {
        self.identity
    }

    /// Computes [`Kernel::identity`] from the other fields.
    /// Whether a run of its program launches it: a launch of it that the file's entry points
    /// reach (see [`LaunchSite::unreached`]).
    pub fn runs(&self) -> bool {
        self.launches.iter().any(|l| !l.unreached)
    }

    pub(crate) fn compute_identity(&self) -> ContentHash {
        let mut h = crate::hash::Hasher::new();
        h.str(self.language.name()).hash(&self.normalized_hash);
        if self.torch_program {
            h.str("torch program");
        }
        for helper in &self.helpers {
            h.str(&helper.name).hash(&helper.hash);
        }
        for bound in &self.launch_bounds {
            h.str(bound);
        }
        for launch in &self.launches {
            for part in [&launch.grid, &launch.block, &launch.shared_mem] {
                h.str(part.as_deref().unwrap_or(""));
            }
            for (k, v) in &launch.meta {
                h.str(k).str(v);
            }
            for (k, v) in &launch.locals {
                h.str(k).str(v);
            }
            for p in &launch.host_params {
                h.str(p);
            }
            for (k, v) in &launch.host_defaults {
                h.str(k).str(v);
            }
            if let Some(at) = &launch.external {
                h.str(at);
            }
            if launch.unreached {
                h.str("unreached");
            }
            if launch.reached {
                h.str("reached");
            }
            for (k, v) in &launch.allocations {
                h.str(k).str(v);
            }
            for call in &launch.library_calls {
                h.str(&call.name);
                for a in &call.args {
                    h.str(a);
                }
            }
        }
        for config in &self.autotune {
            for (k, v) in config {
                h.str(k).str(v);
            }
        }
        let d = &self.declared;
        for (k, v) in &d.values {
            h.str(k).str(v);
        }
        for (name, dims) in &d.shapes {
            h.str(name);
            for dim in dims {
                h.str(dim);
            }
        }
        for a in &d.wrapper_args {
            h.str(a);
        }
        if !d.wrapper.is_empty() {
            h.str(&d.wrapper);
        }
        for part in [&d.grid, &d.block].into_iter().flatten() {
            h.str(part);
        }
        for c in &self.companions {
            h.str(&c.name).hash(&c.identity);
        }
        h.finish()
    }
}
