//! `kforecast forecast BASE CANDIDATE` and `kforecast forecast --pairs FILE.jsonl`.

use super::check::parse_threshold;
use super::output::{bins_line, forecast_json, severity};
use super::{analyzer, load_program, CacheOptions};
use crate::llm::{LlmArgs, LlmForecaster};
use anyhow::{bail, Context};
use clap::Args;
use kforecast_core::analysis::Analyzer;
use kforecast_core::forecast::llm_prompt::PairContext;
use kforecast_core::forecast::{forecast_program, Forecast, PairingDoubt};
use kforecast_core::kernel::Kernel;
use serde::Deserialize;
use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(Args)]
pub struct ForecastArgs {
    /// The reference version.
    #[arg(value_name = "BASE", required_unless_present = "pairs", conflicts_with = "pairs")]
    base: Option<PathBuf>,
    /// The candidate version.
    #[arg(value_name = "CANDIDATE", required_unless_present = "pairs")]
    candidate: Option<PathBuf>,
    /// Compare only this kernel (default: all kernels of the files as one unit).
    #[arg(long, value_name = "NAME")]
    kernel: Option<String>,
    /// Print JSON instead of text.
    #[arg(long)]
    json: bool,
    /// Read `{"base": PATH, "candidate": PATH}` lines (paths relative to the file) and
    /// write one JSON result per line.
    #[arg(long, value_name = "FILE.jsonl")]
    pairs: Option<PathBuf>,
    /// Confidence (0–1) under which a forecast is deferred.
    #[arg(long, default_value_t = 0.7, value_parser = parse_threshold)]
    threshold: f64,
    #[command(flatten)]
    llm: LlmArgs,
}

#[derive(Deserialize)]
struct PairLine {
    base: PathBuf,
    candidate: PathBuf,
    #[serde(default)]
    kernel: Option<String>,
}

