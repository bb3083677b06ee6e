//! Training the [`Model`] from measured pairs: bagged boosters on the pair features,
//! then the spread chosen on out-of-family predictions (each family forecast by trees
//! trained without it), so the confidence is calibrated for kernels the model has not
//! seen. Deterministic: the same pairs and options give the same weights.

use super::gbt::{self, BoostParams, Booster};
use super::trained::{estimate, feature_names, pair_vector, platt, swapped, Estimate, Model, Provenance, Spread};
use crate::bins::bin_of;
use crate::eval::{ece, log_loss, point_metrics, Metrics, Sample};
use crate::features::Profile;
use std::collections::BTreeSet;
use std::sync::Arc;

/// One measured pair of two different kernel versions.
#[derive(Clone, Debug)]
pub struct TrainPair {
    pub family: String,
    /// The batch it was written and measured in (families of one batch share authors and
    /// habits, so a batch held out is a harder test than a family held out).
    pub batch: String,
    /// Names of the two versions (top-10% recovery ranks a family's versions by them).
    pub names: (String, String),
    pub base: Arc<Profile>,
    pub candidate: Arc<Profile>,
    /// Measured S = t_base / t_candidate.
    pub speedup: f64,
    /// Read from code without `kforecast:` declarations (a program of another style).
    pub undeclared: bool,
}

#[derive(Clone, Copy, Debug)]
pub struct TrainOptions {
    pub params: BoostParams,
    /// Boosters averaged (each on its own subsamples).
    pub bags: usize,
    pub seed: u64,
}

impl Default for TrainOptions {
    fn default() -> Self {
        Self { params: BoostParams::default(), bags: 5, seed: 2026 }
    }
}

fn rows(pairs: &[&TrainPair]) -> (Vec<Vec<f64>>, Vec<f64>) {
    let mut x = Vec::with_capacity(pairs.len() * 2);
    let mut y = Vec::with_capacity(pairs.len() * 2);
    for p in pairs {
        let v = pair_vector(&p.base, &p.candidate);
        let s = p.speedup.max(1e-9).log2();
        x.push(swapped(&v));
        y.push(-s);
        x.push(v);
        y.push(s);
    }
    (x, y)
}

fn fit_members(pairs: &[&TrainPair], options: &TrainOptions) -> Vec<Booster> {
    let (x, y) = rows(pairs);
    (0..options.bags.max(1)).map(|k| gbt::fit(&x, &y, &options.params, options.seed.wrapping_add(k as u64))).collect()
}

/// The spread grid searched, in log2 units.
fn spread_grid() -> impl Iterator<Item = Spread> {
    (2..=20).flat_map(|b| (0..=20).flat_map(move |r| tails(0.05 * b as f64, 0.1 * r as f64, 0.0)))
}

/// Spreads that widen σ with the members' disagreement, near `best` (found without it):
/// the disagreement takes over part of the base and relative terms.
fn disagreement_grid(best: Spread) -> impl Iterator<Item = Spread> {
    let bases: Vec<f64> = (-6..=1).map(|b| best.base + 0.05 * f64::from(b)).filter(|&b| b > 0.05).collect();
    let relatives: Vec<f64> =
        (-3..=1).map(|r| best.relative + 0.1 * f64::from(r)).filter(|&r| r > -1e-9).map(|r| r.max(0.0)).collect();
    [0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0, 8.0].into_iter().flat_map(move |disagreement| {
        let relatives = relatives.clone();
        bases.clone().into_iter().flat_map(move |base| {
            relatives.clone().into_iter().flat_map(move |relative| tails(base, relative, disagreement))
        })
    })
}

/// Every cap and outlier mixture for one σ core (`base`, `relative`, `disagreement`).
fn tails(base: f64, relative: f64, disagreement: f64) -> impl Iterator<Item = Spread> {
    [0.5, 0.75, 1.0, 1.5, 2.0, 3.0, 64.0].into_iter().flat_map(move |cap| {
        [0.0, 0.05, 0.1, 0.15, 0.2, 0.3].into_iter().flat_map(move |outlier| {
            [1.5, 3.0].into_iter().map(move |outlier_sigma| Spread {
                base,
                relative,
                outlier,
                outlier_sigma,
                cap,
                disagreement,
                ..Spread::default()
            })
        })
    })
}

