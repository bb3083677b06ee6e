//! Scoring a forecaster against measured pairs, with the paper's metrics: direction
//! accuracy, 8-bin accuracy, Brier score, CRPS over the ordered bins, expected
//! calibration error, the risk–coverage curve and its area, and top-10% recovery.

use crate::bins::{bin_of, BinProbs, NUM_BINS};
use crate::forecast::{Claim, Forecast, SAME_BAND};
use serde::Serialize;
use std::collections::BTreeMap;

/// One measured pair and the forecast for it.
#[derive(Clone, Debug)]
pub struct Sample {
    pub family: String,
    pub base: String,
    pub candidate: String,
    /// Measured S = t_base / t_candidate.
    pub speedup: f64,
    pub forecast: Forecast,
}

impl Sample {
    /// The two versions differ by more than the same band (|log2 S| > 0.2, ~15%).
    pub fn is_clear(&self) -> bool {
        self.speedup.log2().abs() > SAME_BAND
    }

    /// P(faster) > 0.5 agrees with S > 1.
    pub fn direction_right(&self) -> bool {
        (self.forecast.p_faster > 0.5) == (self.speedup > 1.0)
    }
}

#[derive(Clone, Debug, Default, Serialize)]
pub struct Metrics {
    pub pairs: usize,
    /// P(faster) > 0.5 agrees with S > 1.
    pub direction_accuracy: f64,
    /// The same, on pairs with |log2 S| > 0.2 (a difference of more than ~15%).
    pub direction_accuracy_clear: f64,
    pub clear_pairs: usize,
    /// The most likely bin is the measured one.
    pub bin_accuracy: f64,
    /// Σ over bins of (p − outcome)², averaged over pairs (0 best, 2 worst).
    pub brier: f64,
    /// Ranked probability score: Σ over the 7 bin edges of (CDF − outcome CDF)², averaged.
    pub crps: f64,
    /// Mean −ln of the probability given to the measured bin (lower is better).
    pub log_score: f64,
    /// Calibration of the most likely bin's probability (10 equal-width buckets).
    pub ece_bin: f64,
    /// The bin ECE a perfectly calibrated forecaster would show on pairs this few: the
    /// mean over resamplings that draw each pair's bin from its own forecast
    /// (consistency resampling), and its 95th percentile. A measured ECE inside this range
    /// cannot be told apart from sampling noise.
    pub ece_bin_floor: f64,
    pub ece_bin_floor_p95: f64,
    /// 95% intervals over families (whole families resampled with replacement: pairs of
    /// one family are not independent), for the three figures with targets.
    pub intervals: Option<Intervals>,
    /// Calibration of the claim's confidence (what the editor shows).
    pub ece_claim: f64,
    /// The claim (faster / slower / about the same) holds.
    pub claim_accuracy: f64,
    /// Area under the risk–coverage curve of the claim, deferring least confident first.
    pub aurc: f64,
    /// (coverage, risk) at a few coverages.
    pub risk_coverage: Vec<(f64, f64)>,
    /// Per family: rank versions by forecast against the first version, measure the top
    /// 10%, best found over pool best; mean over families.
    pub top10_recovery: f64,
    /// Fraction of families whose top-10% pick is within 10% of the pool's best.
    pub top10_within_10pct: f64,
    /// Top-10% recovery ranking by [`Ranking::Tournament`].
    pub top10_tournament: f64,
    pub families: usize,
    /// Each forecast's claim confidence and whether the claim held, in sample order.
    #[serde(skip)]
    pub claims: Vec<ClaimOutcome>,
}

/// 95% intervals (2.5th and 97.5th percentiles) from a family bootstrap.
#[derive(Clone, Copy, Debug, Default, Serialize)]
pub struct Intervals {
    pub direction_accuracy_clear: (f64, f64),
    pub ece_bin: (f64, f64),
    pub top10_recovery: (f64, f64),
}

#[derive(Clone, Copy, Debug, Default)]
pub struct ClaimOutcome {
    pub confidence: f64,
    pub holds: bool,
}

fn claim_holds(f: &Forecast, s: f64) -> bool {
    let l = s.log2();
    match f.claim {
        Claim::Faster => s > 1.0,
        Claim::Slower => s < 1.0,
        Claim::Same => l.abs() < SAME_BAND,
    }
}