pub fn run(args: ForecastArgs, cache: &CacheOptions) -> anyhow::Result<ExitCode> {
    let analyzer = analyzer(cache);
    let llm = args.llm.forecaster(analyzer.cache_arc())?;
    let analyzer = (&analyzer, llm.as_ref());
    if let Some(pairs) = &args.pairs {
        let code = run_pairs(analyzer, pairs, args.threshold)?;
        analyzer.0.cache().flush();
        return Ok(code);
    }
    let (Some(base), Some(candidate)) = (&args.base, &args.candidate) else {
        bail!("give BASE and CANDIDATE files, or --pairs FILE.jsonl");
    };
    let f = forecast_files(analyzer, base, candidate, args.kernel.as_deref())?;
    analyzer.0.cache().flush();
    if args.json {
        let mut v = forecast_json(&f, args.threshold);
        v["base"] = base.display().to_string().into();
        v["candidate"] = candidate.display().to_string().into();
        if let Some(k) = &args.kernel {
            v["kernel"] = k.clone().into();
        }
        super::out(v.to_string());
    } else {
        let (word, note) = severity(&f, args.threshold);
        let what = args.kernel.as_ref().map(|k| format!("`{k}` ")).unwrap_or_default();
        super::out(format!(
            "{}: {word}: {what}{} (confidence {:.0}%){note}",
            candidate.display(),
            f.versus(&base.display().to_string()),
            f.confidence * 100.0
        ));
        super::out(format!("    = bins: {}", bins_line(&f)));
        for r in &f.reasons {
            super::out(format!("    = {r}"));
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// The embedded forecaster through its cache, and the LLM surrogate if one is configured.
type Forecasters<'a> = (&'a Analyzer, Option<&'a LlmForecaster>);

fn forecast_files(
    (analyzer, llm): Forecasters,
    base: &Path,
    candidate: &Path,
    kernel: Option<&str>,
) -> anyhow::Result<Forecast> {
    let (b, c) = (load_program(base)?, load_program(candidate)?);
    let (b, c) = super::compared(&b, &c);
    if let Some(name) = kernel {
        let find = |file: &super::LoadedFile| {
            file.kernels.iter().find(|k| k.name == name).cloned().with_context(|| {
                let names: Vec<_> = file.kernels.iter().map(|k| k.name.as_str()).collect();
                format!("{}: no kernel named `{name}` (kernels: {})", file.path.display(), names.join(", "))
            })
        };
        let (bk, ck) = (find(&b)?, find(&c)?);
        let f = analyzer.forecast(&bk, &ck);
        return Ok(match llm {
            Some(llm) => llm.ensemble(f, &PairContext::new(&bk, &b.text, &ck, &c.text, analyzer.device())),
            None => f,
        });
    }
    let doubt = PairingDoubt::shipped();
    let Some(llm) = llm else {
        let f = |x: &Kernel, y: &Kernel| analyzer.forecast(x, y);
        let pf = forecast_program(f, analyzer.forecaster(), &doubt, &b.kernels, &c.kernels);
        return Ok(super::program_around(pf, &b, &c).forecast);
    };
    // Every kernel pair's LLM forecast at once; the unit is then built from the ensembles.
    let pairs: Vec<_> = b
        .kernels
        .iter()
        .filter_map(|x| c.kernels.iter().find(|y| y.name == x.name).map(|y| (x, y)))
        .map(|(x, y)| (analyzer.forecast(x, y), PairContext::new(x, &b.text, y, &c.text, analyzer.device())))
        .collect();
    let keys = pairs.iter().map(|(_, ctx)| (ctx.base.identity(), ctx.candidate.identity()));
    let ensembles: std::collections::HashMap<_, _> = keys.zip(llm.ensemble_pairs(&pairs)).collect();
    let forecast = |x: &Kernel, y: &Kernel| {
        ensembles.get(&(x.identity(), y.identity())).cloned().unwrap_or_else(|| analyzer.forecast(x, y))
    };
    let pf = forecast_program(forecast, analyzer.forecaster(), &doubt, &b.kernels, &c.kernels);
    Ok(super::program_around(pf, &b, &c).forecast)
}

fn run_pairs(analyzer: Forecasters, pairs: &Path, threshold: f64) -> anyhow::Result<ExitCode> {
    let file = std::fs::File::open(pairs).with_context(|| format!("cannot read {}", pairs.display()))?;
    let root = pairs.parent().unwrap_or(Path::new("."));
    let resolve = |p: &Path| if p.is_absolute() { p.to_path_buf() } else { root.join(p) };
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let mut errors = 0;
    for (i, line) in std::io::BufReader::new(file).lines().enumerate() {
        let lineno = i + 1;
        let line = match line {
            Ok(l) => l,
            Err(e) => {
                eprintln!("error: {}:{lineno}: {e}", pairs.display());
                errors += 1;
                continue;
            }
        };
        if line.trim().is_empty() {
            continue;
        }
        let result = serde_json::from_str::<PairLine>(&line)
            .map_err(|e| {
                anyhow::anyhow!("{}:{lineno}: expected {{\"base\": PATH, \"candidate\": PATH}}: {e}", pairs.display())
            })
            .and_then(|p| {
                let f = forecast_files(analyzer, &resolve(&p.base), &resolve(&p.candidate), p.kernel.as_deref())
                    .map_err(|e| anyhow::anyhow!("{}:{lineno}: {e:#}", pairs.display()))?;
                let mut v = forecast_json(&f, threshold);
                v["base"] = p.base.display().to_string().into();
                v["candidate"] = p.candidate.display().to_string().into();
                Ok(v)
            });
        let v = match result {
            Ok(v) => v,
            Err(e) => {
                eprintln!("error: {e:#}");
                errors += 1;
                serde_json::json!({"line": lineno, "error": format!("{e:#}")})
            }
        };
        writeln!(out, "{v}")?;
    }
    Ok(if errors > 0 { ExitCode::from(2) } else { ExitCode::SUCCESS })
}
