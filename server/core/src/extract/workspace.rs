//! What other files of a workspace say about a file's kernels: a kernel launched from
//! another file (`kernels.cu` defines it, `main.cu` launches it with `const int M =
//! 8192`), and a launcher called from another file with the sizes (`launch_matvec(A, x,
//! y, 8192, 8192)` in a `.cpp`). Both are read with the grammar and kept as text, so the
//! forecaster and Verify evaluate them as they evaluate the file's own launches. Each other
//! file is parsed once per content and kept in an index, so an edit re-reads only the
//! edited file.

use super::cuda::host_calls;
use super::extract_text;
use crate::hash::ContentHash;
use crate::kernel::{Kernel, Language};
use crate::source::SourceText;
use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex, OnceLock};

/// Another file of the workspace: a label for messages (`src/main.cu`) and its text.
pub struct OtherFile<'a> {
    pub label: String,
    pub text: &'a str,
}

/// Files larger than this are not read for launches (generated code, amalgamations).
pub const MAX_OTHER_FILE: usize = 2 << 20;

/// Whether a path names a file that may launch CUDA kernels or call their launchers.
pub fn may_launch(path: &std::path::Path) -> bool {
    matches!(path.extension().and_then(|e| e.to_str()), Some("cu" | "cuh" | "cpp" | "cc" | "cxx" | "h" | "hpp"))
}

/// The other files of `path`'s folder that may launch its kernels (label, text): at most
/// 64, none over [`MAX_OTHER_FILE`], by name. The CLI and the editor read the same ones.
pub fn sibling_files(path: &std::path::Path) -> Vec<(String, String)> {
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(std::path::Path::new("."));
    let Ok(entries) = std::fs::read_dir(dir) else { return Vec::new() };
    let mut paths: Vec<std::path::PathBuf> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.is_file() && may_launch(p) && p.file_name() != path.file_name())
        .filter(|p| std::fs::metadata(p).is_ok_and(|m| m.len() as usize <= MAX_OTHER_FILE))
        .collect();
    paths.sort();
    paths
        .into_iter()
        .take(64)
        .filter_map(|p| {
            let label = p.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
            Some((label, std::fs::read_to_string(&p).ok()?))
        })
        .collect()
}

/// A call of a host function in another file, with the `cudaMalloc` byte counts (numbers)
/// of the buffers it passes, by the argument's text.
type AllocatedCall = (HostCall, BTreeMap<String, String>);

/// What one other file says, read once per content (see [`index`]): the launches of
/// kernels it does not define, and, asked by name, the calls of a host function, each with
/// the buffers allocated where it is.
struct SiblingIndex {
    text: String,
    /// (callee, launch site at the file's offsets), as [`extract_text`] finds them.
    launches: Vec<(String, crate::kernel::LaunchSite)>,
    /// The `cudaMalloc` byte counts beside each launch, by the launch's index, read on first ask.
    launch_allocations: Mutex<HashMap<usize, BTreeMap<String, String>>>,
    /// Calls of a host function by its name, with the allocations beside each (by argument
    /// text), read on first ask.
    calls: Mutex<HashMap<String, Arc<Vec<AllocatedCall>>>>,
}

impl SiblingIndex {
    fn new(text: &str) -> Self {
        Self {
            text: text.to_string(),
            launches: extract_text(Language::Cuda, text).external_launches,
            launch_allocations: Mutex::new(HashMap::new()),
            calls: Mutex::new(HashMap::new()),
        }
    }

    fn launch_allocations(&self, i: usize) -> BTreeMap<String, String> {
        let Some((_, site)) = self.launches.get(i) else { return BTreeMap::new() };
        let mut memo = self.launch_allocations.lock().unwrap_or_else(|e| e.into_inner());
        memo.entry(i).or_insert_with(|| allocated(&self.text, site.range.start, &site.args)).clone()
    }

    fn calls(&self, host: &str) -> Arc<Vec<AllocatedCall>> {
        let mut memo = self.calls.lock().unwrap_or_else(|e| e.into_inner());
        memo.entry(host.to_string())
            .or_insert_with(|| {
                let calls = host_calls(&self.text, host);
                Arc::new(
                    calls
                        .into_iter()
                        .map(|c| {
                            let allocations = allocated(&self.text, c.at, &c.args);
                            (c, allocations)
                        })
                        .collect(),
                )
            })
            .clone()
    }
}

/// Indexes kept, at most (a folder's worth many times over); past it the cache starts over.
const MAX_INDEXES: usize = 512;

/// The index of a file's text: parsed once per content, so that an edit of one file
/// re-reads only that file (a changed sibling has another hash and is read again).
fn index(text: &str) -> Arc<SiblingIndex> {
    static CACHE: OnceLock<Mutex<HashMap<ContentHash, Arc<SiblingIndex>>>> = OnceLock::new();
    let key = ContentHash::of(text.as_bytes());
    let cache = CACHE.get_or_init(Default::default);
    if let Some(found) = cache.lock().unwrap_or_else(|e| e.into_inner()).get(&key) {
        return found.clone();
    }
    // Parsed outside the lock: another document's analysis need not wait for this one.
    let built = Arc::new(SiblingIndex::new(text));
    let mut cache = cache.lock().unwrap_or_else(|e| e.into_inner());
    if cache.len() >= MAX_INDEXES {
        cache.clear();
    }
    cache.entry(key).or_insert(built).clone()
}