/// Expected calibration error of (confidence, outcome) pairs over 10 equal-width buckets.
pub fn ece(pairs: &[(f64, bool)]) -> f64 {
    let mut buckets = [(0.0f64, 0.0f64, 0usize); 10];
    for (conf, ok) in pairs {
        let b = ((conf * 10.0) as usize).min(9);
        buckets[b].0 += conf;
        buckets[b].1 += if *ok { 1.0 } else { 0.0 };
        buckets[b].2 += 1;
    }
    let n = pairs.len().max(1) as f64;
    buckets
        .iter()
        .filter(|b| b.2 > 0)
        .map(|(c, a, k)| (*k as f64 / n) * ((a / *k as f64) - (c / *k as f64)).abs())
        .sum()
}

/// −ln of the probability a forecast gives the measured bin (floored at 1e-6).
pub fn log_loss(bins: &BinProbs, truth: usize) -> f64 {
    -bins.0[truth].max(1e-6).ln()
}

/// Resamplings behind [`Metrics::ece_bin_floor`] (fixed seed: the same pairs give the same figure).
const FLOOR_RESAMPLES: usize = 400;

fn ece_floor(samples: &[Sample]) -> (f64, f64) {
    let mut rng = crate::rng::Rng::new(0x0ECE);
    let mut eces: Vec<f64> = (0..FLOOR_RESAMPLES)
        .map(|_| {
            let pairs: Vec<(f64, bool)> = samples
                .iter()
                .map(|s| {
                    let p = &s.forecast.bins.0;
                    let top = s.forecast.bins.argmax();
                    let u = rng.unit();
                    let mut acc = 0.0;
                    let drawn = (0..NUM_BINS).find(|&k| {
                        acc += p[k];
                        u < acc
                    });
                    (p[top], drawn.unwrap_or(NUM_BINS - 1) == top)
                })
                .collect();
            ece(&pairs)
        })
        .collect();
    eces.sort_by(f64::total_cmp);
    let mean = eces.iter().sum::<f64>() / eces.len() as f64;
    (mean, eces[(eces.len() * 95 / 100).min(eces.len() - 1)])
}

/// The metrics, the calibrated-forecaster ECE and the family-bootstrap intervals.
pub fn metrics(samples: &[Sample]) -> Metrics {
    let mut m = point_metrics(samples);
    if !samples.is_empty() {
        (m.ece_bin_floor, m.ece_bin_floor_p95) = ece_floor(samples);
        m.intervals = family_intervals(samples);
    }
    m
}

/// The samples of each family, by family name.
fn by_family(samples: &[Sample]) -> BTreeMap<&str, Vec<&Sample>> {
    let mut out: BTreeMap<&str, Vec<&Sample>> = BTreeMap::new();
    for s in samples {
        out.entry(&s.family).or_default().push(s);
    }
    out
}

/// One family's share of the figures: where a forecaster goes wrong.
#[derive(Clone, Debug, Serialize)]
pub struct FamilyScore {
    pub family: String,
    pub pairs: usize,
    /// Pairs with |log2 S| > 0.2, and how many of them the forecast got the direction of.
    pub clear_pairs: usize,
    pub clear_right: usize,
    pub log_score: f64,
}

/// Each family's direction and log score, worst direction first (then by name).
pub fn per_family(samples: &[Sample]) -> Vec<FamilyScore> {
    let mut out: Vec<FamilyScore> = by_family(samples)
        .into_iter()
        .map(|(family, group)| {
            let clear: Vec<&&Sample> = group.iter().filter(|s| s.is_clear()).collect();
            let right = clear.iter().filter(|s| s.direction_right()).count();
            let log_score = group.iter().map(|s| log_loss(&s.forecast.bins, bin_of(s.speedup))).sum::<f64>()
                / group.len().max(1) as f64;
            FamilyScore {
                family: family.to_string(),
                pairs: group.len(),
                clear_pairs: clear.len(),
                clear_right: right,
                log_score,
            }
        })
        .collect();
    let rate = |f: &FamilyScore| if f.clear_pairs == 0 { 1.0 } else { f.clear_right as f64 / f.clear_pairs as f64 };
    out.sort_by(|a, b| rate(a).total_cmp(&rate(b)).then_with(|| a.family.cmp(&b.family)));
    out
}

