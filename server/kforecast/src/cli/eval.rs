//! `kforecast eval CORPUS`: the forecaster scored on measured pairs, like the paper.

use super::load_with_kernels;
use anyhow::{bail, Context};
use clap::Args;
use kforecast_core::eval::{metrics, Metrics, Sample};
use kforecast_core::forecast::{EmbeddedForecaster, Forecaster};
use kforecast_core::kernel::Kernel;
use serde_json::Value;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(Args)]
pub struct EvalArgs {
    /// The corpus folder (with families.json and measurements/).
    corpus: PathBuf,
    /// Measurements to score against (default: the newest measurements/*.jsonl).
    #[arg(long, value_name = "FILE")]
    measurements: Option<PathBuf>,
    /// Which families: heldout (default), train, or all.
    #[arg(long, default_value = "heldout")]
    split: String,
    /// Also write the metrics as JSON here.
    #[arg(long, value_name = "FILE")]
    json: Option<PathBuf>,
}

fn newest(dir: &Path) -> Option<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .ok()?
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "jsonl"))
        .collect();
    files.sort();
    files.pop()
}

pub fn run(args: EvalArgs) -> anyhow::Result<ExitCode> {
    if !["heldout", "train", "all"].contains(&args.split.as_str()) {
        bail!("--split must be heldout, train or all");
    }
    let file = match &args.measurements {
        Some(f) => f.clone(),
        None => newest(&args.corpus.join("measurements"))
            .with_context(|| format!("no measurements/*.jsonl in {}", args.corpus.display()))?,
    };
    let root = args.corpus.parent().unwrap_or(Path::new(".")).to_path_buf();
    let text = std::fs::read_to_string(&file).with_context(|| format!("cannot read {}", file.display()))?;
    let forecaster = EmbeddedForecaster::new();
    let mut kernels: HashMap<String, Vec<Kernel>> = HashMap::new();
    let mut load = |p: &str| -> anyhow::Result<Vec<Kernel>> {
        if let Some(k) = kernels.get(p) {
            return Ok(k.clone());
        }
        let path = root.join(p);
        let k = load_with_kernels(&path)?.kernels;
        kernels.insert(p.to_string(), k.clone());
        Ok(k)
    };
    let (mut samples, mut skipped) = (Vec::new(), 0);
    for (i, line) in text.lines().enumerate() {
        let Ok(row) = serde_json::from_str::<Value>(line) else {
            eprintln!("warning: {}:{}: not JSON", file.display(), i + 1);
            continue;
        };
        let split = row["split"].as_str().unwrap_or("train");
        if args.split != "all" && split != args.split {
            continue;
        }
        let r = &row["result"];
        let (Some("ok"), Some(s)) = (r["status"].as_str(), r["speedup"].as_f64()) else {
            skipped += 1;
            continue;
        };
        let (Some(base), Some(cand), Some(kernel)) =
            (row["base"].as_str(), row["candidate"].as_str(), row["kernel"].as_str())
        else {
            continue;
        };
        let (bk, ck) = (load(base)?, load(cand)?);
        let (Some(b), Some(c)) = (bk.iter().find(|k| k.name == kernel), ck.iter().find(|k| k.name == kernel)) else {
            continue;
        };
        samples.push(Sample {
            family: format!("{}/{}", row["language"].as_str().unwrap_or(""), row["family"].as_str().unwrap_or("")),
            base: base.to_string(),
            candidate: cand.to_string(),
            speedup: s,
            forecast: forecaster.forecast(b, c),
        });
    }
    let m = metrics(&samples);
    print_table(&m, &args.split, &file, forecaster.id(), skipped);
    if let Some(out) = &args.json {
        let v =
            serde_json::json!({"split": args.split, "measurements": file, "forecaster": forecaster.id(), "metrics": m});
        std::fs::write(out, serde_json::to_vec_pretty(&v)?)
            .with_context(|| format!("cannot write {}", out.display()))?;
    }
    Ok(ExitCode::SUCCESS)
}

fn print_table(m: &Metrics, split: &str, file: &Path, forecaster: &str, skipped: usize) {
    let out = super::out;
    out(format!("kforecast eval: {forecaster} on the {split} split of {} ({} pairs, {} families; {skipped} unmeasured pairs skipped)", file.display(), m.pairs, m.families));
    out(format!("  direction accuracy, all pairs          {:>6.1}%", m.direction_accuracy * 100.0));
    out(format!(
        "  direction accuracy, |log2 S| > 0.2     {:>6.1}%   ({} pairs; target ≥ 85%)",
        m.direction_accuracy_clear * 100.0,
        m.clear_pairs
    ));
    out(format!("  8-bin accuracy                         {:>6.1}%", m.bin_accuracy * 100.0));
    out(format!("  Brier score (sum over bins)            {:>7.3}", m.brier));
    out(format!("  CRPS (ranked, 7 edges)                 {:>7.3}", m.crps));
    out(format!("  ECE, most likely bin                   {:>7.3}   (target ≤ 0.05)", m.ece_bin));
    out(format!("  ECE, the hint's claim                  {:>7.3}", m.ece_claim));
    out(format!("  claim accuracy                         {:>6.1}%", m.claim_accuracy * 100.0));
    out(format!("  AURC (claim risk vs coverage)          {:>7.3}", m.aurc));
    let rc: Vec<String> = m.risk_coverage.iter().map(|(c, r)| format!("{:.0}%→{:.2}", c * 100.0, r)).collect();
    out(format!("  risk at coverage                       {}", rc.join("  ")));
    out(format!(
        "  top-10% recovery (best found / best)   {:>7.3}   ({:.0}% of families within 10%; target: within 10%)",
        m.top10_recovery,
        m.top10_within_10pct * 100.0
    ));
}