/// The spread of `grid` with the lowest [`criterion`] (the first of equals), on every
/// core.
fn best_spread(grid: &[Spread], estimates: &[Estimate], truths: &[Truth]) -> Option<(f64, Spread)> {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let per = grid.len().div_ceil(threads).max(1);
    let best: Vec<(f64, usize)> = std::thread::scope(|scope| {
        let handles: Vec<_> = grid
            .chunks(per)
            .enumerate()
            .map(|(c, chunk)| {
                scope.spawn(move || {
                    chunk
                        .iter()
                        .enumerate()
                        .map(|(i, s)| (criterion(estimates, truths, *s), c * per + i))
                        .min_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)))
                })
            })
            .collect();
        handles.into_iter().filter_map(|h| h.join().ok().flatten()).collect()
    });
    best.into_iter().min_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1))).map(|(c, i)| (c, grid[i]))
}

fn samples(pairs: &[&TrainPair], estimates: &[Estimate], spread: Spread) -> Vec<Sample> {
    pairs
        .iter()
        .zip(estimates)
        .map(|(p, &e)| Sample {
            family: p.family.clone(),
            base: p.names.0.clone(),
            candidate: p.names.1.clone(),
            speedup: p.speedup,
            forecast: spread.forecast_wider(e, 1.0, spread.style_sigma(p.undeclared), "cv", Vec::new()),
        })
        .collect()
}

fn score(pairs: &[&TrainPair], estimates: &[Estimate], spread: Spread) -> Metrics {
    point_metrics(&samples(pairs, estimates, spread))
}

/// A pair's measured bin and whether it was read without declarations.
type Truth = (usize, bool);

/// What the spread is chosen by: the log score of the measured bin plus five times the
/// calibration error of the most likely bin.
fn criterion(estimates: &[Estimate], truths: &[Truth], spread: Spread) -> f64 {
    let mut log = 0.0;
    let mut tops = Vec::with_capacity(estimates.len());
    for (&e, &(truth, undeclared)) in estimates.iter().zip(truths) {
        let f = spread.forecast_wider(e, 1.0, spread.style_sigma(undeclared), "cv", Vec::new());
        log += log_loss(&f.bins, truth);
        let top = f.bins.argmax();
        tops.push((f.bins.0[top], top == truth));
    }
    log / estimates.len().max(1) as f64 + 5.0 * ece(&tops)
}

/// One fold: boosters trained on the pairs `train` picks, and their estimate of each pair
/// `held` picks, by index in `all`.
fn fold(
    all: &[&TrainPair],
    train: &(dyn Fn(usize) -> bool + Sync),
    held: &(dyn Fn(usize) -> bool + Sync),
    options: &TrainOptions,
) -> Vec<(usize, Estimate)> {
    let train: Vec<&TrainPair> = all.iter().enumerate().filter(|(i, _)| train(*i)).map(|(_, p)| *p).collect();
    let members = fit_members(&train, options);
    all.iter()
        .enumerate()
        .filter(|(i, _)| held(*i))
        .map(|(i, p)| (i, estimate(&members, &pair_vector(&p.base, &p.candidate))))
        .collect()
}

/// Each pair's estimate by boosters trained without its group (`groups[i]` is the group
/// of `all[i]`), a fold per group on every core. Each fold is deterministic, so the
/// result does not depend on how many cores there are.
fn out_of_group(
    all: &[&TrainPair],
    groups: &[String],
    what: &str,
    options: &TrainOptions,
    progress: &mut dyn FnMut(&str),
) -> Vec<Estimate> {
    let names: Vec<&str> = groups.iter().map(String::as_str).collect::<BTreeSet<_>>().into_iter().collect();
    let key = |i: usize| groups.get(i).map_or("", String::as_str);
    let mut estimates = vec![Estimate::default(); all.len()];
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get()).min(names.len().max(1));
    let mut done = 0;
    for chunk in names.chunks(threads) {
        let folds: Vec<Vec<(usize, Estimate)>> = std::thread::scope(|scope| {
            let handles: Vec<_> = chunk
                .iter()
                .map(|group| {
                    let key = &key;
                    scope.spawn(move || fold(all, &|i| key(i) != *group, &|i| key(i) == *group, options))
                })
                .collect();
            handles.into_iter().map(|h| h.join().unwrap_or_default()).collect()
        });
        for (group, fold) in chunk.iter().zip(folds) {
            done += 1;
            progress(&format!("cross-validation by {what} {done}/{}: without {group}", names.len()));
            for (i, e) in fold {
                estimates[i] = e;
            }
        }
    }
    estimates
}