/// Family-bootstrap resamplings behind [`Metrics::intervals`] (fixed seed).
const BOOTSTRAP: usize = 400;

fn family_intervals(samples: &[Sample]) -> Option<Intervals> {
    let groups: Vec<Vec<&Sample>> = by_family(samples).into_values().collect();
    if groups.len() < 2 {
        return None;
    }
    let mut rng = crate::rng::Rng::new(0xB007);
    let (mut dir, mut ece_bins, mut top) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..BOOTSTRAP {
        let mut drawn = Vec::with_capacity(samples.len());
        for j in 0..groups.len() {
            // A family drawn twice counts as two families.
            for s in &groups[rng.below(groups.len())] {
                drawn.push(Sample { family: format!("{}#{j}", s.family), ..(*s).clone() });
            }
        }
        let m = point_metrics(&drawn);
        if m.direction_accuracy_clear.is_finite() {
            dir.push(m.direction_accuracy_clear);
        }
        ece_bins.push(m.ece_bin);
        top.push(m.top10_recovery);
    }
    let interval = |v: &mut Vec<f64>| -> (f64, f64) {
        v.sort_by(f64::total_cmp);
        if v.is_empty() {
            return (f64::NAN, f64::NAN);
        }
        let at = |q: f64| v[((v.len() - 1) as f64 * q).round() as usize];
        (at(0.025), at(0.975))
    };
    Some(Intervals {
        direction_accuracy_clear: interval(&mut dir),
        ece_bin: interval(&mut ece_bins),
        top10_recovery: interval(&mut top),
    })
}

/// The metrics alone (what training scores its choices by, many times over).
pub fn point_metrics(samples: &[Sample]) -> Metrics {
    let n = samples.len();
    if n == 0 {
        return Metrics::default();
    }
    let nf = n as f64;
    let mut m = Metrics { pairs: n, ..Metrics::default() };
    let (mut dir, mut clear, mut clear_ok, mut bin, mut claim) = (0, 0, 0, 0, 0);
    let mut bin_conf = Vec::with_capacity(n);
    let mut claim_conf = Vec::with_capacity(n);
    for s in samples {
        let f = &s.forecast;
        let truth = bin_of(s.speedup);
        let ok_dir = s.direction_right();
        dir += ok_dir as usize;
        if s.is_clear() {
            clear += 1;
            clear_ok += ok_dir as usize;
        }
        let top = f.bins.argmax();
        bin += (top == truth) as usize;
        bin_conf.push((f.bins.0[top], top == truth));
        let holds = claim_holds(f, s.speedup);
        claim += holds as usize;
        claim_conf.push((f.confidence, holds));
        m.claims.push(ClaimOutcome { confidence: f.confidence, holds });
        let mut cdf = 0.0;
        let mut crps = 0.0;
        for k in 0..NUM_BINS {
            let outcome = if k == truth { 1.0 } else { 0.0 };
            m.brier += (f.bins.0[k] - outcome).powi(2);
            if k < NUM_BINS - 1 {
                cdf += f.bins.0[k];
                let true_cdf = if truth <= k { 1.0 } else { 0.0 };
                crps += (cdf - true_cdf).powi(2);
            }
        }
        m.crps += crps;
        m.log_score += log_loss(&f.bins, truth);
    }
    m.brier /= nf;
    m.crps /= nf;
    m.log_score /= nf;
    m.direction_accuracy = dir as f64 / nf;
    m.clear_pairs = clear;
    m.direction_accuracy_clear = if clear > 0 { clear_ok as f64 / clear as f64 } else { f64::NAN };
    m.bin_accuracy = bin as f64 / nf;
    m.claim_accuracy = claim as f64 / nf;
    m.ece_bin = ece(&bin_conf);
    m.ece_claim = ece(&claim_conf);
    let (aurc, risks) = risk_coverage(&claim_conf);
    m.aurc = aurc;
    m.risk_coverage = [0.1, 0.25, 0.5, 0.75, 1.0]
        .iter()
        .map(|c| {
            let k = ((c * nf).ceil() as usize).clamp(1, n);
            (*c, risks[k - 1])
        })
        .collect();
    let (rec, within, fams) = top10(samples, Ranking::AgainstFirst);
    m.top10_tournament = top10(samples, Ranking::Tournament).0;
    m.families = fams;
    m.top10_recovery = rec;
    m.top10_within_10pct = within;
    m
}

