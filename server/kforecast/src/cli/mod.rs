//! The command line: `check` and `forecast`, on the same core as the server.

pub mod calibrate;
pub mod check;
mod corpus;
pub mod eval;
mod evalset;
mod fit_doubt;
pub mod forecast;
pub mod output;
pub use output::forecast_json;
pub mod profile;
pub mod search;
pub mod train;
mod train_programs;
pub mod verify;

use anyhow::{bail, Context};
use kforecast_core::analysis::Analyzer;
use kforecast_core::cache::ForecastCache;
use kforecast_core::extract;
use kforecast_core::forecast::Forecaster;
use kforecast_core::kernel::{Kernel, Language};
use kforecast_core::store::{self, Store};
use std::borrow::Cow;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Where forecasts are cached.
#[derive(Clone, Debug, Default)]
pub struct CacheOptions {
    pub dir: Option<PathBuf>,
    pub disabled: bool,
}

/// Default device the embedded forecaster models.
pub const DEFAULT_DEVICE: &str = "NVIDIA H100";

/// Opens the cache store, reporting (not failing on) problems.
pub fn open_cache(options: &CacheOptions, warn: &mut dyn FnMut(String)) -> ForecastCache {
    let store = if options.disabled {
        None
    } else {
        match options.dir.clone().or_else(store::default_dir) {
            Some(dir) => match Store::open_in(&dir) {
                Ok((store, warning)) => {
                    if let Some(w) = warning {
                        warn(w);
                    }
                    Some(store)
                }
                Err(e) => {
                    warn(format!("kforecast: forecasts are cached in memory only: {e}"));
                    None
                }
            },
            None => None,
        }
    };
    ForecastCache::new(65536, store)
}

pub fn analyzer(options: &CacheOptions) -> Analyzer {
    let cache = open_cache(options, &mut |w| eprintln!("warning: {w}"));
    Analyzer::new(calibrate::forecaster(&cache, DEFAULT_DEVICE), Arc::new(cache), DEFAULT_DEVICE)
}

/// An analyzer forecasting with `forecaster` (weights being evaluated, say) instead of the
/// shipped model with this device's calibration.
pub fn analyzer_of(options: &CacheOptions, forecaster: Arc<dyn Forecaster>) -> Analyzer {
    let cache = open_cache(options, &mut |w| eprintln!("warning: {w}"));
    Analyzer::new(forecaster, Arc::new(cache), DEFAULT_DEVICE)
}

/// A source file's kernels.
#[derive(Clone)]
pub struct LoadedFile {
    pub path: PathBuf,
    pub text: String,
    pub kernels: Vec<Kernel>,
}

/// A program forecast of two loaded files, no longer "the same" where only their kernels are
/// (see [`kforecast_core::forecast::with_code_around`]).
pub fn program_around(
    pf: kforecast_core::forecast::ProgramForecast,
    base: &LoadedFile,
    candidate: &LoadedFile,
) -> kforecast_core::forecast::ProgramForecast {
    let language = Language::from_path(&base.path).unwrap_or(Language::Cuda);
    kforecast_core::forecast::with_code_around(
        pf,
        language,
        (&base.text, &base.kernels),
        (&candidate.text, &candidate.kernels),
    )
}

/// `file` read again with the inputs `other` gives, where it is a Python program that
/// gives none (a KernelBench `ModelNew` against its problem, a GPU MODE submission against
/// the reference: see [`extract::borrow_inputs`]); its text stays its own.
pub fn borrowed_inputs(file: &LoadedFile, other: &LoadedFile) -> Option<LoadedFile> {
    if Language::from_path(&file.path) != Some(Language::Triton) {
        return None;
    }
    let text = extract::borrow_inputs(&file.text, &other.text)?;
    let mut kernels = extract::extract_text(Language::Triton, &text).kernels;
    if kernels.is_empty() {
        kernels.extend(extract::torch_program(&text));
    } else if runs_none(&kernels) {
        kernels.extend(extract::entry_program(&text));
    }
    link_siblings(&file.path, &file.text, &mut kernels);
    Some(LoadedFile { path: file.path.clone(), text: file.text.clone(), kernels })
}

/// Both versions of a pair as they are compared: each with the inputs the other gives
/// where it gives none ([`borrowed_inputs`]).
pub fn compared<'a>(base: &'a LoadedFile, candidate: &'a LoadedFile) -> (Cow<'a, LoadedFile>, Cow<'a, LoadedFile>) {
    let side = |file: &'a LoadedFile, other: &LoadedFile| match borrowed_inputs(file, other) {
        Some(f) => Cow::Owned(f),
        None => Cow::Borrowed(file),
    };
    (side(base, candidate), side(candidate, base))
}

