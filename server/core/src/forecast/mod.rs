//! Forecasts of the speedup S = t_base / t_new of a kernel edit.

mod combine;
mod embedded;
mod ensemble;
mod explain;
pub mod llm_prompt;

use crate::bins::BinProbs;
use crate::kernel::Kernel;
use serde::{Deserialize, Serialize};

pub use combine::{combine, forecast_unit, Part};
pub use embedded::{EmbeddedForecaster, Params};
pub use ensemble::{ensemble, ensemble_id, log2_moments, Member, Pool};

/// What a forecast claims.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Claim {
    Faster,
    Slower,
    /// No meaningful change (|log2 S| < 0.2, about ±15%).
    Same,
}

/// A probabilistic forecast for one (base, candidate) pair.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Forecast {
    /// Point forecast of S = t_base / t_new (> 1: the new version is faster).
    pub speedup: f64,
    /// P(S > 1).
    pub p_faster: f64,
    /// Probability over the 8 half-octave bins, slowest first.
    pub bins: BinProbs,
    /// Probability that [`Forecast::claim`] holds.
    pub confidence: f64,
    /// Spread (standard deviation) of the forecast over log2 S.
    #[serde(default)]
    pub sigma: f64,
    pub claim: Claim,
    /// The two versions are the same kernel once comments, layout and local names go.
    pub identical: bool,
    /// Which forecaster produced it (name/version).
    pub forecaster: String,
    /// Why, most important first.
    pub reasons: Vec<String>,
}

/// |log2 S| under which a change counts as no change.
pub const SAME_BAND: f64 = 0.2;

impl Forecast {
    /// Builds a forecast from a normal distribution over log2 S.
    pub fn from_log2_normal(mu: f64, sigma: f64, forecaster: &str, reasons: Vec<String>) -> Self {
        Self::from_bins_with_moments(BinProbs::from_log2_normal(mu, sigma), mu, sigma, forecaster, reasons)
    }

    /// The forecast for two versions that are the same kernel once comments, layout and
    /// local names are set aside: ≈1.00×, confidently.
    pub fn same_kernel(forecaster: &str) -> Self {
        let mut f = Self::from_log2_normal(0.0, 0.03, forecaster, Vec::new());
        f.identical = true;
        f.reasons = vec!["same kernel: only comments, whitespace or local names changed".to_string()];
        f
    }

    /// Whether the forecast should be deferred to a GPU measurement.
    pub fn defer(&self, threshold: f64) -> bool {
        self.confidence < threshold
    }

    /// A confident forecast of a slowdown.
    pub fn is_regression(&self, threshold: f64) -> bool {
        self.claim == Claim::Slower && self.confidence >= threshold
    }

    /// Short label: `≈1.8× faster`, `≈1.3× slower`, `≈1.00×`.
    pub fn headline(&self) -> String {
        match self.claim {
            Claim::Faster => format!("≈{}× faster", fmt_ratio(self.speedup)),
            Claim::Slower => format!("≈{}× slower", fmt_ratio(1.0 / self.speedup.max(1e-9))),
            Claim::Same if self.identical => "≈1.00× (same kernel)".to_string(),
            Claim::Same => format!("≈{:.2}×", self.speedup),
        }
    }
}

fn fmt_ratio(r: f64) -> String {
    if r >= 10.0 {
        format!("{r:.0}")
    } else {
        format!("{r:.1}")
    }
}

/// A forecaster of relative kernel speed.
pub trait Forecaster: Send + Sync {
    /// Name and version; part of every cache key.
    fn id(&self) -> &str;

    /// Forecasts S = t_base / t_candidate for two versions of one kernel.
    fn forecast(&self, base: &Kernel, candidate: &Kernel) -> Forecast;

    /// Relative running time of one kernel version, used to weigh kernels when a
    /// whole file is forecast as one unit.
    fn weight(&self, kernel: &Kernel) -> f64;
}