/// Folds of the out-of-family cross-validation: every family's pairs in one fold, the
/// families (sorted) dealt round-robin into as many folds. Each pair is forecast by trees
/// trained without its family (and without the fold's other families): leave-one-family-out
/// at a seventh of its cost. A set of programs of another style (`SET/family`) is dealt
/// whole: its families share an author, a harness and habits, so each is forecast by trees
/// that never saw its set, as a set met for the first time is, and the spread and the
/// claim's calibration fitted on these forecasts are those of a first look.
pub const FAMILY_FOLDS: usize = 16;

/// What is dealt into one fold: a program set's families together, any other family alone.
fn fold_unit(family: &str) -> &str {
    family.split_once('/').map_or(family, |(set, _)| set)
}

/// The fold of each pair, given each pair's family (see [`FAMILY_FOLDS`]).
fn family_folds(families: &[&str]) -> Vec<String> {
    let units: Vec<&str> = families.iter().map(|f| fold_unit(f)).collect::<BTreeSet<_>>().into_iter().collect();
    let fold: std::collections::HashMap<&str, usize> =
        units.iter().enumerate().map(|(i, u)| (*u, i % FAMILY_FOLDS)).collect();
    families.iter().map(|f| format!("fold {:02}", fold.get(fold_unit(f)).copied().unwrap_or(0))).collect()
}

/// Batches in the order they were written: by name, runs of digits compared as numbers
/// (`…-batch10` after `…-batch9`).
fn batch_order(batches: &BTreeSet<&str>) -> Vec<String> {
    let key = |name: &str| -> Vec<(u64, String)> {
        let mut parts = Vec::new();
        let mut rest = name;
        while !rest.is_empty() {
            let digits = rest.chars().take_while(char::is_ascii_digit).count();
            let (head, tail) = if digits > 0 {
                rest.split_at(digits)
            } else {
                rest.split_at(rest.find(|c: char| c.is_ascii_digit()).unwrap_or(rest.len()))
            };
            parts.push((head.parse().unwrap_or(u64::MAX), head.to_string()));
            rest = tail;
        }
        parts
    };
    let mut out: Vec<&str> = batches.iter().copied().collect();
    out.sort_by_key(|b| key(b));
    out.into_iter().map(str::to_string).collect()
}

/// Batches whose families are forecast by trees trained on the earlier batches alone, as
/// the shipped model meets kernels written after it: the newest ones.
pub const NEWEST_BATCHES: usize = 2;

/// Forecasts of the newest batches' pairs by boosters trained on the batches before
/// each (families written later than anything the trees saw), by index in `all`.
fn forward(all: &[&TrainPair], options: &TrainOptions) -> Vec<(usize, Estimate)> {
    let order = batch_order(&all.iter().map(|p| p.batch.as_str()).collect());
    let newest = order.len().saturating_sub(NEWEST_BATCHES).max(1);
    let positions: Vec<usize> = all.iter().map(|p| order.iter().position(|b| *b == p.batch).unwrap_or(0)).collect();
    let position = |i: usize| positions.get(i).copied().unwrap_or(0);
    std::thread::scope(|scope| {
        let handles: Vec<_> = (newest..order.len())
            .map(|k| {
                let position = &position;
                scope.spawn(move || fold(all, &|i| position(i) < k, &|i| position(i) == k, options))
            })
            .collect();
        handles.into_iter().flat_map(|h| h.join().unwrap_or_default()).collect()
    })
}

/// What cross-validation found: the spread (with its claim calibration) and the
/// metrics of forecasts of each family by boosters trained without it, and of each batch
/// by boosters trained without that batch.
#[derive(Clone, Debug)]
pub struct CrossValidation {
    pub spread: Spread,
    pub metrics: Metrics,
    /// Every pair with its out-of-family forecast under `spread`.
    pub samples: Vec<Sample>,
    /// The out-of-family estimate behind each sample.
    pub estimates: Vec<Estimate>,
    /// The same with each batch held out (None with a single batch).
    pub batch_metrics: Option<Metrics>,
    /// The newest batches forecast by trees trained on the earlier ones, under the final
    /// spread (None with a single batch).
    pub novel_metrics: Option<Metrics>,
}

