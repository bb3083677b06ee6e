//! Making a forecast less sure of itself: what the model does not know (a kernel pairing it
//! guessed, sizes it assumed, code unlike its training data) widens the distribution
//! over log2 S and lowers the confidence, never the other way round.

use super::Forecast;
use crate::bins::{BinProbs, LOG2_EDGES, NUM_BINS};

/// Width of the wide normal around "no change" that stands for a forecast the model
/// cannot vouch for at all.
const LOST_SIGMA: f64 = 2.5;

/// What to add to a forecast's uncertainty.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Doubt {
    /// Added in quadrature to the spread over log2 S.
    pub sigma: f64,
    /// Weight (0..1) of a wide normal around no change mixed in.
    pub lost: f64,
    /// The confidence may not exceed this (1: no cap).
    pub cap: f64,
}

impl Default for Doubt {
    fn default() -> Self {
        Self::NONE
    }
}

impl Doubt {
    pub const NONE: Doubt = Doubt { sigma: 0.0, lost: 0.0, cap: 1.0 };

    pub fn is_none(&self) -> bool {
        self.sigma <= 0.0 && self.lost <= 0.0 && self.cap >= 1.0
    }

    /// Both doubts at once.
    pub fn and(self, other: Doubt) -> Doubt {
        Doubt {
            sigma: self.sigma.hypot(other.sigma),
            lost: 1.0 - (1.0 - self.lost.clamp(0.0, 1.0)) * (1.0 - other.lost.clamp(0.0, 1.0)),
            cap: self.cap.min(other.cap),
        }
    }
}

impl Forecast {
    /// The forecast with `doubt` added: each bin's mass spread by a normal of σ =
    /// `doubt.sigma`, a share `doubt.lost` moved to a wide normal around no change, the
    /// claim's confidence lowered by as much as its raw probability fell (so a calibrated
    /// confidence stays on its scale) and capped. The point forecast and claim stay.
    pub fn widened(&self, doubt: Doubt, reason: Option<String>) -> Forecast {
        if doubt.is_none() || self.identical {
            let mut f = self.clone();
            f.reasons.extend(reason);
            return f;
        }
        let mu = self.speedup.max(1e-12).log2();
        let mut bins = [0.0; NUM_BINS];
        for (k, &mass) in self.bins.0.iter().enumerate() {
            if mass <= 0.0 {
                continue;
            }
            let (center, width) = bin_center(k);
            let sigma = (width * width / 12.0 + doubt.sigma * doubt.sigma).sqrt();
            for (b, p) in bins.iter_mut().zip(BinProbs::from_log2_normal(center, sigma).0) {
                *b += mass * p;
            }
        }
        let lost = doubt.lost.clamp(0.0, 1.0);
        if lost > 0.0 {
            for (b, p) in bins.iter_mut().zip(BinProbs::from_log2_normal(0.0, LOST_SIGMA).0) {
                *b = (1.0 - lost) * *b + lost * p;
            }
        }
        let sigma = self.sigma.hypot(doubt.sigma);
        let mut f = Forecast::from_bins_with_moments(
            BinProbs(bins),
            mu,
            sigma,
            &self.forecaster,
            self.reasons.iter().cloned().chain(reason).collect(),
        );
        // The claim keeps its direction; its probability falls as the raw one did.
        let before = raw_confidence(self);
        let after = raw_confidence_of(&f, self.claim);
        f.claim = self.claim;
        let scaled = if before > 0.0 { self.confidence * (after / before).min(1.0) } else { after };
        f.confidence = scaled.min(doubt.cap).clamp(0.0, 0.995);
        f
    }
}

/// The raw probability of a forecast's own claim, from its bins.
fn raw_confidence(f: &Forecast) -> f64 {
    raw_confidence_of(f, f.claim)
}

fn raw_confidence_of(f: &Forecast, claim: super::Claim) -> f64 {
    match claim {
        super::Claim::Faster => f.bins.p_faster(),
        super::Claim::Slower => 1.0 - f.bins.p_faster(),
        super::Claim::Same => f.bins.0[3] + f.bins.0[4],
    }
}

/// Center and width of bin `k` over log2 S (the outer bins as one octave wide).
fn bin_center(k: usize) -> (f64, f64) {
    let lo = if k == 0 { LOG2_EDGES[0] - 1.0 } else { LOG2_EDGES[k - 1] };
    let hi = if k == NUM_BINS - 1 { LOG2_EDGES[NUM_BINS - 2] + 1.0 } else { LOG2_EDGES[k] };
    (0.5 * (lo + hi), hi - lo)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::forecast::Claim;

    #[test]
    fn doubt_lowers_confidence_keeps_the_claim_and_never_raises_it() {
        let f = Forecast::from_log2_normal(1.5, 0.4, "t", vec!["r".into()]);
        assert_eq!(f.claim, Claim::Faster);
        let w = f.widened(Doubt { sigma: 1.0, lost: 0.3, cap: 1.0 }, Some("guessed".into()));
        assert_eq!(w.claim, Claim::Faster);
        assert!(w.confidence < f.confidence, "{} vs {}", w.confidence, f.confidence);
        assert!((w.bins.0.iter().sum::<f64>() - 1.0).abs() < 1e-9);
        assert_eq!(w.speedup, f.speedup);
        assert_eq!(w.reasons.last().map(String::as_str), Some("guessed"));
        let capped = f.widened(Doubt { cap: 0.5, ..Doubt::NONE }, None);
        assert!(capped.confidence <= 0.5);
        assert_eq!(f.widened(Doubt::NONE, None), f);
    }
}