/// Reads a file (invalid UTF-8 is replaced, with a warning) and extracts its kernels.
pub fn load(path: &Path) -> anyhow::Result<LoadedFile> {
    if path.is_dir() {
        bail!("{}: is a directory, not a file: give a .cu, .cuh or .py file (`kforecast check DIR` reads a whole directory)", path.display());
    }
    if !path.exists() {
        bail!("{}: no such file", path.display());
    }
    let Some(language) = Language::from_path(path) else {
        bail!("{}: not a CUDA (.cu, .cuh) or Python (.py) file", path.display());
    };
    let bytes = std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
    let text = match String::from_utf8(bytes) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("warning: {}: not valid UTF-8; invalid bytes were replaced", path.display());
            String::from_utf8_lossy(e.as_bytes()).into_owned()
        }
    };
    Ok(from_text(path, language, text))
}

pub fn from_text(path: &Path, language: Language, text: String) -> LoadedFile {
    let mut kernels = extract::extract_text(language, &text).kernels;
    link_siblings(path, &text, &mut kernels);
    LoadedFile { path: path.to_path_buf(), text, kernels }
}

/// Completes kernels launched (or whose launcher is called) from other files of the
/// same folder: see [`extract::workspace::link`].
pub fn link_siblings(path: &Path, text: &str, kernels: &mut [Kernel]) -> Vec<String> {
    if !kernels.iter().any(|k| k.language == Language::Cuda) {
        return Vec::new();
    }
    let texts = extract::workspace::sibling_files(path);
    let others: Vec<extract::workspace::OtherFile> =
        texts.iter().map(|(label, text)| extract::workspace::OtherFile { label: label.clone(), text }).collect();
    extract::workspace::link(kernels, text, &others)
}

/// Like [`load`], but a file without kernels is an error.
pub fn load_with_kernels(path: &Path) -> anyhow::Result<LoadedFile> {
    with_kernels(path, load(path)?, false)
}

/// Whether a file's entry point launches none of its kernels, which it launches elsewhere
/// (a `kf_run` timing `torch.matmul` beside the file's own GEMMs).
fn runs_none(kernels: &[Kernel]) -> bool {
    !kernels.iter().any(Kernel::runs) && kernels.iter().any(|k| k.launches.iter().any(|l| l.unreached))
}

/// A version of a program to forecast: like [`load_with_kernels`], but a Python file
/// without kernels whose module has a `forward`, a GPU MODE function of `data`
/// (`ref_kernel(data)`, `custom_kernel(data)`: a PyTorch-only reference or submission) or one
/// public function calling torch, is read as a torch program ([`extract::torch_program`]);
/// and a CUDA program's GPU library calls (cuBLAS, Thrust, CUB) in the host functions it
/// runs that launch no kernel are read as a program of them ([`extract::library_program`]).
pub fn load_program(path: &Path) -> anyhow::Result<LoadedFile> {
    let mut file = load(path)?;
    match Language::from_path(path) {
        Some(Language::Triton) if file.kernels.is_empty() => file.kernels.extend(extract::torch_program(&file.text)),
        Some(Language::Triton) if runs_none(&file.kernels) => file.kernels.extend(extract::entry_program(&file.text)),
        Some(Language::Cuda) if ["cublas", "thrust::", "cub::"].iter().any(|l| file.text.contains(l)) => {
            if let Some(program) = extract::library_program(&file.text, !file.kernels.is_empty()) {
                // Its function's parameters bound by a call in another file, as a launcher's.
                let mut program = vec![program];
                link_siblings(path, &file.text, &mut program);
                file.kernels.extend(program);
            }
        }
        _ => {}
    }
    with_kernels(path, file, true)
}

/// `file`, or why it has nothing to forecast (`torch`: a module's `forward` or a function
/// of `data` would do).
fn with_kernels(path: &Path, file: LoadedFile, torch: bool) -> anyhow::Result<LoadedFile> {
    if !file.kernels.is_empty() {
        return Ok(file);
    }
    let what = match (Language::from_path(path), torch) {
        (Some(Language::Triton), false) => {
            "no @triton.jit kernel and no CUDA string (load_inline `cuda_sources`, cupy.RawKernel or RawModule)"
        }
        (Some(Language::Triton), true) => {
            "no @triton.jit kernel, no CUDA string (load_inline `cuda_sources`, cupy.RawKernel or RawModule), \
             no module `forward` and no function of GPU MODE `data` (`custom_kernel(data)`)"
        }
        (_, false) => "no __global__ kernel",
        (_, true) => "no __global__ kernel and no GPU library call (cuBLAS, Thrust, CUB)",
    };
    bail!("{}: {what} found", path.display())
}

/// Prints a line to stdout; a closed pipe (`| head`) ends the program quietly.
pub fn out(line: impl AsRef<str>) {
    use std::io::Write;
    let mut stdout = std::io::stdout().lock();
    if let Err(e) = writeln!(stdout, "{}", line.as_ref()) {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            std::process::exit(0);
        }
    }
}

/// 1-based line and column (in characters) of a byte offset, as compilers print them.
pub fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let before = text.get(..offset.min(text.len())).unwrap_or(text);
    let line = before.matches('\n').count() + 1;
    let col = before.rsplit('\n').next().map(|l| l.chars().count()).unwrap_or(0) + 1;
    (line, col)
}