/// Out-of-family cross-validation on `pairs` (and, with `by_batch` and several batches,
/// out-of-batch as a second opinion); `progress` hears about each fold. The spread is
/// chosen on the out-of-family forecasts. With several batches, the newest are also
/// forecast by trees trained on the earlier ones alone, as a report.
pub fn cross_validate(
    pairs: &[TrainPair],
    options: &TrainOptions,
    by_batch: bool,
    progress: &mut dyn FnMut(&str),
) -> CrossValidation {
    let all: Vec<&TrainPair> = pairs.iter().collect();
    let families: Vec<&str> = all.iter().map(|p| p.family.as_str()).collect();
    let raw = out_of_group(&all, &family_folds(&families), "family", options, progress);
    let declared: Vec<usize> = (0..all.len()).filter(|&i| !all[i].undeclared).collect();
    // The trees shrink toward no change: their estimates are stretched by the slope of the
    // measured on them, out of family (on the house style where there is any).
    let fit_on: Vec<usize> = if declared.is_empty() { (0..all.len()).collect() } else { declared.clone() };
    let stretch = fit_stretch(fit_on.iter().map(|&i| (raw[i].mu, all[i].speedup.max(1e-9).log2())));
    let stretched = |es: Vec<Estimate>| -> Vec<Estimate> { es.into_iter().map(|e| e.scaled(stretch)).collect() };
    let estimates = stretched(raw);
    let batches: BTreeSet<&str> = pairs.iter().map(|p| p.batch.as_str()).collect();
    let batch_estimates = (by_batch && batches.len() > 1).then(|| {
        let groups: Vec<String> = all.iter().map(|p| p.batch.clone()).collect();
        stretched(out_of_group(&all, &groups, "batch", options, progress))
    });
    // The spread with the best log score plus a calibration penalty: first without the
    // members' disagreement, then with it around the best found. Fitted on the code with
    // declarations (the house style) where there is any, so that programs of other
    // styles widen only their own forecasts, through `undeclared` below.
    let truths: Vec<Truth> = all.iter().map(|p| (bin_of(p.speedup), p.undeclared)).collect();
    let (own_estimates, own_truths): (Vec<Estimate>, Vec<Truth>) = if declared.is_empty() {
        (estimates.clone(), truths.clone())
    } else {
        declared.iter().map(|&i| (estimates[i], truths[i])).unzip()
    };
    let first = best_spread(&spread_grid().collect::<Vec<_>>(), &own_estimates, &own_truths);
    let second =
        first.and_then(|(_, s)| best_spread(&disagreement_grid(s).collect::<Vec<_>>(), &own_estimates, &own_truths));
    let mut spread =
        [first, second].into_iter().flatten().min_by(|a, b| a.0.total_cmp(&b.0)).map(|(_, s)| s).unwrap_or_default();
    spread.stretch = stretch;
    // Then what code without declarations adds (programs of other styles), if any is here.
    if all.iter().any(|p| p.undeclared) {
        let grid: Vec<Spread> = (0..=40).map(|k| Spread { undeclared: 0.05 * f64::from(k), ..spread }).collect();
        spread = best_spread(&grid, &estimates, &truths).map_or(spread, |(_, s)| s);
    }
    // Then the claim's confidence, by its log loss.
    let claims: Vec<(f64, bool)> =
        score(&all, &estimates, spread).claims.iter().map(|c| (c.confidence, c.holds)).collect();
    let mut best_platt = (f64::INFINITY, 1.0, 0.0);
    for a in (1..=40).map(|k| 0.05 * k as f64) {
        for b in (-30..=30).map(|k| 0.05 * k as f64) {
            let loss: f64 = claims
                .iter()
                .map(|&(c, ok)| {
                    let p = platt(c, a, b).clamp(1e-6, 1.0 - 1e-6);
                    -(if ok { p } else { 1.0 - p }).ln()
                })
                .sum();
            if loss < best_platt.0 {
                best_platt = (loss, a, b);
            }
        }
    }
    (spread.claim_scale, spread.claim_shift) = (best_platt.1, best_platt.2);
    // How the model does on families newer than its trees, as the shipped model meets
    // kernels written after it (a report: the spread stays fitted out of family).
    let novel = if batches.len() > 1 { forward(&all, options) } else { Vec::new() };
    let (novel_pairs, novel_estimates): (Vec<&TrainPair>, Vec<Estimate>) =
        novel.iter().map(|&(i, e)| (all[i], e)).unzip();
    let novel_estimates = stretched(novel_estimates);
    let novel_metrics = (!novel.is_empty()).then(|| score(&novel_pairs, &novel_estimates, spread));
    let samples = samples(&all, &estimates, spread);
    let batch_metrics = batch_estimates.map(|b| score(&all, &b, spread));
    CrossValidation { spread, metrics: point_metrics(&samples), samples, estimates, batch_metrics, novel_metrics }
}

