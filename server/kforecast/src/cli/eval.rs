//! `kforecast eval CORPUS`: the forecaster scored on measured pairs, like the paper.

use super::load_with_kernels;
use anyhow::{bail, Context};
use clap::Args;
use kforecast_core::eval::{metrics, Metrics, Sample};
use kforecast_core::features::Profile;
use kforecast_core::forecast::{EmbeddedForecaster, Forecast, Forecaster, Params};
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
    /// Fit the model's damping and spreads on the train split (lowest mean CRPS), then
    /// score the fitted model on --split as well.
    #[arg(long)]
    fit: bool,
    /// With --fit: write the fitted parameters here (JSON).
    #[arg(long, value_name = "FILE", requires = "fit")]
    save: Option<PathBuf>,
    /// Write every measured pair with both profiles here (JSON lines), for analysis.
    #[arg(long, value_name = "FILE")]
    dump: Option<PathBuf>,
}

/// A measured pair with both versions' profiles, so the model can be re-run cheaply.
struct Pair {
    family: String,
    split: String,
    base: String,
    candidate: String,
    speedup: f64,
    identical: bool,
    profiles: (std::sync::Arc<Profile>, std::sync::Arc<Profile>),
}

fn samples(pairs: &[Pair], split: &str, forecaster: &EmbeddedForecaster, params: &Params) -> Vec<Sample> {
    pairs
        .iter()
        .filter(|p| split == "all" || p.split == split)
        .map(|p| {
            let forecast = if p.identical {
                Forecast::same_kernel(forecaster.id())
            } else {
                forecaster.forecast_profiles_with(params, &p.profiles.0, &p.profiles.1)
            };
            Sample {
                family: p.family.clone(),
                base: p.base.clone(),
                candidate: p.candidate.clone(),
                speedup: p.speedup,
                forecast,
            }
        })
        .collect()
}

/// Grid search of the parameters on `train` pairs for the lowest mean CRPS.
fn fit(pairs: &[Pair], forecaster: &EmbeddedForecaster) -> (Params, f64) {
    let mut best = (forecaster.params(), f64::INFINITY);
    for damping in [0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.85, 1.0] {
        for base_sigma in [0.1, 0.2, 0.3, 0.45, 0.6, 0.8] {
            for relative_sigma in [0.0, 0.15, 0.3, 0.5, 0.8] {
                for guess_sigma in [0.0, 0.05, 0.15] {
                    let p = Params {
                        damping,
                        base_sigma,
                        relative_sigma,
                        guess_sigma,
                        unseen_sigma: forecaster.params().unseen_sigma,
                    };
                    let crps = metrics(&samples(pairs, "train", forecaster, &p)).crps;
                    if crps < best.1 {
                        best = (p, crps);
                    }
                }
            }
        }
    }
    best
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
    let (mut pairs, mut skipped) = (Vec::new(), 0);
    for (i, line) in text.lines().enumerate() {
        let Ok(row) = serde_json::from_str::<Value>(line) else {
            eprintln!("warning: {}:{}: not JSON", file.display(), i + 1);
            continue;
        };
        let split = row["split"].as_str().unwrap_or("train").to_string();
        let r = &row["result"];
        let (Some("ok"), Some(s)) = (r["status"].as_str(), r["speedup"].as_f64()) else {
            if args.split == "all" || split == args.split {
                skipped += 1;
            }
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
        pairs.push(Pair {
            family: format!("{}/{}", row["language"].as_str().unwrap_or(""), row["family"].as_str().unwrap_or("")),
            split,
            base: base.to_string(),
            candidate: cand.to_string(),
            speedup: s,
            identical: b.identity() == c.identity(),
            profiles: (forecaster.profile(b), forecaster.profile(c)),
        });
    }
    if let Some(path) = &args.dump {
        let mut text = String::new();
        for p in &pairs {
            let row = serde_json::json!({"family": p.family, "split": p.split, "base": p.base, "candidate": p.candidate,
                "speedup": p.speedup, "identical": p.identical, "base_profile": *p.profiles.0, "candidate_profile": *p.profiles.1});
            text.push_str(&row.to_string());
            text.push('\n');
        }
        std::fs::write(path, text).with_context(|| format!("cannot write {}", path.display()))?;
    }
    let shipped = forecaster.params();
    let m = metrics(&samples(&pairs, &args.split, &forecaster, &shipped));
    print_table(&m, &args.split, &file, forecaster.id(), skipped);
    let mut report = serde_json::json!({"split": args.split, "measurements": file, "forecaster": forecaster.id(), "params": shipped, "metrics": m});
    if args.fit {
        let (p, train_crps) = fit(&pairs, &forecaster);
        super::out(format!(
            "fitted on the train split (mean CRPS {train_crps:.3}): damping {}, base_sigma {}, relative_sigma {}, guess_sigma {}",
            p.damping, p.base_sigma, p.relative_sigma, p.guess_sigma
        ));
        let fitted = metrics(&samples(&pairs, &args.split, &forecaster, &p));
        print_table(&fitted, &args.split, &file, &format!("{} (fitted)", forecaster.id()), skipped);
        report["fitted"] = serde_json::json!({"params": p, "metrics": fitted});
        if let Some(path) = &args.save {
            std::fs::write(path, serde_json::to_vec_pretty(&p)?)
                .with_context(|| format!("cannot write {}", path.display()))?;
        }
    }
    if let Some(out) = &args.json {
        std::fs::write(out, serde_json::to_vec_pretty(&report)?)
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