/// How a family's versions are ranked for top-10% recovery.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ranking {
    /// By the forecast speedup of each version against the family's first version.
    AgainstFirst,
    /// By each version's mean forecast log-speedup against every other version.
    Tournament,
}

/// Top-10% recovery: per family, rank the versions other than the first (the reference,
/// already measured) by forecast, measure the top 10% (at least one), and take the best
/// found over the pool's best. Returns the mean over families, the fraction of families
/// within 10% of their best, and the number of families.
pub fn top10(samples: &[Sample], ranking: Ranking) -> (f64, f64, usize) {
    let (mut rec_sum, mut within, mut fams) = (0.0, 0usize, 0usize);
    for group in by_family(samples).into_values() {
        let Some(reference) = group.iter().map(|s| s.base.as_str()).min() else { continue };
        let pool: Vec<&&Sample> = group.iter().filter(|s| s.base == reference).collect();
        if pool.is_empty() {
            continue;
        }
        // The reference itself is in the pool with S = 1.
        let pool_best = pool.iter().map(|s| s.speedup).fold(1.0f64, f64::max);
        let log_s = |s: &Sample| s.forecast.speedup.max(1e-12).log2();
        let score = |s: &Sample| -> f64 {
            match ranking {
                Ranking::AgainstFirst => log_s(s),
                Ranking::Tournament => {
                    let (sum, n) = group
                        .iter()
                        .filter(|o| o.candidate == s.candidate)
                        .fold((0.0, 0usize), |(sum, n), o| (sum + log_s(o), n + 1));
                    sum / n.max(1) as f64
                }
            }
        };
        let mut ranked: Vec<(f64, f64)> = pool.iter().map(|s| (score(s), s.speedup)).collect();
        ranked.sort_by(|a, b| b.0.total_cmp(&a.0));
        let k = ((ranked.len() + 1) as f64 * 0.1).ceil().max(1.0) as usize;
        let found = ranked.iter().take(k).map(|r| r.1).fold(1.0f64, f64::max);
        let r = found / pool_best;
        rec_sum += r;
        within += (r >= 0.9) as usize;
        fams += 1;
    }
    if fams == 0 {
        return (f64::NAN, f64::NAN, 0);
    }
    (rec_sum / fams as f64, within as f64 / fams as f64, fams)
}

/// What deferring below one confidence threshold gives.
#[derive(Clone, Debug, Serialize)]
pub struct SelectivePoint {
    pub threshold: f64,
    /// Fraction of forecasts trusted (confidence ≥ threshold); the rest are measured.
    pub coverage: f64,
    /// Among trusted forecasts: the claim is wrong.
    pub claim_error: f64,
    /// Among trusted forecasts of pairs with |log2 S| > 0.2: the direction is wrong.
    pub direction_error_clear: f64,
}

/// The selective policy's trade-off between coverage and error at each threshold.
/// Risk–coverage of claims `(confidence, holds)`, the most confident kept first: the area
/// under the curve (AURC, the mean risk over coverages) and the risk at each coverage.
pub fn risk_coverage(claims: &[(f64, bool)]) -> (f64, Vec<f64>) {
    let mut order = claims.to_vec();
    order.sort_by(|a, b| b.0.total_cmp(&a.0));
    let mut errors = 0usize;
    let mut risks = Vec::with_capacity(order.len());
    for (k, (_, ok)) in order.iter().enumerate() {
        errors += (!ok) as usize;
        risks.push(errors as f64 / (k + 1) as f64);
    }
    (risks.iter().sum::<f64>() / claims.len().max(1) as f64, risks)
}

