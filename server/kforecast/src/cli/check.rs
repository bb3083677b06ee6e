//! `kforecast check PATH…`: forecasts every changed kernel against its baseline.

use super::output::{bins_line, forecast_json, severity};
use super::{analyzer, from_text, line_col, load, CacheOptions, LoadedFile};
use anyhow::bail;
use clap::Args;
use kforecast_core::analysis::Status;
use kforecast_core::baseline;
use kforecast_core::extract;
use kforecast_core::kernel::Language;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(Args)]
pub struct CheckArgs {
    /// Files or directories (searched for .cu, .cuh and Triton .py files).
    #[arg(required = true, value_name = "PATH")]
    paths: Vec<PathBuf>,
    /// Baseline: a git revision, or a directory that mirrors PATH with the previous versions.
    #[arg(long, default_value = "HEAD", value_name = "REV|DIR")]
    base: String,
    /// Confidence (0–1) at or above which a forecast is trusted rather than deferred.
    #[arg(long, default_value_t = 0.7, value_parser = parse_threshold)]
    threshold: f64,
    /// Exit with status 1 if a kernel is confidently forecast to be slower (for CI).
    #[arg(long)]
    deny_regressions: bool,
    /// One JSON object per changed kernel instead of text.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    llm: crate::llm::LlmArgs,
}

pub fn parse_threshold(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(v) if (0.0..=1.0).contains(&v) => Ok(v),
        _ => Err(format!("`{s}` is not a confidence between 0 and 1")),
    }
}

/// One file to check and where its baseline comes from.
struct Job {
    path: PathBuf,
    base: Base,
}

enum Base {
    Rev(String),
    File(PathBuf),
}

pub fn run(args: CheckArgs, cache: &CacheOptions) -> anyhow::Result<ExitCode> {
    let base_dir = Path::new(&args.base).is_dir().then(|| PathBuf::from(&args.base));
    let mut jobs = Vec::new();
    let mut errors = 0;
    for root in &args.paths {
        if !root.exists() {
            eprintln!("error: {}: no such file or directory", root.display());
            errors += 1;
            continue;
        }
        let mut files = Vec::new();
        if root.is_dir() {
            collect(root, base_dir.as_deref(), &mut files);
        } else {
            files.push(root.clone());
        }
        for path in files {
            let base = match &base_dir {
                Some(dir) => {
                    let rel = if root.is_dir() {
                        path.strip_prefix(root).map(Path::to_path_buf).unwrap_or_else(|_| path.clone())
                    } else {
                        PathBuf::from(path.file_name().unwrap_or_default())
                    };
                    Base::File(dir.join(rel))
                }
                None => Base::Rev(args.base.clone()),
            };
            jobs.push(Job { path, base });
        }
    }
    let analyzer = analyzer(cache);
    let llm = args.llm.forecaster(analyzer.cache_arc())?;
    let (mut changed, mut faster, mut slower, mut same, mut unsure, mut regressions) = (0, 0, 0, 0, 0, 0);
    for job in &jobs {
        let current = match load(&job.path) {
            Ok(f) => f,
            Err(e) => {
                eprintln!("error: {e:#}");
                errors += 1;
                continue;
            }
        };
        if current.kernels.is_empty() {
            if args.paths.iter().any(|p| p == &job.path) {
                eprintln!("error: {}: no kernel found", job.path.display());
                errors += 1;
            }
            continue;
        }
        let (label, base) =
            match baseline_for(job, Language::from_path(&job.path).unwrap_or(current.kernels[0].language)) {
                Ok(b) => b,
                Err(e) => {
                    eprintln!("error: {}: no baseline: {e:#}", job.path.display());
                    errors += 1;
                    continue;
                }
            };
        let current_kernels: Vec<_> = current.kernels.iter().map(|k| (k.clone(), k.has_errors)).collect();
        let mut reports = analyzer.compare(&current_kernels, &base.kernels);
        if let Some(llm) = &llm {
            crate::llm::ensemble_reports(
                llm,
                analyzer.device(),
                &mut reports,
                (&base.kernels, &base.text),
                (&current.kernels, &current.text),
            );
        }
        for report in reports {
            let (line, col) = line_col(&current.text, report.name_range.start);
            let location = format!("{}:{line}:{col}", job.path.display());
            let f = match &report.status {
                Status::Changed(f) => f,
                Status::New => {
                    if !args.json {
                        super::out(format!("{location}: note: `{}` is new (not in {label})", report.name));
                    }
                    continue;
                }
                Status::Unchanged => continue,
            };
            changed += 1;
            if f.defer(args.threshold) {
                unsure += 1;
            }
            match f.claim {
                kforecast_core::forecast::Claim::Faster => faster += 1,
                kforecast_core::forecast::Claim::Slower => slower += 1,
                kforecast_core::forecast::Claim::Same => same += 1,
            }
            if f.is_regression(args.threshold) {
                regressions += 1;
            }
            if args.json {
                let mut v = forecast_json(f, args.threshold);
                v["file"] = job.path.display().to_string().into();
                v["line"] = line.into();
                v["kernel"] = report.name.clone().into();
                v["baseline"] = label.clone().into();
                super::out(v.to_string());
            } else {
                let (word, note) = severity(f, args.threshold);
                super::out(format!(
                    "{location}: {word}: `{}` {} (confidence {:.0}%){note}",
                    report.name,
                    f.versus(&label),
                    f.confidence * 100.0
                ));
                if f.identical {
                    super::out("    = same kernel: only comments, whitespace or local names changed");
                    continue;
                }
                super::out(format!("    = bins: {}", bins_line(f)));
                for r in f.reasons.iter().take(3) {
                    super::out(format!("    = {r}"));
                }
            }
        }
    }
    analyzer.cache().flush();
    if !args.json {
        let plural = if changed == 1 { "" } else { "s" };
        eprintln!(
            "kforecast: {changed} changed kernel{plural}: {faster} faster, {slower} slower, {same} about the same; {unsure} unsure (< {:.0}% confident), {regressions} confident regression{}",
            args.threshold * 100.0,
            if regressions == 1 { "" } else { "s" }
        );
    }
    if errors > 0 {
        return Ok(ExitCode::from(2));
    }
    if args.deny_regressions && regressions > 0 {
        return Ok(ExitCode::from(1));
    }
    Ok(ExitCode::SUCCESS)
}

