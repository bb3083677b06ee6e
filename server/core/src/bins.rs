//! The paper's 8 half-octave speedup bins over S = t_base / t_new.

use serde::{Deserialize, Serialize};

/// Number of bins.
pub const NUM_BINS: usize = 8;

/// Upper edges of bins 1..7 in S (bin 8 is open-ended).
pub const EDGES: [f64; 7] = [0.25, 0.5, std::f64::consts::FRAC_1_SQRT_2, 1.0, std::f64::consts::SQRT_2, 2.0, 4.0];

/// The same edges in log2 S.
pub const LOG2_EDGES: [f64; 7] = [-2.0, -1.0, -0.5, 0.0, 0.5, 1.0, 2.0];

/// Human names of the bins, slowest first.
pub const NAMES: [&str; NUM_BINS] = [
    "severe slowdown",
    "significant slowdown",
    "moderate slowdown",
    "minor slowdown",
    "minor speedup",
    "significant speedup",
    "high speedup",
    "extreme speedup",
];

/// Short labels of the bins' ranges, slowest first.
pub const RANGES: [&str; NUM_BINS] =
    ["≤0.25×", "0.25–0.5×", "0.5–0.71×", "0.71–1×", "1–1.41×", "1.41–2×", "2–4×", ">4×"];

/// Index (0-based, 0 = slowest) of the bin that holds speedup `s`.
pub fn bin_of(s: f64) -> usize {
    if !s.is_finite() || s <= 0.0 {
        return if s.is_infinite() { NUM_BINS - 1 } else { 0 };
    }
    EDGES.iter().position(|&edge| s <= edge).unwrap_or(NUM_BINS - 1)
}

/// A probability distribution over the 8 bins, slowest bin first.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct BinProbs(pub [f64; NUM_BINS]);

impl BinProbs {
    /// Discretises a normal distribution over log2 S with mean `mu` and spread `sigma`.
    pub fn from_log2_normal(mu: f64, sigma: f64) -> Self {
        let sigma = sigma.max(1e-6);
        let mut probs = [0.0; NUM_BINS];
        let mut below = 0.0;
        for (i, edge) in LOG2_EDGES.iter().enumerate() {
            let cdf = normal_cdf((edge - mu) / sigma);
            probs[i] = (cdf - below).max(0.0);
            below = cdf;
        }
        probs[NUM_BINS - 1] = (1.0 - below).max(0.0);
        Self(probs).normalized()
    }

    /// Rescales so the probabilities sum to one (uniform if they sum to zero).
    pub fn normalized(self) -> Self {
        let total: f64 = self.0.iter().filter(|p| p.is_finite()).sum();
        if total <= 0.0 || !total.is_finite() {
            return Self([1.0 / NUM_BINS as f64; NUM_BINS]);
        }
        let mut out = [0.0; NUM_BINS];
        for (o, p) in out.iter_mut().zip(self.0) {
            *o = if p.is_finite() { p.max(0.0) / total } else { 0.0 };
        }
        Self(out)
    }

    /// Probability that the new version is faster (S > 1): bins 5..8.
    pub fn p_faster(&self) -> f64 {
        self.0[4..].iter().sum()
    }

    /// Index of the most likely bin.
    pub fn argmax(&self) -> usize {
        let mut best = 0;
        for (i, p) in self.0.iter().enumerate() {
            if *p > self.0[best] {
                best = i;
            }
        }
        best
    }
}

/// Standard normal cumulative distribution function (Abramowitz–Stegun 7.1.26, |error| < 1.5e-7).
pub fn normal_cdf(x: f64) -> f64 {
    if x.is_nan() {
        return 0.5;
    }
    let z = x.abs() / std::f64::consts::SQRT_2;
    let t = 1.0 / (1.0 + 0.327_591_1 * z);
    let poly =
        t * (0.254_829_592 + t * (-0.284_496_736 + t * (1.421_413_741 + t * (-1.453_152_027 + t * 1.061_405_429))));
    let erf = 1.0 - poly * (-z * z).exp();
    if x >= 0.0 {
        0.5 * (1.0 + erf)
    } else {
        0.5 * (1.0 - erf)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bins_follow_the_paper_edges() {
        assert_eq!(bin_of(0.2), 0);
        assert_eq!(bin_of(0.25), 0);
        assert_eq!(bin_of(0.3), 1);
        assert_eq!(bin_of(0.7), 2);
        assert_eq!(bin_of(1.0), 3);
        assert_eq!(bin_of(1.2), 4);
        assert_eq!(bin_of(1.9), 5);
        assert_eq!(bin_of(3.0), 6);
        assert_eq!(bin_of(9.0), 7);
        assert_eq!(bin_of(f64::NAN), 0);
    }

    #[test]
    fn discretised_normal_sums_to_one_and_centres() {
        let p = BinProbs::from_log2_normal(0.8, 0.3);
        let sum: f64 = p.0.iter().sum();
        assert!((sum - 1.0).abs() < 1e-9);
        assert_eq!(p.argmax(), 5);
        assert!(p.p_faster() > 0.99);
    }

    #[test]
    fn cdf_is_accurate() {
        assert!((normal_cdf(0.0) - 0.5).abs() < 1e-7);
        assert!((normal_cdf(1.0) - 0.841_344_7).abs() < 1e-6);
        assert!((normal_cdf(-2.0) - 0.022_750_1).abs() < 1e-6);
    }
}