pub fn selective(samples: &[Sample], thresholds: &[f64]) -> Vec<SelectivePoint> {
    thresholds
        .iter()
        .map(|&t| {
            let kept: Vec<&Sample> = samples.iter().filter(|s| !s.forecast.defer(t)).collect();
            let clear: Vec<&&Sample> = kept.iter().filter(|s| s.is_clear()).collect();
            let rate = |bad: usize, of: usize| if of > 0 { bad as f64 / of as f64 } else { 0.0 };
            SelectivePoint {
                threshold: t,
                coverage: rate(kept.len(), samples.len()),
                claim_error: rate(kept.iter().filter(|s| !claim_holds(&s.forecast, s.speedup)).count(), kept.len()),
                direction_error_clear: rate(clear.iter().filter(|s| !s.direction_right()).count(), clear.len()),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(s: f64, mu: f64) -> Sample {
        Sample {
            family: "f".into(),
            base: "v0".into(),
            candidate: format!("v{s}"),
            speedup: s,
            forecast: Forecast::from_log2_normal(mu, 0.2, "t", vec![]),
        }
    }

    #[test]
    fn a_perfect_forecaster_scores_perfectly_on_direction_and_recovery() {
        let samples: Vec<Sample> = [0.3, 0.6, 1.5, 3.0, 5.0].iter().map(|&s| sample(s, f64::log2(s))).collect();
        let m = metrics(&samples);
        assert_eq!(m.direction_accuracy, 1.0);
        assert_eq!(m.top10_recovery, 1.0);
        assert!(m.brier < 1.0 && m.crps < 0.5);
        let wrong: Vec<Sample> = [0.3, 0.6, 1.5, 3.0, 5.0].iter().map(|&s| sample(s, -f64::log2(s))).collect();
        let w = metrics(&wrong);
        assert_eq!(w.direction_accuracy, 0.0);
        assert!(w.brier > m.brier && w.crps > m.crps && w.aurc > m.aurc);
    }

    #[test]
    fn a_tournament_ranking_outvotes_one_misleading_forecast_against_the_reference() {
        // Measured speeds, relative to v0: v1 1.2×, v2 2×, v3 3× (the best).
        let speed: [f64; 4] = [1.0, 1.2, 2.0, 3.0];
        let mut samples = Vec::new();
        for b in 0..4 {
            for c in (0..4).filter(|&c| c != b) {
                let truth = speed[c] / speed[b];
                // The one forecast of v2 against v0 is badly off (4× instead of 2×);
                // every other forecast is right.
                let mu = if (b, c) == (0, 2) { 2.0 } else { truth.log2() };
                samples.push(Sample { base: format!("v{b}"), candidate: format!("v{c}"), ..sample(truth, mu) });
            }
        }
        let (against_first, _, _) = top10(&samples, Ranking::AgainstFirst);
        let (tournament, within, families) = top10(&samples, Ranking::Tournament);
        assert!((against_first - 2.0 / 3.0).abs() < 1e-9, "{against_first}");
        assert_eq!((tournament, within, families), (1.0, 1.0, 1));
    }

    #[test]
    fn the_ece_a_calibrated_forecaster_would_show_shrinks_with_more_pairs() {
        let pairs = |n: usize| -> Vec<Sample> { (0..n).map(|i| sample(1.0 + (i % 7) as f64 * 0.3, 0.4)).collect() };
        let few = metrics(&pairs(40));
        let many = metrics(&pairs(2000));
        assert!(few.ece_bin_floor > many.ece_bin_floor, "{} vs {}", few.ece_bin_floor, many.ece_bin_floor);
        assert!(many.ece_bin_floor < 0.03 && few.ece_bin_floor_p95 >= few.ece_bin_floor);
        // Deterministic: the same pairs give the same figure.
        assert_eq!(metrics(&pairs(40)).ece_bin_floor, few.ece_bin_floor);
    }

    #[test]
    fn intervals_resample_whole_families_and_contain_the_figure() {
        let mut samples = Vec::new();
        for f in 0..8 {
            for (i, &s) in [0.5, 0.8, 1.5, 2.5, 4.5].iter().enumerate() {
                // Family 0 is forecast the wrong way round, the others right.
                let mu = if f == 0 { -f64::log2(s) } else { f64::log2(s) };
                samples.push(Sample { family: format!("f{f}"), candidate: format!("v{i}"), ..sample(s, mu) });
            }
        }
        let m = metrics(&samples);
        let iv = m.intervals.expect("8 families");
        let (lo, hi) = iv.direction_accuracy_clear;
        assert!(lo <= m.direction_accuracy_clear && m.direction_accuracy_clear <= hi, "{lo} {hi}");
        assert!(lo < hi && hi <= 1.0, "a wrong family makes the accuracy uncertain: {lo} {hi}");
        // One family: no interval.
        assert!(metrics(&samples[..5]).intervals.is_none());
    }
}
