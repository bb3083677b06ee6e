//! Forecasts of the speedup S = t_base / t_new of a kernel edit.

pub mod adapt;
mod combine;
mod embedded;
mod ensemble;
mod explain;
pub mod fast_trees;
pub mod gbt;
pub mod llm_prompt;
pub mod novelty;
pub mod program;
mod program_profile;
pub mod read_doubts;
pub mod train;
pub mod trained;
mod widen;

use crate::bins::BinProbs;
use crate::kernel::Kernel;
use serde::{Deserialize, Serialize};

pub use combine::{combine, forecast_unit, Part};
pub use embedded::{EmbeddedForecaster, Params};
pub use ensemble::{ensemble, ensemble_id, log2_moments, Member, Pool};
pub use program::{forecast_program, with_code_around, PairingDoubt, ProgramForecast};
pub use trained::{Adjustment, Model, TrainedForecaster};
pub use widen::Doubt;

/// Whether every kernel of a program is code without `kforecast:` declarations (read from
/// host code or assumed, as other people's code is): such forecasts get the model's
/// `Spread::undeclared` doubt.
pub fn undeclared<'a>(kernels: impl IntoIterator<Item = &'a Kernel>) -> bool {
    kernels.into_iter().all(|k| k.declared.is_empty())
}

/// The two versions of a pair at one problem size. A version whose declaration differs
/// takes the candidate's (the base's when the candidate declares nothing), as a
/// measurement of the pair would: adding or editing the `kforecast:` line changes what is
/// measured, not how fast the kernel is.
/// Likewise, a version whose tensors' element size nothing gives takes the other's (see
/// [`program_profile::share_element_sizes`]).
pub fn same_problem<'a>(
    base: &'a Kernel,
    candidate: &'a Kernel,
) -> (std::borrow::Cow<'a, Kernel>, std::borrow::Cow<'a, Kernel>) {
    let (base, candidate) = same_declarations(base, candidate);
    program_profile::share_element_size(base, candidate)
}

fn same_declarations<'a>(
    base: &'a Kernel,
    candidate: &'a Kernel,
) -> (std::borrow::Cow<'a, Kernel>, std::borrow::Cow<'a, Kernel>) {
    use std::borrow::Cow;
    if base.declared == candidate.declared {
        return (Cow::Borrowed(base), Cow::Borrowed(candidate));
    }
    let with = |k: &Kernel, declared: &crate::declaration::Declared| {
        let mut k = k.clone();
        k.declared = declared.clone();
        k.identity = k.compute_identity();
        k
    };
    if candidate.declared.is_empty() {
        (Cow::Borrowed(base), Cow::Owned(with(candidate, &base.declared)))
    } else {
        (Cow::Owned(with(base, &candidate.declared)), Cow::Borrowed(candidate))
    }
}

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

/// Mass of normal(μ, σ) over log2 S within the no-change band.
pub fn same_band_mass(mu: f64, sigma: f64) -> f64 {
    let s = sigma.max(1e-6);
    crate::bins::normal_cdf((SAME_BAND - mu) / s) - crate::bins::normal_cdf((-SAME_BAND - mu) / s)
}

impl Forecast {
    /// Builds a forecast from a normal distribution over log2 S.
    pub fn from_log2_normal(mu: f64, sigma: f64, forecaster: &str, reasons: Vec<String>) -> Self {
        Self::from_bins_with_moments(BinProbs::from_log2_normal(mu, sigma), mu, sigma, forecaster, reasons)
    }

    /// Builds a forecast from a mixture over log2 S: with probability `1 − outlier` a
    /// normal(μ, σ), otherwise a wide normal(0, `outlier_sigma`) that stands for the
    /// model being out of its depth. The claim follows μ; its confidence is the mixture's.
    pub fn from_log2_mixture(
        mu: f64,
        sigma: f64,
        outlier: f64,
        outlier_sigma: f64,
        forecaster: &str,
        reasons: Vec<String>,
    ) -> Self {
        let w = outlier.clamp(0.0, 1.0);
        if w == 0.0 {
            return Self::from_log2_normal(mu, sigma, forecaster, reasons);
        }
        let (core, wide) = (BinProbs::from_log2_normal(mu, sigma), BinProbs::from_log2_normal(0.0, outlier_sigma));
        let mut bins = core;
        for (b, o) in bins.0.iter_mut().zip(wide.0.iter()) {
            *b = (1.0 - w) * *b + w * o;
        }
        let mut f = Self::from_bins_with_moments(bins, mu, sigma.max(1e-6), forecaster, reasons);
        if f.claim == Claim::Same {
            f.confidence =
                ((1.0 - w) * same_band_mass(mu, sigma) + w * same_band_mass(0.0, outlier_sigma)).clamp(0.0, 0.995);
        }
        f
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

impl Forecast {
    /// The forecast against what it compares with: `≈1.8× faster than HEAD`,
    /// `same speed as HEAD (≈1.04×)`, `the same kernel as HEAD`.
    pub fn versus(&self, baseline: &str) -> String {
        match self.claim {
            Claim::Same if self.identical => format!("the same kernel as {baseline}"),
            Claim::Same => format!("same speed as {baseline} (≈{:.2}×)", self.speedup),
            _ => format!("{} than {baseline}", self.headline()),
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

    /// Forecasts two groups of kernels, each taken as one program (its kernels launched
    /// once each, in order), where the kernels do not pair one to one. `None` where the
    /// forecaster cannot (the unit is then combined from what pairs).
    fn forecast_programs(&self, _base: &[&Kernel], _candidate: &[&Kernel]) -> Option<Forecast> {
        None
    }
}
