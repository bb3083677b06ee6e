//! `kforecast eval CORPUS`: a forecaster scored on measured pairs, like the paper.

use super::corpus::{self, Pair};
use anyhow::{bail, Context};
use clap::Args;
use kforecast_core::eval::{metrics, per_family, selective, FamilyScore, Metrics, Sample, SelectivePoint};
use kforecast_core::forecast::{EmbeddedForecaster, Forecast, Forecaster, Model, TrainedForecaster};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

#[derive(Args)]
pub struct EvalArgs {
    /// The corpus folder (with families.json and measurements/).
    #[arg(required_unless_present_any = ["set", "fit_doubt"])]
    corpus: Option<PathBuf>,
    /// Score whole programs of an evaluation set (a folder with families.json and
    /// measurements/*.jsonl of programs by other authors) as `kforecast forecast` reads
    /// them; each split of the set is reported on its own.
    #[arg(long, value_name = "SET", conflicts_with = "corpus")]
    set: Option<PathBuf>,
    /// Fit the doubt guessed pairings, whole-program forecasts and features outside the
    /// training range deserve on these calibration sets (`SET` or `SET:SPLIT`, repeated;
    /// never a set you report on), each weighing the same, and write it over
    /// `server/core/model/doubt.json` and the doubt in `server/core/model/h100-coverage.json`.
    /// `…@MODEL` forecasts a set with other weights: those of trees trained without it,
    /// for a set the shipped trees learned from.
    #[arg(long, value_name = "SET[:SPLIT][@MODEL]", conflicts_with_all = ["set", "corpus", "model"])]
    fit_doubt: Vec<String>,
    /// With --set: the confidence under which a forecast is deferred to the GPU.
    #[arg(long, default_value_t = 0.7, value_parser = super::check::parse_threshold)]
    threshold: f64,
    /// Measurements to score against (default: every measurements/*.jsonl).
    #[arg(long, value_name = "FILE")]
    measurements: Option<PathBuf>,
    /// Which families: heldout (default), train, or all (with --set: one of the set's
    /// splits, default each in turn).
    #[arg(long)]
    split: Option<String>,
    /// Which forecaster: trained (the shipped weights, default) or analytic (the
    /// untrained roofline model).
    #[arg(long, default_value = "trained")]
    forecaster: String,
    /// Score these weights instead of the shipped ones (from `kforecast train --out`).
    #[arg(long, value_name = "FILE")]
    model: Option<PathBuf>,
    /// Also write the metrics as JSON here.
    #[arg(long, value_name = "FILE")]
    json: Option<PathBuf>,
    /// Write every measured pair with both profiles here (JSON lines), for analysis.
    #[arg(long, value_name = "FILE")]
    dump: Option<PathBuf>,
    /// Also print each family's direction accuracy and log score, worst first (with
    /// `--set`: each family's clear pairs right, and of those kept, right).
    #[arg(long)]
    per_family: bool,
}

/// Weights from `kforecast train --out`, checked against this build's features.
pub(super) fn read_model(path: &Path) -> anyhow::Result<Arc<Model>> {
    let text = std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    let model = Model::from_json(&text).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
    Ok(Arc::new(model))
}

/// Confidence thresholds shown in the deferral trade-off.
const THRESHOLDS: [f64; 8] = [0.0, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 0.99];

pub fn run(args: EvalArgs, cache: &super::CacheOptions) -> anyhow::Result<ExitCode> {
    if !args.fit_doubt.is_empty() {
        let sets = args
            .fit_doubt
            .iter()
            .map(|spec| super::fit_doubt::CalibrationSet::load(spec, args.measurements.as_deref()))
            .collect::<anyhow::Result<Vec<_>>>()?;
        let model = Path::new("server/core/model");
        super::fit_doubt::run(&sets, &model.join("doubt.json"), &model.join("h100-coverage.json"))?;
        return Ok(ExitCode::SUCCESS);
    }
    if let Some(set) = &args.set {
        let forecaster: Option<Arc<dyn Forecaster>> = match (args.forecaster.as_str(), &args.model) {
            ("trained", None) => None,
            ("trained", Some(path)) => Some(Arc::new(TrainedForecaster::new(read_model(path)?))),
            ("analytic", None) => Some(Arc::new(EmbeddedForecaster::new())),
            ("analytic", Some(_)) => bail!("--model goes with --forecaster trained"),
            (other, _) => bail!("--forecaster must be trained or analytic, not `{other}`"),
        };
        super::evalset::run(
            set,
            args.measurements.as_deref(),
            args.split.as_deref(),
            super::evalset::Report { threshold: args.threshold, per_family: args.per_family },
            args.json.as_deref(),
            forecaster,
            cache,
        )?;
        return Ok(ExitCode::SUCCESS);
    }
    let Some(corpus_dir) = &args.corpus else { bail!("give a corpus folder or --set SET") };
    let split = args.split.clone().unwrap_or_else(|| "heldout".to_string());
    if !["heldout", "train", "all"].contains(&split.as_str()) {
        bail!("--split must be heldout, train or all");
    }
    let analytic = EmbeddedForecaster::new();
    let trained = match (args.forecaster.as_str(), &args.model) {
        ("analytic", None) => None,
        ("analytic", Some(_)) => bail!("--model goes with --forecaster trained"),
        ("trained", None) => Some(TrainedForecaster::shipped().map_err(anyhow::Error::msg)?),
        ("trained", Some(path)) => Some(TrainedForecaster::new(read_model(path)?)),
        (other, _) => bail!("--forecaster must be trained or analytic, not `{other}`"),
    };
    let corpus = corpus::load(corpus_dir, args.measurements.as_deref(), &analytic)?;
    if let Some(path) = &args.dump {
        dump(&corpus.pairs, path)?;
    }
    let id = trained.as_ref().map(|t| t.id().to_string()).unwrap_or_else(|| analytic.id().to_string());
    let forecast = |p: &Pair| -> Forecast {
        match (&trained, p.identical) {
            (_, true) => Forecast::same_kernel(&id),
            (Some(t), false) => t.forecast_profiles(&p.profiles.0, &p.profiles.1),
            (None, false) => analytic.forecast_profiles(&p.profiles.0, &p.profiles.1),
        }
    };
    let samples: Vec<Sample> = corpus
        .pairs
        .iter()
        .filter(|p| split == "all" || p.split == split)
        .map(|p| Sample {
            family: p.family.clone(),
            base: p.base.clone(),
            candidate: p.candidate.clone(),
            speedup: p.speedup,
            forecast: forecast(p),
        })
        .collect();
    let m = metrics(&samples);
    let trade_off = selective(&samples, &THRESHOLDS);
    print_table(&m, &split, &corpus.describe(), &id, corpus.unmeasured_in(&split));
    print_trade_off(&trade_off);
    if args.per_family {
        print_families(&per_family(&samples));
    }
    if let Some(out) = &args.json {
        let rows: Vec<_> = samples.iter().map(sample_row).collect();
        let report = serde_json::json!({"split": split, "measurements": corpus.files, "forecaster": id,
            "metrics": m, "selective": trade_off, "samples": rows});
        std::fs::write(out, serde_json::to_vec_pretty(&report)?)
            .with_context(|| format!("cannot write {}", out.display()))?;
    }
    Ok(ExitCode::SUCCESS)
}

