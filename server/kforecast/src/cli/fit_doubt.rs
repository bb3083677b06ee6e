//! `kforecast eval --fit-doubt SET[:SPLIT][@MODEL] …`: how much doubt a guessed pairing, a
//! whole-program forecast (a PyTorch-only one more) and features outside the training range
//! deserve, fitted on code written in other styles than the training corpus (calibration
//! sets, never a set it is reported on). Coordinate descent over the doubt's parameters,
//! scored by the log score of the measured bin, the calibration error of the claim and the
//! bin, and the claim's risk–coverage (AURC): a doubt must also rank the right forecasts
//! above the wrong ones, not only widen every forecast alike. A set the shipped trees learned
//! from is forecast by trees trained without it (`@MODEL`, weights written by `kforecast
//! train --out`), so the doubt is fitted on forecasts of code the trees have not seen.

use super::evalset::SetPair;
use super::LoadedFile;
use anyhow::{bail, Context};
use kforecast_core::bins::bin_of;
use kforecast_core::eval::{ece, log_loss, risk_coverage};
use kforecast_core::forecast::novelty::Coverage;
use kforecast_core::forecast::{forecast_program, Claim, Forecast, Forecaster, PairingDoubt, TrainedForecaster};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// The parameters fitted, as one vector: the pairing doubt's five, the coverage's two, then
/// the torch programs' two.
fn to_vec(d: &PairingDoubt, c: &Coverage) -> Vec<f64> {
    vec![
        d.sigma,
        d.lost,
        d.program_sigma,
        d.program_lost,
        d.cap,
        c.sigma_per_feature,
        c.lost_per_feature,
        d.torch_sigma,
        d.torch_lost,
    ]
}

fn from_vec(v: &[f64], c: &Coverage) -> (PairingDoubt, Coverage) {
    let d = PairingDoubt {
        sigma: v[0],
        lost: v[1],
        program_sigma: v[2],
        program_lost: v[3],
        cap: v[4],
        torch_sigma: v[7],
        torch_lost: v[8],
    };
    let c = Coverage { sigma_per_feature: v[5], lost_per_feature: v[6], ..c.clone() };
    (d, c)
}

/// Values tried for each parameter.
const GRID: [&[f64]; 9] = [
    &[0.0, 0.25, 0.5, 1.0, 1.5, 2.0],
    &[0.0, 0.1, 0.25, 0.5, 0.75],
    &[0.0, 0.25, 0.5, 0.8, 1.2],
    &[0.0, 0.1, 0.2, 0.35, 0.5],
    // A guessed pairing never claims more than 95%, whatever the fit would like.
    &[0.7, 0.8, 0.9, 0.95],
    &[0.0, 0.1, 0.2, 0.35, 0.5],
    &[0.0, 0.02, 0.05, 0.1, 0.2],
    &[0.0, 0.25, 0.5, 0.8, 1.2],
    &[0.0, 0.1, 0.2, 0.35, 0.5],
];

/// The score minimised: log score + claim ECE + bin ECE + claim AURC (lower is better).
fn score(forecasts: &[(Forecast, f64)]) -> f64 {
    if forecasts.is_empty() {
        return f64::INFINITY;
    }
    let n = forecasts.len() as f64;
    let log = forecasts.iter().map(|(f, s)| log_loss(&f.bins, bin_of(*s))).sum::<f64>() / n;
    let claims: Vec<(f64, bool)> = forecasts
        .iter()
        .map(|(f, s)| {
            let holds = match f.claim {
                Claim::Faster => *s > 1.0,
                Claim::Slower => *s < 1.0,
                Claim::Same => s.log2().abs() < kforecast_core::forecast::SAME_BAND,
            };
            (f.confidence, holds)
        })
        .collect();
    let bins: Vec<(f64, bool)> =
        forecasts.iter().map(|(f, s)| (f.bins.0[f.bins.argmax()], f.bins.argmax() == bin_of(*s))).collect();
    log + ece(&claims) + ece(&bins) + risk_coverage(&claims).0
}

/// One calibration set: the readable pairs of a set (or of one split of it).
pub struct CalibrationSet {
    /// `SET`, `SET:SPLIT`, and either with `@MODEL`, as given.
    pub name: String,
    /// The weights that forecast it, where not the shipped ones.
    model: Option<PathBuf>,
    files: HashMap<String, LoadedFile>,
    pairs: Vec<SetPair>,
}

impl CalibrationSet {
    /// Reads `SET` or `SET:SPLIT` (a split the set has), with the pairs both of whose
    /// versions are read; `…@MODEL` forecasts it with the weights at MODEL.
    pub fn load(spec: &str, measurements: Option<&Path>) -> anyhow::Result<Self> {
        let (set_spec, model) = match spec.rsplit_once('@') {
            Some((set, model)) if !Path::new(spec).exists() => {
                anyhow::ensure!(Path::new(model).is_file(), "{spec}: no weights file `{model}`");
                (set, Some(PathBuf::from(model)))
            }
            _ => (spec, None),
        };
        let (files, pairs) = Self::read(set_spec, measurements)?;
        Ok(Self { name: spec.to_string(), model, files, pairs })
    }

