//! `kforecast eval --set SET`: the forecaster on whole programs by other authors, as a
//! user meets them (`kforecast forecast BASE CANDIDATE`): kernels paired across versions
//! by name or role, sizes assumed where the code does not give them. A set is a folder
//! with `families.json` and measured pairs (`measurements/*.jsonl`, or `--measurements`);
//! each split of a set is reported on its own, never pooled with the training corpus.

use super::{analyzer, analyzer_of, load_program, CacheOptions};
use anyhow::{bail, Context};
use kforecast_core::analysis::Analyzer;
use kforecast_core::eval::{metrics, per_family, selective, Metrics, Sample};
use kforecast_core::forecast::{forecast_program, Forecaster, PairingDoubt};
use serde::Serialize;
use serde_json::Value;
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// One measured pair of a set.
#[derive(Clone, Debug)]
pub struct SetPair {
    pub family: String,
    pub split: String,
    pub base: String,
    pub candidate: String,
    pub speedup: f64,
}

/// A set's measured pairs and where they came from.
pub struct EvalSet {
    pub root: PathBuf,
    pub files: Vec<PathBuf>,
    pub device: String,
    pub pairs: Vec<SetPair>,
    /// Versions that failed their measurement (wrong, or did not build).
    pub failed_versions: usize,
}

/// Reads a set: its families' splits and every measured pair.
pub fn load_set(root: &Path, measurements: Option<&Path>) -> anyhow::Result<EvalSet> {
    let path = root.join("families.json");
    let text = std::fs::read_to_string(&path).with_context(|| format!("cannot read {}", path.display()))?;
    let families: Vec<Value> =
        serde_json::from_str(&text).with_context(|| format!("{} is not a JSON list", path.display()))?;
    let splits: HashMap<String, String> = families
        .iter()
        .filter_map(|f| Some((f["family"].as_str()?.to_string(), f["split"].as_str().unwrap_or("all").to_string())))
        .collect();
    let files: Vec<PathBuf> = match measurements {
        Some(m) => vec![m.to_path_buf()],
        None => {
            let dir = root.join("measurements");
            let mut v: Vec<PathBuf> = std::fs::read_dir(&dir)
                .with_context(|| format!("{}: no measurements folder (or give --measurements FILE)", dir.display()))?
                .filter_map(Result::ok)
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|e| e == "jsonl"))
                .collect();
            v.sort();
            v
        }
    };
    if files.is_empty() {
        bail!("{}: no measured pairs (measurements/*.jsonl)", root.display());
    }
    let mut set = EvalSet {
        root: root.to_path_buf(),
        files: files.clone(),
        device: String::new(),
        pairs: Vec::new(),
        failed_versions: 0,
    };
    for file in &files {
        let text = std::fs::read_to_string(file).with_context(|| format!("cannot read {}", file.display()))?;
        for (i, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
            let v: Value =
                serde_json::from_str(line).with_context(|| format!("{}:{}: not JSON", file.display(), i + 1))?;
            if v["ok"].as_bool() != Some(true) {
                set.failed_versions += 1;
                continue;
            }
            let field = |k: &str| v[k].as_str().map(str::to_string);
            let (Some(family), Some(base), Some(candidate), Some(speedup)) =
                (field("family"), field("base"), field("candidate"), v["speedup"].as_f64())
            else {
                bail!("{}:{}: a measured pair needs family, base, candidate and speedup", file.display(), i + 1);
            };
            if !(speedup.is_finite() && speedup > 0.0) {
                continue;
            }
            if set.device.is_empty() {
                set.device = field("device").unwrap_or_default();
            }
            let split = splits.get(&family).cloned().unwrap_or_else(|| "all".to_string());
            set.pairs.push(SetPair { family, split, base, candidate, speedup });
        }
    }
    Ok(set)
}