/// Completes `kernels` (of the file whose text is `own`) from `others`: a kernel with no
/// launch in its file takes the first launch of it found elsewhere (marked external, so no
/// edit is ever made there), and a launching function's parameters that a call elsewhere
/// passes numbers for become the launch's locals. Returns what was taken, for a hover.
/// Each other file is parsed once per content (see [`index`]).
pub fn link(kernels: &mut [Kernel], own: &str, others: &[OtherFile]) -> Vec<String> {
    let mut notes = Vec::new();
    if others.is_empty() {
        return notes;
    }
    let mut parsed: Option<SourceText> = None;
    for k in kernels.iter_mut().filter(|k| k.language == Language::Cuda) {
        let before = k.identity;
        if k.launches.is_empty() {
            let needle = format!("{}<<<", k.name);
            let templated = format!("{}<", k.name);
            for o in others.iter().filter(|o| o.text.len() <= MAX_OTHER_FILE) {
                if !(o.text.contains(&needle) || o.text.contains(&templated) && o.text.contains("<<<")) {
                    continue;
                }
                let ix = index(o.text);
                if let Some(i) = ix.launches.iter().position(|(callee, _)| callee == &k.name) {
                    let mut site = ix.launches[i].1.clone();
                    // Template arguments under the kernel's own parameter names.
                    let meta = std::mem::take(&mut site.meta);
                    for (key, value) in meta {
                        let named = key
                            .strip_prefix('T')
                            .and_then(|i| i.parse::<usize>().ok())
                            .and_then(|i| k.constexpr_params.get(i).cloned());
                        site.meta.insert(named.unwrap_or(key), value);
                    }
                    site.allocations = ix.launch_allocations(i);
                    let line = line_of(o.text, site.range.start);
                    site.external = Some(format!("{}:{}", o.label, line + 1));
                    notes.push(format!("`{}` is launched in {}", k.name, site.external.as_deref().unwrap_or("")));
                    k.launches.push(site);
                    break;
                }
            }
        }
        // The launching function's parameters, bound by a call elsewhere.
        let Some(site) = k.launches.first() else { continue };
        if site.external.is_some() || site.host_name.is_empty() {
            continue;
        }
        let own_src = parsed.get_or_insert_with(|| SourceText::new(Language::Cuda, own));
        let params = own_src.tree().map(|t| super::host::params_at(own, t.root_node(), site.range.start));
        let params = params.unwrap_or_default();
        if params.is_empty() || params.iter().all(|p| site.locals.contains_key(p)) {
            continue;
        }
        let host = site.host_name.clone();
        'files: for o in others.iter().filter(|o| o.text.len() <= MAX_OTHER_FILE && o.text.contains(host.as_str())) {
            for (call, allocations) in index(o.text).calls(&host).iter() {
                if call.args.len() != params.len() {
                    continue;
                }
                let env = crate::features::expr::Env::of_texts(&call.locals);
                let mut bound = Vec::new();
                for (p, a) in params.iter().zip(&call.args) {
                    if let Some(e) = env.eval(a).filter(|e| e.guesses == 0) {
                        bound.push((p.clone(), super::host::number(e.value)));
                    }
                }
                if bound.is_empty() {
                    continue;
                }
                let line = line_of(o.text, call.at);
                let names: Vec<String> = bound.iter().map(|(p, v)| format!("{p} = {v}")).collect();
                notes.push(format!("`{host}` is called in {}:{} with {}", o.label, line + 1, names.join(", ")));
                if let Some(site) = k.launches.first_mut() {
                    for (p, v) in bound {
                        site.locals.entry(p).or_insert(v);
                    }
                    // The caller's buffers, under the launcher's parameter names.
                    for (p, a) in params.iter().zip(&call.args) {
                        if let Some(bytes) = allocations.get(a.trim()) {
                            site.allocations.entry(p.clone()).or_insert_with(|| bytes.clone());
                        }
                    }
                }
                break 'files;
            }
        }
        if k.identity == before {
            k.identity = k.compute_identity();
        }
    }
    notes
}

/// The byte counts (numbers) of the buffers passed as `args` at offset `at` of `text` that
/// the host code there allocates with `cudaMalloc`, by the argument's text.
fn allocated(text: &str, at: usize, args: &[String]) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    let host = super::host::facts_at(text, at);
    if host.allocations.is_empty() {
        return out;
    }
    let env = crate::features::expr::Env::of_texts(&host.values);
    for a in args {
        let Some(bytes) = host.allocations.get(a.trim()) else { continue };
        if let Some(e) = env.eval(bytes).filter(|e| e.guesses == 0) {
            out.insert(a.trim().to_string(), super::host::number(e.value));
        }
    }
    out
}

/// 0-based line of a byte offset.
fn line_of(text: &str, offset: usize) -> usize {
    text.as_bytes().iter().take(offset.min(text.len())).filter(|&&b| b == b'\n').count()
}