fn baseline_for(job: &Job, language: Language) -> anyhow::Result<(String, LoadedFile)> {
    match &job.base {
        Base::File(path) => {
            if !path.exists() {
                bail!("{} does not exist", path.display());
            }
            Ok((path.display().to_string(), load(path)?))
        }
        Base::Rev(rev) => {
            let text = baseline::git_show(&job.path, rev)?;
            Ok((rev.clone(), from_text(&job.path, language, text)))
        }
    }
}

/// Source files under `dir`, sorted, skipping hidden and build folders and the baseline folder.
fn collect(dir: &Path, skip: Option<&Path>, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    let mut entries: Vec<PathBuf> = entries.filter_map(Result::ok).map(|e| e.path()).collect();
    entries.sort();
    for path in entries {
        let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        if path.is_dir() {
            let skipped = name.starts_with('.')
                || matches!(name.as_str(), "target" | "node_modules" | "build" | "__pycache__")
                || skip.is_some_and(|s| same_path(s, &path));
            if !skipped {
                collect(&path, skip, out);
            }
        } else if match Language::from_path(&path) {
            Some(Language::Cuda) => true,
            // Python files with Triton kernels or CUDA strings (`load_inline`, CuPy).
            Some(Language::Triton) => std::fs::read(&path).is_ok_and(|b| {
                std::iter::once("triton")
                    .chain(extract::EMBEDDED_CUDA_MARKERS)
                    .any(|m| b.windows(m.len()).any(|w| w == m.as_bytes()))
            }),
            None => false,
        } {
            out.push(path);
        }
    }
}

fn same_path(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(x), Ok(y)) => x == y,
        _ => a == b,
    }
}