    /// The versions read and the readable pairs of `SET` or `SET:SPLIT`.
    fn read(spec: &str, measurements: Option<&Path>) -> anyhow::Result<(HashMap<String, LoadedFile>, Vec<SetPair>)> {
        let (root, split) = match spec.rsplit_once(':') {
            Some((root, split)) if !Path::new(spec).exists() => (root, Some(split)),
            _ => (spec, None),
        };
        let set = super::evalset::load_set(Path::new(root), measurements)?;
        if let Some(split) = split {
            if !set.pairs.iter().any(|p| p.split == split) {
                let mut splits: Vec<&str> = set.pairs.iter().map(|p| p.split.as_str()).collect();
                splits.sort_unstable();
                splits.dedup();
                bail!("{root}: no split `{split}` (splits: {})", splits.join(", "));
            }
        }
        let in_split = |p: &&SetPair| split.is_none_or(|s| p.split == s);
        let files: HashMap<String, LoadedFile> =
            super::evalset::load_versions(&set.root, set.pairs.iter().filter(in_split))
                .into_iter()
                .filter_map(|(path, f)| Some((path, f.ok()?)))
                .collect();
        let pairs: Vec<SetPair> = set
            .pairs
            .iter()
            .filter(in_split)
            .filter(|p| files.contains_key(&p.base) && files.contains_key(&p.candidate))
            .cloned()
            .collect();
        anyhow::ensure!(!pairs.is_empty(), "{spec}: no readable measured pairs");
        Ok((files, pairs))
    }

    /// Each pair's forecast under `doubt` and the coverage's doubt, with its measured S.
    fn forecasts(&self, t: &TrainedForecaster, doubt: &PairingDoubt) -> Vec<(Forecast, f64)> {
        self.pairs
            .iter()
            .filter_map(|p| {
                let (b, c) = (self.files.get(&p.base)?, self.files.get(&p.candidate)?);
                let (b, c) = super::compared(b, c);
                let f = forecast_program(|x, y| t.forecast(x, y), t, doubt, &b.kernels, &c.kernels);
                let f = super::program_around(f, &b, &c);
                Some((f.forecast, p.speedup))
            })
            .collect()
    }
}

/// Fits the doubt on the calibration sets (the mean of their scores, so a large set does
/// not outweigh the styles of the others); writes the pairing doubt to `doubt_out` and the
/// coverage's doubt into `coverage_out` (its ranges kept).
pub fn run(sets: &[CalibrationSet], doubt_out: &Path, coverage_out: &Path) -> anyhow::Result<()> {
    anyhow::ensure!(!sets.is_empty(), "give at least one calibration set");
    let base_coverage = Coverage::shipped().context("the shipped coverage does not fit this build")?;
    // One forecaster of each weights for every doubt tried: each pair's profiles are read
    // once.
    let mut forecasters: HashMap<Option<PathBuf>, TrainedForecaster> = HashMap::new();
    for set in sets {
        if !forecasters.contains_key(&set.model) {
            let t = match &set.model {
                None => TrainedForecaster::shipped().map_err(anyhow::Error::msg)?,
                Some(path) => TrainedForecaster::new(super::eval::read_model(path)?),
            };
            forecasters.insert(set.model.clone(), t);
        }
    }
    let mut evaluate = |v: &[f64]| -> f64 {
        let (doubt, coverage) = from_vec(v, &base_coverage);
        for t in forecasters.values_mut() {
            t.set_coverage(Some(coverage.clone()));
        }
        // Every set's weights were loaded above.
        sets.iter().map(|s| score(&s.forecasts(&forecasters[&s.model], &doubt))).sum::<f64>() / sets.len() as f64
    };
    let mut best = to_vec(&PairingDoubt::shipped(), &base_coverage);
    let mut best_score = evaluate(&best);
    let start = best_score;
    for _sweep in 0..2 {
        for (i, values) in GRID.iter().enumerate() {
            for &value in values.iter() {
                let mut v = best.clone();
                v[i] = value;
                let s = evaluate(&v);
                if s < best_score - 1e-9 {
                    best_score = s;
                    best = v;
                }
            }
        }
    }
    let (doubt, coverage) = from_vec(&best, &base_coverage);
    std::fs::write(doubt_out, serde_json::to_string_pretty(&doubt)? + "\n")
        .with_context(|| format!("cannot write {}", doubt_out.display()))?;
    std::fs::write(coverage_out, serde_json::to_string_pretty(&coverage)? + "\n")
        .with_context(|| format!("cannot write {}", coverage_out.display()))?;
    let described: Vec<String> = sets.iter().map(|s| format!("{} ({} pairs)", s.name, s.pairs.len())).collect();
    super::out(format!(
        "kforecast eval --fit-doubt on {}; mean score (log score + claim ECE + bin ECE + AURC) {start:.3} -> {best_score:.3}",
        described.join(", ")
    ));
    super::out(format!("  pairing doubt {doubt:?}"));
    super::out(format!(
        "  per feature outside the training range: sigma {}, lost {}",
        coverage.sigma_per_feature, coverage.lost_per_feature
    ));
    super::out(format!("  written to {} and {}", doubt_out.display(), coverage_out.display()));
    Ok(())
}
