//! Several forecasts of one pair combined into one, and forecasts built from bins.
//!
//! A forecaster that answers with bin probabilities only (an LLM) and one that answers
//! with a normal distribution over log2 S (the embedded model) meet here: every
//! forecast carries its bins, its mean (`log2 speedup`) and its spread (`sigma`), and
//! the pooled forecast recomputes P(faster), the claim and the confidence from those
//! with the conventions of [`Forecast::from_log2_normal`].

use super::{same_band_mass, Claim, Forecast};
use crate::bins::{BinProbs, LOG2_EDGES, NUM_BINS};

/// How the members' bin probabilities are pooled.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Pool {
    /// Weighted mixture Σ wᵢ pᵢ: keeps every member's doubt (never sharper than the
    /// sharpest member); the default.
    #[default]
    Linear,
    /// Weighted geometric mean Π pᵢ^wᵢ, renormalised: agreement sharpens the result.
    LogLinear,
}

/// One forecast and its weight in an ensemble.
#[derive(Clone, Copy, Debug)]
pub struct Member<'a> {
    pub forecast: &'a Forecast,
    pub weight: f64,
}

/// Where the open-ended outer bins are taken to stop, in log2 S (one octave further).
const OUTER: f64 = 1.0;

/// Lower and upper edge (log2 S) of each bin, the open ends closed one octave out.
fn bin_edges(i: usize) -> (f64, f64) {
    let lo = if i == 0 { LOG2_EDGES[0] - OUTER } else { LOG2_EDGES[i - 1] };
    let hi = if i == NUM_BINS - 1 { LOG2_EDGES[NUM_BINS - 2] + OUTER } else { LOG2_EDGES[i] };
    (lo, hi)
}

/// Mean and standard deviation of log2 S for a bin distribution, each bin taken as
/// uniform over its range (the outer bins over one octave beyond their edge).
pub fn log2_moments(bins: &BinProbs) -> (f64, f64) {
    let bins = bins.normalized();
    let mut mean = 0.0;
    let mut second = 0.0;
    for (i, p) in bins.0.iter().enumerate() {
        let (lo, hi) = bin_edges(i);
        let mid = 0.5 * (lo + hi);
        let width = hi - lo;
        mean += p * mid;
        second += p * (mid * mid + width * width / 12.0);
    }
    (mean, (second - mean * mean).max(0.0).sqrt())
}

impl Forecast {
    /// A forecast from a probability over the bins alone (mean and spread of log2 S
    /// taken from the bins, see [`log2_moments`]).
    pub fn from_bins(bins: BinProbs, forecaster: &str, reasons: Vec<String>) -> Self {
        let bins = bins.normalized();
        let (mu, sigma) = log2_moments(&bins);
        Self::from_bins_with_moments(bins, mu, sigma, forecaster, reasons)
    }

    /// A forecast from bins with a known mean `mu` and spread `sigma` of log2 S. The
    /// claim follows `mu` as in [`Forecast::from_log2_normal`], but only where P(faster)
    /// agrees with it; the confidence of "about the same" is the normal's mass within
    /// the same band, at most what the two middle bins hold.
    pub fn from_bins_with_moments(bins: BinProbs, mu: f64, sigma: f64, forecaster: &str, reasons: Vec<String>) -> Self {
        let bins = bins.normalized();
        let mu = if mu.is_finite() { mu } else { 0.0 };
        let sigma = if sigma.is_finite() { sigma.max(1e-6) } else { 1.0 };
        let p_faster = bins.p_faster().clamp(0.0, 1.0);
        let claim = if mu >= 0.1 && p_faster > 0.5 {
            Claim::Faster
        } else if mu <= -0.1 && p_faster < 0.5 {
            Claim::Slower
        } else {
            Claim::Same
        };
        let confidence = match claim {
            Claim::Faster => p_faster,
            Claim::Slower => 1.0 - p_faster,
            Claim::Same => same_band_mass(mu, sigma).min(bins.0[3] + bins.0[4]),
        };
        Self {
            speedup: mu.exp2(),
            p_faster,
            bins,
            confidence: confidence.clamp(0.0, 0.995),
            sigma,
            claim,
            identical: false,
            forecaster: forecaster.to_string(),
            reasons,
        }
    }
}

/// Weights made usable: negative or non-finite ones count as zero; all zero means equal.
fn normalized_weights(members: &[Member]) -> Vec<f64> {
    let raw: Vec<f64> =
        members.iter().map(|m| if m.weight.is_finite() && m.weight > 0.0 { m.weight } else { 0.0 }).collect();
    let total: f64 = raw.iter().sum();
    if total <= 0.0 {
        return vec![1.0 / members.len().max(1) as f64; members.len()];
    }
    raw.iter().map(|w| w / total).collect()
}