/// Each version file `pairs` name, read and its kernels extracted once (an error says why
/// a version cannot be forecast: no kernel found, say).
pub fn load_versions<'a>(
    root: &Path,
    pairs: impl IntoIterator<Item = &'a SetPair>,
) -> HashMap<String, anyhow::Result<super::LoadedFile>> {
    let mut loaded = HashMap::new();
    for p in pairs {
        for path in [&p.base, &p.candidate] {
            loaded.entry(path.clone()).or_insert_with(|| load_program(&root.join(path)));
        }
    }
    loaded
}

/// What happened to each measured pair.
#[derive(Default, Serialize)]
pub struct Reading {
    /// Kernel pairs matched by name, by role, and kernels left unmatched (summed over pairs).
    pub kernels_by_name: usize,
    pub kernels_by_role: usize,
    pub kernels_unmatched: usize,
    /// Pairs forecast, and pairs refused with a message (no kernel found, say).
    pub forecast: usize,
    pub refused: usize,
    pub refusals: BTreeMap<String, usize>,
}

/// The scored pairs of one split and how the programs were read.
pub struct Scored {
    pub samples: Vec<Sample>,
    pub reading: Reading,
}

/// Forecasts every measured pair of `split` ("all": every split) as the CLI would.
pub fn score(set: &EvalSet, split: &str, doubt: &PairingDoubt, cache: &CacheOptions) -> Scored {
    score_with(set, split, doubt, analyzer(cache))
}

/// [`score`] with the forecasts of `analyzer`.
fn score_with(set: &EvalSet, split: &str, doubt: &PairingDoubt, analyzer: Analyzer) -> Scored {
    let in_split = |p: &&SetPair| split == "all" || p.split == split;
    let loaded = load_versions(&set.root, set.pairs.iter().filter(in_split));
    let mut reading = Reading::default();
    let mut samples = Vec::new();
    for p in set.pairs.iter().filter(in_split) {
        let (Some(Ok(b)), Some(Ok(c))) = (loaded.get(&p.base), loaded.get(&p.candidate)) else {
            reading.refused += 1;
            let why = [&p.base, &p.candidate]
                .iter()
                .find_map(|k| loaded.get(*k).and_then(|r| r.as_ref().err()).map(|e| refusal_kind(&format!("{e:#}"))))
                .unwrap_or_default();
            *reading.refusals.entry(why).or_insert(0) += 1;
            continue;
        };
        let (b, c) = super::compared(b, c);
        let pf = forecast_program(|x, y| analyzer.forecast(x, y), analyzer.forecaster(), doubt, &b.kernels, &c.kernels);
        let pf = super::program_around(pf, &b, &c);
        let (n, r, u) = pf.pairing.counts();
        reading.kernels_by_name += n;
        reading.kernels_by_role += r;
        reading.kernels_unmatched += u;
        reading.forecast += 1;
        samples.push(Sample {
            family: p.family.clone(),
            base: p.base.clone(),
            candidate: p.candidate.clone(),
            speedup: p.speedup,
            forecast: pf.forecast,
        });
    }
    analyzer.cache().flush();
    Scored { samples, reading }
}

/// "no __global__ kernel found" from "x.py: no __global__ kernel found".
fn refusal_kind(message: &str) -> String {
    message.rsplit(": ").next().unwrap_or(message).to_string()
}

/// The figures issue-level targets are stated in, at one deferral threshold.
#[derive(Debug, Default, Serialize)]
pub struct Honesty {
    pub threshold: f64,
    /// Share of pairs deferred to the GPU (confidence under the threshold).
    pub deferred: f64,
    /// Direction accuracy among kept forecasts of pairs with |log2 S| > 0.2.
    pub accuracy_kept_clear: f64,
    pub kept_clear_pairs: usize,
    /// Pairs forecast more than 4× off the measured speedup with confidence ≥ 0.9.
    pub off_4x_confident: usize,
    pub off_4x_confident_share: f64,
    /// "The longer file is faster", on pairs with |log2 S| > 0.2: the one-line heuristic.
    pub longer_is_faster: f64,
}