/// One scored pair as JSON: family, versions, measured speedup and the forecast.
pub fn sample_row(s: &Sample) -> serde_json::Value {
    serde_json::json!({"family": s.family, "base": s.base, "candidate": s.candidate,
        "speedup": s.speedup, "forecast": s.forecast})
}

fn dump(pairs: &[Pair], path: &Path) -> anyhow::Result<()> {
    let mut text = String::new();
    for p in pairs {
        let row = serde_json::json!({"family": p.family, "split": p.split, "base": p.base, "candidate": p.candidate,
            "speedup": p.speedup, "identical": p.identical, "base_profile": *p.profiles.0,
            "candidate_profile": *p.profiles.1});
        text.push_str(&row.to_string());
        text.push('\n');
    }
    std::fs::write(path, text).with_context(|| format!("cannot write {}", path.display()))
}

fn print_table(m: &Metrics, split: &str, files: &str, forecaster: &str, skipped: usize) {
    let out = super::out;
    out(format!("kforecast eval: {forecaster} on the {split} split of {files} ({} pairs, {} families; {skipped} unmeasured pairs skipped)", m.pairs, m.families));
    out(format!("  direction accuracy, all pairs          {:>6.1}%", m.direction_accuracy * 100.0));
    out(format!(
        "  direction accuracy, |log2 S| > 0.2     {:>6.1}%   ({} pairs; target ≥ 85%)",
        m.direction_accuracy_clear * 100.0,
        m.clear_pairs
    ));
    out(format!("  8-bin accuracy                         {:>6.1}%", m.bin_accuracy * 100.0));
    out(format!("  Brier score (sum over bins)            {:>7.3}", m.brier));
    out(format!("  CRPS (ranked, 7 edges)                 {:>7.3}", m.crps));
    out(format!("  log score (−ln p of the measured bin)  {:>7.3}", m.log_score));
    out(format!("  ECE, most likely bin                   {:>7.3}   (target ≤ 0.05)", m.ece_bin));
    out(format!(
        "    a calibrated forecaster on {} pairs  {:>7.3}   (95th percentile {:.3}: sampling noise)",
        m.pairs, m.ece_bin_floor, m.ece_bin_floor_p95
    ));
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
    out(format!("    ranked by each version's mean forecast against every other {:>7.3}", m.top10_tournament));
    if let Some(iv) = &m.intervals {
        let (d, e, t) = (iv.direction_accuracy_clear, iv.ece_bin, iv.top10_recovery);
        out(format!(
            "  95% intervals over families (bootstrap): direction |log2 S| > 0.2 {:.1}–{:.1}%, ECE bin {:.3}–{:.3}, top-10% {:.3}–{:.3}",
            d.0 * 100.0,
            d.1 * 100.0,
            e.0,
            e.1,
            t.0,
            t.1
        ));
    }
}

fn print_trade_off(points: &[SelectivePoint]) {
    let out = |s: String| super::out(s);
    out("  deferral: forecasts under the threshold go to the GPU".into());
    out("    threshold  trusted  claim error  direction error (|log2 S| > 0.2)".into());
    for p in points {
        out(format!(
            "    {:>9.2}  {:>6.1}%  {:>10.1}%  {:>10.1}%",
            p.threshold,
            p.coverage * 100.0,
            p.claim_error * 100.0,
            p.direction_error_clear * 100.0
        ));
    }
}

/// Each family's direction (pairs with |log2 S| > 0.2) and log score, worst first.
pub fn print_families(families: &[FamilyScore]) {
    super::out("  by family (worst direction first): right / pairs with |log2 S| > 0.2, log score");
    for f in families {
        super::out(format!("    {:<32} {:>3} / {:<3} {:>6.3}", f.family, f.clear_right, f.clear_pairs, f.log_score));
    }
}