/// The slope of measured on estimated log2 S through the origin (least squares, each
/// measurement clipped as the device adjustment clips it), kept within 0.5–2.
fn fit_stretch(points: impl Iterator<Item = (f64, f64)>) -> f64 {
    let (xy, xx) = super::adapt::slope_sums(points);
    if xx <= 0.0 {
        return 1.0;
    }
    (xy / xx).clamp(0.5, 2.0)
}

/// Trains a model on `pairs`; `progress` hears about each cross-validation fold.
pub fn train(
    pairs: &[TrainPair],
    options: &TrainOptions,
    mut provenance: Provenance,
    progress: &mut dyn FnMut(&str),
) -> Model {
    let all: Vec<&TrainPair> = pairs.iter().collect();
    let families: BTreeSet<&str> = pairs.iter().map(|p| p.family.as_str()).collect();
    let CrossValidation { spread, metrics: cv, novel_metrics, .. } = cross_validate(pairs, options, false, progress);
    progress("fitting the final model on every pair");
    provenance.pairs = pairs.len();
    provenance.families = families.len();
    provenance.cross_validation = serde_json::json!({
        "direction_accuracy_clear": cv.direction_accuracy_clear,
        "ece_bin": cv.ece_bin,
        "ece_claim": cv.ece_claim,
        "log_score": cv.log_score,
        "crps": cv.crps,
        "top10_recovery": cv.top10_recovery,
    });
    if let Some(n) = novel_metrics {
        provenance.novel_batches = serde_json::json!({
            "pairs": n.pairs,
            "families": n.families,
            "direction_accuracy_clear": n.direction_accuracy_clear,
            "ece_bin": n.ece_bin,
            "log_score": n.log_score,
        });
    }
    Model {
        format: 1,
        features: feature_names(),
        params: options.params,
        spread,
        provenance,
        members: fit_members(&all, options),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn estimates_shrunk_toward_no_change_are_stretched_back() {
        // Measured changes half as large again as the trees said: stretched by 1.5.
        let points = [(0.4, 0.6), (-1.0, -1.5), (2.0, 3.0), (-0.2, -0.3)];
        assert!((fit_stretch(points.into_iter()) - 1.5).abs() < 1e-9);
        // One wild measurement lends at most 2 in log2 units; nothing to fit: no stretch.
        assert!(fit_stretch([(0.5, 9.0), (0.5, 0.5)].into_iter()) < 3.0);
        assert_eq!(fit_stretch([(0.0, 1.0)].into_iter()), 1.0);
        // Estimates wrong way round are not turned upside down.
        assert_eq!(fit_stretch([(1.0, -1.0), (-1.0, 1.0)].into_iter()), 0.5);
    }

    #[test]
    fn a_program_set_is_held_out_whole_and_corpus_families_alone() {
        let mut families: Vec<String> = (0..40).map(|i| format!("corpus-{i:02}")).collect();
        families.extend((0..6).map(|i| format!("public44/p44-family-{i}")));
        let names: Vec<&str> = families.iter().map(String::as_str).collect();
        let folds = family_folds(&names);
        // The set's six families share one fold: no tree forecasting them saw the set.
        let set_folds: BTreeSet<&String> = folds[40..].iter().collect();
        assert_eq!(set_folds.len(), 1);
        // The corpus's families are spread over every fold.
        assert_eq!(folds[..40].iter().collect::<BTreeSet<_>>().len(), FAMILY_FOLDS);
    }

    #[test]
    fn batches_are_ordered_as_written() {
        let names = [
            "h100-2026-11-22-batch10",
            "h100-2026-11-22-batch3",
            "h100-2026-11-21",
            "h100-2026-11-22",
            "h100-2026-11-22-batch9",
        ];
        let order = batch_order(&names.into_iter().collect());
        assert_eq!(
            order,
            [
                "h100-2026-11-21",
                "h100-2026-11-22",
                "h100-2026-11-22-batch3",
                "h100-2026-11-22-batch9",
                "h100-2026-11-22-batch10"
            ]
        );
    }
}