pub fn honesty(samples: &[Sample], threshold: f64, longer_faster: Option<f64>) -> Honesty {
    let kept: Vec<&Sample> = samples.iter().filter(|s| !s.forecast.defer(threshold)).collect();
    let kept_clear: Vec<&&Sample> = kept.iter().filter(|s| s.is_clear()).collect();
    let off = samples
        .iter()
        .filter(|s| s.forecast.confidence >= 0.9 && (s.forecast.speedup.log2() - s.speedup.log2()).abs() > 2.0)
        .count();
    let share = |a: usize, b: usize| if b > 0 { a as f64 / b as f64 } else { f64::NAN };
    Honesty {
        threshold,
        deferred: share(samples.len() - kept.len(), samples.len()),
        accuracy_kept_clear: share(kept_clear.iter().filter(|s| s.direction_right()).count(), kept_clear.len()),
        kept_clear_pairs: kept_clear.len(),
        off_4x_confident: off,
        off_4x_confident_share: share(off, samples.len()),
        longer_is_faster: longer_faster.unwrap_or(f64::NAN),
    }
}

/// Direction accuracy of "the longer file is the faster one" on clear pairs.
pub fn longer_is_faster(set: &EvalSet, samples: &[Sample]) -> Option<f64> {
    let len = |p: &str| std::fs::metadata(set.root.join(p)).ok().map(|m| m.len());
    let clear: Vec<&Sample> = samples.iter().filter(|s| s.is_clear()).collect();
    let right = clear
        .iter()
        .filter(|s| match (len(&s.base), len(&s.candidate)) {
            (Some(b), Some(c)) => (c > b) == (s.speedup > 1.0),
            _ => false,
        })
        .count();
    (!clear.is_empty()).then(|| right as f64 / clear.len() as f64)
}

/// Prints one split's report.
pub fn print_report(
    set: &EvalSet,
    split: &str,
    scored: &Scored,
    m: &Metrics,
    h: &Honesty,
    forecaster: &str,
    families: bool,
) {
    let out = super::out;
    let r = &scored.reading;
    out(format!(
        "kforecast eval --set {}: split `{split}`, {forecaster}; measured on {} ({})",
        set.root.display(),
        if set.device.is_empty() { "an unnamed device" } else { &set.device },
        set.files.iter().map(|f| f.display().to_string()).collect::<Vec<_>>().join(" + ")
    ));
    out(format!(
        "  programs: {} pairs forecast, {} refused{}; kernels paired by name {}, by role {}, unmatched {}",
        r.forecast,
        r.refused,
        if r.refusals.is_empty() {
            String::new()
        } else {
            format!(" ({})", r.refusals.iter().map(|(k, n)| format!("{n}× {k}")).collect::<Vec<_>>().join(", "))
        },
        r.kernels_by_name,
        r.kernels_by_role,
        r.kernels_unmatched
    ));
    out(format!(
        "  direction, |log2 S| > 0.2              {:>6.1}%   ({} pairs of {}; target ≥ 80%)",
        m.direction_accuracy_clear * 100.0,
        m.clear_pairs,
        m.pairs
    ));
    out(format!(
        "  accuracy among kept (not deferred)     {:>6.1}%   ({} clear pairs kept at confidence ≥ {:.2}; target ≥ 90%)",
        h.accuracy_kept_clear * 100.0,
        h.kept_clear_pairs,
        h.threshold
    ));
    out(format!("  deferred to the GPU                    {:>6.1}%   (target ≤ 40%)", h.deferred * 100.0));
    out(format!("  ECE, most likely bin                   {:>7.3}   (target ≤ 0.08)", m.ece_bin));
    out(format!(
        "    a calibrated forecaster on {} pairs  {:>7.3}   (95th percentile {:.3}: sampling noise)",
        m.pairs, m.ece_bin_floor, m.ece_bin_floor_p95
    ));
    out(format!("  ECE, the hint's claim                  {:>7.3}", m.ece_claim));
    out(format!("  AURC (claim risk vs coverage)          {:>7.3}", m.aurc));
    out(format!("  top-10% recovery (best found / best)   {:>7.3}", m.top10_recovery));
    out(format!("  log score                              {:>7.3}", m.log_score));
    out(format!(
        "  > 4× off at confidence ≥ 0.9           {:>6} ({:.1}% of pairs; target ≤ 5%)",
        h.off_4x_confident,
        h.off_4x_confident_share * 100.0
    ));
    out(format!("  \"the longer file is faster\"            {:>6.1}%", h.longer_is_faster * 100.0));
    if !families {
        return;
    }
    out("  per family: clear pairs right / clear; of those kept, right / kept (worst direction first)".to_string());
    // The same per-family scores as `eval CORPUS --per-family`, once over every pair and once
    // over the kept ones.
    let kept: Vec<Sample> = scored.samples.iter().filter(|s| !s.forecast.defer(h.threshold)).cloned().collect();
    let kept: HashMap<String, (usize, usize)> =
        per_family(&kept).into_iter().map(|f| (f.family, (f.clear_right, f.clear_pairs))).collect();
    for f in per_family(&scored.samples) {
        let (kept_right, kept) = kept.get(&f.family).copied().unwrap_or_default();
        out(format!("    {:<40} {:>4}/{:<4} kept {kept_right:>3}/{kept}", f.family, f.clear_right, f.clear_pairs));
    }
}