/// The name of an ensemble: its members with their weights, e.g.
/// `ensemble(embedded-roofline/1 ×0.50, llm:gpt-oss-20b/p1 ×0.50)`.
pub fn ensemble_id(names_and_weights: &[(&str, f64)]) -> String {
    let parts: Vec<String> = names_and_weights.iter().map(|(n, w)| format!("{n} ×{w:.2}")).collect();
    format!("ensemble({})", parts.join(", "))
}

/// Mean of log2 S a forecast stands for.
fn log2_mean(f: &Forecast) -> f64 {
    let mu = f.speedup.max(1e-12).log2();
    if mu.is_finite() {
        mu
    } else {
        0.0
    }
}

/// Combines forecasts of one (base, candidate) pair. Members with zero weight are left
/// out; `None` if nothing is left. The reasons are the members' (first member first,
/// duplicates dropped); the result is `identical` only if every member says so.
///
/// Linear pool: bins, mean and variance are the mixture's, exactly. Log-linear pool:
/// the bins are the renormalised weighted geometric mean, the mean and spread those of
/// the product of the members' normals (precision-weighted).
pub fn ensemble(members: &[Member], pool: Pool) -> Option<Forecast> {
    let weights = normalized_weights(members);
    let kept: Vec<(&Forecast, f64)> =
        members.iter().zip(weights).filter(|(_, w)| *w > 0.0).map(|(m, w)| (m.forecast, w)).collect();
    let (first, _) = kept.first()?;
    if kept.len() == 1 {
        return Some((*first).clone());
    }
    let (bins, mu, sigma) = match pool {
        Pool::Linear => {
            let mut probs = [0.0; NUM_BINS];
            let (mut mean, mut second) = (0.0, 0.0);
            for (f, w) in &kept {
                for (p, q) in probs.iter_mut().zip(f.bins.normalized().0) {
                    *p += w * q;
                }
                let (m, s) = (log2_mean(f), f.sigma.max(1e-6));
                mean += w * m;
                second += w * (s * s + m * m);
            }
            (BinProbs(probs), mean, (second - mean * mean).max(0.0).sqrt())
        }
        Pool::LogLinear => {
            let mut logs = [0.0; NUM_BINS];
            let (mut precision, mut weighted) = (0.0, 0.0);
            for (f, w) in &kept {
                for (l, q) in logs.iter_mut().zip(f.bins.normalized().0) {
                    *l += w * q.max(1e-12).ln();
                }
                let s = f.sigma.max(1e-3);
                precision += w / (s * s);
                weighted += w * log2_mean(f) / (s * s);
            }
            let top = logs.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
            let probs = logs.map(|l| (l - top).exp());
            (BinProbs(probs), weighted / precision, precision.recip().sqrt())
        }
    };
    let mut reasons: Vec<String> = Vec::new();
    for (f, _) in &kept {
        for r in &f.reasons {
            if !reasons.contains(r) {
                reasons.push(r.clone());
            }
        }
    }
    let names: Vec<(&str, f64)> = kept.iter().map(|(f, w)| (f.forecaster.as_str(), *w)).collect();
    let mut out = Forecast::from_bins_with_moments(bins, mu, sigma, &ensemble_id(&names), reasons);
    out.identical = kept.iter().all(|(f, _)| f.identical);
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bins::normal_cdf;
    use crate::forecast::SAME_BAND;

    fn normal(mu: f64, sigma: f64, name: &str) -> Forecast {
        Forecast::from_log2_normal(mu, sigma, name, vec![format!("{name} says so")])
    }

    fn sums_to_one(f: &Forecast) -> bool {
        (f.bins.0.iter().sum::<f64>() - 1.0).abs() < 1e-9
    }

    #[test]
    fn moments_of_a_single_bin() {
        let mut p = [0.0; NUM_BINS];
        p[5] = 1.0; // 1.41–2×: log2 S in (0.5, 1]
        let (mu, sigma) = log2_moments(&BinProbs(p));
        assert!((mu - 0.75).abs() < 1e-12);
        assert!((sigma - 0.5 / 12f64.sqrt()).abs() < 1e-12);
    }

    #[test]
    fn from_bins_is_consistent() {
        let f = Forecast::from_bins(BinProbs([0.0, 0.0, 0.0, 0.05, 0.15, 0.5, 0.3, 0.0]), "llm", Vec::new());
        assert!(sums_to_one(&f));
        assert_eq!(f.claim, Claim::Faster);
        assert!((f.p_faster - 0.95).abs() < 1e-9);
        assert!((f.confidence - 0.95).abs() < 1e-9);
        assert!(f.speedup > 1.41 && f.speedup < 2.5, "{}", f.speedup);
        let slow = Forecast::from_bins(BinProbs([0.1, 0.6, 0.2, 0.1, 0.0, 0.0, 0.0, 0.0]), "llm", Vec::new());
        assert_eq!(slow.claim, Claim::Slower);
        assert!((slow.confidence - 1.0).abs() < 0.01);
        let same = Forecast::from_bins(BinProbs([0.0, 0.0, 0.0, 0.5, 0.5, 0.0, 0.0, 0.0]), "llm", Vec::new());
        assert_eq!(same.claim, Claim::Same);
        assert!(same.confidence > 0.3 && same.confidence <= 1.0);
    }

    #[test]
    fn normal_forecasts_keep_their_closed_form() {
        let n = normal(0.8, 0.3, "m");
        assert_eq!(n.claim, Claim::Faster);
        assert!((n.p_faster - normal_cdf(0.8 / 0.3)).abs() < 1e-9);
        assert!((n.confidence - n.p_faster.min(0.995)).abs() < 1e-12);
        assert!((n.speedup - 0.8f64.exp2()).abs() < 1e-12);
        let s = normal(0.05, 0.1, "m");
        assert_eq!(s.claim, Claim::Same);
        let band = normal_cdf((SAME_BAND - 0.05) / 0.1) - normal_cdf((-SAME_BAND - 0.05) / 0.1);
        assert!((s.confidence - band).abs() < 1e-9);
        assert_eq!(normal(-0.3, 0.2, "m").claim, Claim::Slower);
    }

    #[test]
    fn linear_pool_is_the_mixture() {
        let a = normal(1.0, 0.2, "a");
        let b = normal(-1.0, 0.2, "b");
        let f = ensemble(&[Member { forecast: &a, weight: 1.0 }, Member { forecast: &b, weight: 1.0 }], Pool::Linear)
            .expect("ensemble");
        assert!(sums_to_one(&f));
        for i in 0..NUM_BINS {
            assert!((f.bins.0[i] - 0.5 * (a.bins.0[i] + b.bins.0[i])).abs() < 1e-12);
        }
        assert!(f.speedup > 0.99 && f.speedup < 1.01);
        assert!(f.sigma > 1.0, "disagreement widens the spread: {}", f.sigma);
        assert_eq!(f.claim, Claim::Same);
        assert!(f.confidence < 0.2, "two opposite members leave little confidence: {}", f.confidence);
        assert_eq!(f.forecaster, "ensemble(a ×0.50, b ×0.50)");
        assert_eq!(f.reasons, vec!["a says so".to_string(), "b says so".to_string()]);
    }

    #[test]
    fn weights_move_the_pool() {
        let a = normal(1.0, 0.3, "a");
        let b = normal(0.0, 0.3, "b");
        let heavy_a =
            ensemble(&[Member { forecast: &a, weight: 3.0 }, Member { forecast: &b, weight: 1.0 }], Pool::Linear)
                .expect("ensemble");
        assert!((heavy_a.speedup.log2() - 0.75).abs() < 1e-9);
        // A zero (or bad) weight drops the member.
        let only_a =
            ensemble(&[Member { forecast: &a, weight: 1.0 }, Member { forecast: &b, weight: f64::NAN }], Pool::Linear)
                .expect("ensemble");
        assert_eq!(only_a, a);
        // All weights unusable: equal weights.
        let equal =
            ensemble(&[Member { forecast: &a, weight: 0.0 }, Member { forecast: &b, weight: -1.0 }], Pool::Linear)
                .expect("ensemble");
        assert!((equal.speedup.log2() - 0.5).abs() < 1e-9);
        assert!(ensemble(&[], Pool::Linear).is_none());
    }

    #[test]
    fn log_linear_pool_sharpens_agreement() {
        let a = normal(0.8, 0.4, "a");
        let b = normal(0.8, 0.4, "b");
        let members = [Member { forecast: &a, weight: 1.0 }, Member { forecast: &b, weight: 1.0 }];
        let lin = ensemble(&members, Pool::Linear).expect("linear");
        let log = ensemble(&members, Pool::LogLinear).expect("log-linear");
        assert!(sums_to_one(&log));
        assert!((log.speedup.log2() - 0.8).abs() < 1e-9);
        assert!((lin.confidence - a.confidence).abs() < 1e-6, "a mixture of equals is the same forecast");
        let llm = Forecast::from_bins(BinProbs([0.0, 0.0, 0.0, 0.0, 0.1, 0.6, 0.3, 0.0]), "llm", Vec::new());
        let both =
            ensemble(&[Member { forecast: &a, weight: 0.5 }, Member { forecast: &llm, weight: 0.5 }], Pool::LogLinear)
                .expect("both");
        assert!(both.bins.0[5] > a.bins.0[5].min(llm.bins.0[5]));
        assert_eq!(both.claim, Claim::Faster);
    }

    #[test]
    fn identical_only_when_all_members_agree() {
        let same = Forecast::same_kernel("a");
        let other = normal(0.0, 0.05, "b");
        let f = ensemble(
            &[Member { forecast: &same, weight: 1.0 }, Member { forecast: &other, weight: 1.0 }],
            Pool::Linear,
        )
        .expect("ensemble");
        assert!(!f.identical);
        let g =
            ensemble(&[Member { forecast: &same, weight: 1.0 }, Member { forecast: &same, weight: 1.0 }], Pool::Linear)
                .expect("ensemble");
        assert!(g.identical);
    }
}