/// A call to a host function: its arguments, the caller's locals and where it is.
pub(crate) struct HostCall {
    pub args: Vec<String>,
    pub locals: BTreeMap<String, String>,
    pub at: usize,
}

#[cfg(test)]
mod tests {
    use super::*;

    const KERNELS: &str = "__global__ void matvec(const float* A, const float* x, float* y, int M, int N) {\n\
        int r = blockIdx.x * blockDim.x + threadIdx.x; if (r < M) { float s = 0; for (int c = 0; c < N; ++c) s += A[r * N + c] * x[c]; y[r] = s; } }\n";

    #[test]
    fn a_kernel_launched_from_another_file_takes_that_launch() {
        let main = "#include \"kernels.cu\"\nint main() {\n  const int M = 8192, N = 8192;\n  float *A, *x, *y;\n  \
                    matvec<<<(M + 255) / 256, 256>>>(A, x, y, M, N);\n}\n";
        let mut ks = extract_text(Language::Cuda, KERNELS).kernels;
        let notes = link(&mut ks, KERNELS, &[OtherFile { label: "main.cu".into(), text: main }]);
        assert_eq!(ks[0].launches.len(), 1, "{notes:?}");
        assert_eq!(ks[0].launches[0].external.as_deref(), Some("main.cu:5"));
        let p = crate::features::profile(&ks[0]);
        assert_eq!(p.features.blocks, 32.0, "{p:?}");
        assert!(p.assumed.is_empty(), "{:?}", p.assumed);
    }

    #[test]
    fn verify_takes_the_buffers_allocated_beside_a_launch_in_another_file() {
        let main = "int main() {\n  const int M = 8192, N = 4096;\n  float *A, *x, *y;\n  \
                    cudaMalloc(&A, sizeof(float) * M * N);\n  cudaMalloc(&x, sizeof(float) * N);\n  \
                    cudaMalloc(&y, sizeof(float) * M);\n  matvec<<<(M + 255) / 256, 256>>>(A, x, y, M, N);\n}\n";
        let mut ks = extract_text(Language::Cuda, KERNELS).kernels;
        link(&mut ks, KERNELS, &[OtherFile { label: "main.cu".into(), text: main }]);
        let k = &ks[0];
        let (job, _) = crate::measure::spec::job(("kernels.cu", k, KERNELS), ("kernels.cu", k, KERNELS))
            .unwrap_or_else(|e| panic!("{:?}", e.iter().map(|e| &e.message).collect::<Vec<_>>()));
        let crate::measure::protocol::Job::Cuda(job) = job else { panic!("a CUDA job") };
        let len = |name: &str| {
            job.args.iter().find_map(|a| match a {
                crate::measure::protocol::Arg::Buffer { name: n, len, .. } if n == name => Some(*len),
                _ => None,
            })
        };
        assert_eq!((len("A"), len("x"), len("y")), (Some(8192 * 4096), Some(4096), Some(8192)));
        assert_eq!(job.candidate.grid, [32, 1, 1]);
    }

    #[test]
    fn a_sibling_is_parsed_once_per_content() {
        let main =
            "int main() {\n  const int M = 64, N = 32;\n  float *A, *x, *y;\n  matvec<<<1, 64>>>(A, x, y, M, N);\n}\n";
        let first = index(main);
        assert!(Arc::ptr_eq(&first, &index(main)), "the same text is read once");
        let edited = main.replace("M = 64", "M = 128");
        assert!(!Arc::ptr_eq(&first, &index(&edited)), "a changed sibling is read again");
        // Linking twice with the same sibling gives the same kernels.
        let link_once = || {
            let mut ks = extract_text(Language::Cuda, KERNELS).kernels;
            link(&mut ks, KERNELS, &[OtherFile { label: "main.cu".into(), text: main }]);
            ks
        };
        assert_eq!(link_once(), link_once());
    }

    #[test]
    fn a_launcher_called_from_another_file_gives_its_sizes() {
        let own = format!(
            "{KERNELS}void launch_matvec(const float* A, const float* x, float* y, int M, int N) {{\n  \
             matvec<<<(M + 127) / 128, 128>>>(A, x, y, M, N);\n}}\n"
        );
        let cpp = "void launch_matvec(const float*, const float*, float*, int, int);\nvoid run(float* A, float* x, float* y) {\n  \
                   int rows = 8192;\n  launch_matvec(A, x, y, rows, 4096);\n}\n";
        let mut ks = extract_text(Language::Cuda, &own).kernels;
        let before = crate::features::profile(&ks[0]);
        assert!(!before.assumed.is_empty());
        let notes = link(&mut ks, &own, &[OtherFile { label: "bind.cpp".into(), text: cpp }]);
        assert!(notes.iter().any(|n| n.contains("bind.cpp:4") && n.contains("M = 8192")), "{notes:?}");
        let p = crate::features::profile(&ks[0]);
        assert_eq!(p.features.blocks, 64.0);
        assert!(p.assumed.is_empty(), "{:?}", p.assumed);
    }
}