/// What a report shows: forecasts under `threshold` are deferred; `per_family` adds a line
/// per family.
#[derive(Clone, Copy, Debug)]
pub struct Report {
    pub threshold: f64,
    pub per_family: bool,
}

/// Runs `eval --set` over each split of the set (or the one asked for).
pub fn run(
    root: &Path,
    measurements: Option<&Path>,
    split: Option<&str>,
    report: Report,
    json: Option<&Path>,
    forecaster: Option<Arc<dyn Forecaster>>,
    cache: &CacheOptions,
) -> anyhow::Result<()> {
    let set = load_set(root, measurements)?;
    let mut splits: Vec<String> = set.pairs.iter().map(|p| p.split.clone()).collect();
    splits.sort();
    splits.dedup();
    if let Some(s) = split {
        if s != "all" && !splits.iter().any(|x| x == s) {
            bail!("{}: no split `{s}` (splits: {})", root.display(), splits.join(", "));
        }
        splits = vec![s.to_string()];
    }
    let doubt = PairingDoubt::shipped();
    let mut reports = Vec::new();
    for split in &splits {
        let scored = match &forecaster {
            Some(f) => score_with(&set, split, &doubt, analyzer_of(cache, f.clone())),
            None => score(&set, split, &doubt, cache),
        };
        let m = metrics(&scored.samples);
        let h = honesty(&scored.samples, report.threshold, longer_is_faster(&set, &scored.samples));
        let id = scored.samples.first().map(|s| s.forecast.forecaster.clone()).unwrap_or_default();
        print_report(&set, split, &scored, &m, &h, &id, report.per_family);
        let rows: Vec<Value> = scored.samples.iter().map(super::eval::sample_row).collect();
        reports.push(serde_json::json!({"split": split, "metrics": m, "honesty": h, "reading": scored.reading,
            "selective": selective(&scored.samples, &[0.0, 0.5, 0.6, 0.7, 0.8, 0.9]), "samples": rows}));
    }
    if let Some(out) = json {
        let report =
            serde_json::json!({"set": root, "measurements": set.files, "device": set.device, "splits": reports});
        std::fs::write(out, serde_json::to_vec_pretty(&report)?)
            .with_context(|| format!("cannot write {}", out.display()))?;
    }
    Ok(())
}
