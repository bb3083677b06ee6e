//! The trained forecaster: gradient-boosted trees over the differences of two
//! profiles, with a fitted spread, shipped as weights in the repository
//! (`server/core/model/h100.json`, retrained with `kforecast train corpus`).
//!
//! The model is antisymmetric by construction: swapping the two versions negates the
//! forecast log2 S. The spread of the normal over log2 S grows with the size of the
//! forecast change; both spread parameters are fitted on out-of-family predictions, so
//! the confidence is calibrated on families the trees did not see. A user's own
//! measurements can further adjust it per device ([`Adjustment`], see `adapt.rs`).

use super::fast_trees::CompiledMembers;
use super::gbt::{BoostParams, Booster};
use super::read_doubts::{read_doubts, with_costs};
use super::{explain, EmbeddedForecaster, Forecast, Forecaster};
use crate::features::{Features, Profile};
use crate::hash::ContentHash;
use crate::kernel::{Kernel, Language};
use serde::{Deserialize, Serialize};
use std::sync::Arc;

pub(crate) mod programs;
pub use programs::{size_prior, FLIP_CAP};

/// The weights trained on the corpus's H100 measurements, as shipped.
pub const SHIPPED_H100: &str = include_str!("../../model/h100.json");

/// Cost terms used as features, in order.
const COST_TERMS: [&str; 7] = ["memory", "shared", "sync", "atomics", "compute", "overhead", "total"];

/// Names of the pair features, in the order of [`pair_vector`]. The first
/// [`antisymmetric_len`] change sign when the two versions swap; the rest do not.
pub fn feature_names() -> Vec<String> {
    let mut names: Vec<String> = Features::NAMES.iter().map(|n| format!("dlog2 {n}")).collect();
    names.extend(COST_TERMS.iter().map(|t| format!("dlog2 cost.{t}")));
    names.extend(["dlog2 efficiency", "d guesses"].map(String::from));
    names.extend(["triton", "guesses", "log2 total"].map(String::from));
    names
}

/// How many leading pair features are antisymmetric.
pub fn antisymmetric_len() -> usize {
    Features::NAMES.len() + COST_TERMS.len() + 2
}

fn cost_terms(p: &Profile) -> [f64; 7] {
    let c = &p.cost;
    [c.memory, c.shared, c.sync, c.atomics, c.compute, c.overhead, c.total]
}

/// The pair's features: for (base, candidate), positive antisymmetric entries mean the
/// base has more of it.
pub fn pair_vector(base: &Profile, cand: &Profile) -> Vec<f64> {
    let l = |v: f64| (1.0 + v.abs()).log2();
    let mut x: Vec<f64> =
        base.features.values().iter().zip(cand.features.values().iter()).map(|(b, c)| l(*b) - l(*c)).collect();
    x.extend(cost_terms(base).iter().zip(cost_terms(cand).iter()).map(|(b, c)| l(*b) - l(*c)));
    x.push(base.cost.efficiency.max(1e-6).log2() - cand.cost.efficiency.max(1e-6).log2());
    x.push(f64::from(base.guesses) - f64::from(cand.guesses));
    x.push(if base.language == Language::Triton { 1.0 } else { 0.0 });
    x.push(f64::from(base.guesses + cand.guesses));
    x.push(l(base.cost.total) + l(cand.cost.total));
    x
}

/// The same pair with the versions swapped.
pub fn swapped(x: &[f64]) -> Vec<f64> {
    let k = antisymmetric_len();
    x.iter().enumerate().map(|(i, v)| if i < k { -v } else { *v }).collect()
}

/// The members' forecast of a pair: log2 S and how much the members disagree on it.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Estimate {
    /// The members' mean forecast of log2 S, made antisymmetric: the mean of the
    /// forecast for (base, candidate) and minus the one for (candidate, base).
    pub mu: f64,
    /// The standard deviation of the members' own (antisymmetric) forecasts: large where
    /// subsamples of the corpus teach different things, as for kernels unlike any in it.
    pub disagreement: f64,
}

impl Estimate {
    /// The same estimate with the forecast change scaled (a device's adjustment).
    pub fn scaled(self, mu_scale: f64) -> Self {
        Self { mu: self.mu * mu_scale, ..self }
    }
}

/// The members' forecast of the pair `x`.
pub fn estimate(members: &[Booster], x: &[f64]) -> Estimate {
    let y = swapped(x);
    let both: Vec<(f64, f64)> = members.iter().map(|b| (b.predict(x), b.predict(&y))).collect();
    from_predictions(&both)
}

/// [`estimate`] with the members compiled for speed: the same bits.
pub fn estimate_compiled(members: &CompiledMembers, x: &[f64]) -> Estimate {
    members.with_predictions(x, antisymmetric_len(), from_predictions)
}

/// The estimate from each member's forecast for (base, candidate) and (candidate, base).
fn from_predictions(both: &[(f64, f64)]) -> Estimate {
    let n = both.len().max(1) as f64;
    let mu = 0.5 * (both.iter().map(|p| p.0).sum::<f64>() / n - both.iter().map(|p| p.1).sum::<f64>() / n);
    let disagreement = (both.iter().map(|(a, b)| (0.5 * (a - b) - mu).powi(2)).sum::<f64>() / n).sqrt();
    Estimate { mu, disagreement }
}

/// Spread of the forecast over log2 S: a normal of
/// σ = `sqrt(base² + (relative · μ)² + (disagreement · d)²)` (μ clamped to ±`cap`, d the
/// members' disagreement) around the forecast, mixed with weight `outlier` with a wide normal around no change
/// (the pairs where the features miss what matters).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Spread {
    pub base: f64,
    pub relative: f64,
    pub outlier: f64,
    pub outlier_sigma: f64,
    /// Platt map of the claim's confidence: `σ(claim_scale · logit(c) + claim_shift)`,
    /// fitted on out-of-family claims (the bins and the claim are calibrated apart).
    #[serde(default = "one")]
    pub claim_scale: f64,
    #[serde(default)]
    pub claim_shift: f64,
    /// σ stops growing with |μ| beyond this (a large forecast is no less sure of its
    /// direction than a middling one).
    #[serde(default = "no_cap")]
    pub cap: f64,
    /// How much the members' disagreement widens σ (0 in models trained before it).
    #[serde(default)]
    pub disagreement: f64,
    /// σ added (in quadrature) to forecasts of code without `kforecast:` declarations,
    /// whose sizes and launches are read from host code or assumed: the model's extra error
    /// on such programs, out of family (0 in models trained before it).
    #[serde(default)]
    pub undeclared: f64,
    /// What the trees' log2 S is multiplied by: the slope of the measured log2 S on the
    /// trees' estimate out of family. Boosted trees shrink their estimate toward no change,
    /// so a forecast of 1.5× stood for about 1.6× measured (1 in models trained before it).
    #[serde(default = "one")]
    pub stretch: f64,
}

fn one() -> f64 {
    1.0
}

fn no_cap() -> f64 {
    64.0
}

impl Default for Spread {
    /// A moderate spread with the claim's confidence as the mixture gives it.
    fn default() -> Self {
        Self {
            base: 0.5,
            relative: 0.5,
            outlier: 0.1,
            outlier_sigma: 3.0,
            claim_scale: 1.0,
            claim_shift: 0.0,
            cap: no_cap(),
            disagreement: 0.0,
            undeclared: 0.0,
            stretch: 1.0,
        }
    }
}

/// `σ(scale · logit(p) + shift)`.
pub fn platt(p: f64, scale: f64, shift: f64) -> f64 {
    let p = p.clamp(1e-6, 1.0 - 1e-6);
    let z = scale * (p / (1.0 - p)).ln() + shift;
    1.0 / (1.0 + (-z).exp())
}

impl Spread {
    pub fn sigma(&self, e: Estimate) -> f64 {
        let wide =
            (self.relative * e.mu.clamp(-self.cap, self.cap)).powi(2) + (self.disagreement * e.disagreement).powi(2);
        (self.base * self.base + wide).sqrt().max(0.02)
    }

    /// Whether the members' disagreement widens σ more than the rest of the spread does:
    /// a kernel unlike most of the corpus (on the train split, 7% of out-of-family forecasts,
    /// with three times the typical error).
    pub fn trees_disagree(&self, e: Estimate) -> bool {
        let rest = Estimate { disagreement: 0.0, ..e };
        self.disagreement * e.disagreement > self.sigma(rest)
    }

    /// The σ a forecast of code read with (or, `undeclared`, without) declarations gets
    /// beside its own.
    pub fn style_sigma(&self, undeclared: bool) -> f64 {
        if undeclared {
            self.undeclared
        } else {
            0.0
        }
    }

    /// The forecast for an estimate, with σ scaled by `sigma_scale`.
    pub fn forecast(&self, e: Estimate, sigma_scale: f64, id: &str, reasons: Vec<String>) -> Forecast {
        self.forecast_wider(e, sigma_scale, 0.0, id, reasons)
    }

    /// The forecast for an estimate with `extra` added to σ in quadrature (the spread of the
    /// estimate over the sizes it had to assume).
    pub fn forecast_wider(
        &self,
        e: Estimate,
        sigma_scale: f64,
        extra: f64,
        id: &str,
        reasons: Vec<String>,
    ) -> Forecast {
        let sigma = self.sigma(e).hypot(extra.max(0.0)) * sigma_scale;
        let wide = self.outlier_sigma * sigma_scale;
        let mut f = Forecast::from_log2_mixture(e.mu, sigma, self.outlier, wide, id, reasons);
        f.confidence = platt(f.confidence, self.claim_scale, self.claim_shift).min(0.995);
        f
    }
}

/// Where the weights came from.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Provenance {
    pub device: String,
    pub measurements: String,
    pub pairs: usize,
    pub families: usize,
    /// Out-of-family scores on the training split that chose the spread.
    #[serde(default)]
    pub cross_validation: serde_json::Value,
    /// Scores on the newest batches forecast by trees trained on the earlier ones, under
    /// the final spread (families newer than the trees, as users' kernels are).
    #[serde(default)]
    pub novel_batches: serde_json::Value,
}

/// A trained model: bagged boosters and the spread.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Model {
    /// Format version of this file.
    pub format: u32,
    pub features: Vec<String>,
    pub params: BoostParams,
    pub spread: Spread,
    pub provenance: Provenance,
    pub members: Vec<Booster>,
}

impl Model {
    /// Reads weights, checking they fit this build's features.
    pub fn from_json(text: &str) -> Result<Self, String> {
        let model: Model = serde_json::from_str(text).map_err(|e| format!("not a kforecast model: {e}"))?;
        if model.format != 1 {
            return Err(format!("model format {} is not supported (this build reads 1)", model.format));
        }
        if model.features != feature_names() {
            return Err("the model was trained on other features than this build computes; retrain it \
                        with `kforecast train`"
                .to_string());
        }
        if model.members.is_empty() {
            return Err("the model has no trees".to_string());
        }
        Ok(model)
    }

    /// The shipped H100 model, read once per process.
    pub fn shipped() -> Result<Arc<Self>, String> {
        static SHIPPED: std::sync::OnceLock<Result<Arc<Model>, String>> = std::sync::OnceLock::new();
        SHIPPED.get_or_init(|| Self::from_json(SHIPPED_H100).map(Arc::new)).clone()
    }

    /// The forecast of a pair vector (antisymmetric) and the members' disagreement.
    /// The model's estimate of the pair `x`: the members' forecast, stretched.
    pub fn estimate(&self, x: &[f64]) -> Estimate {
        estimate(&self.members, x).scaled(self.spread.stretch)
    }

    /// Short hash of the weights, part of the forecaster's id (and so of cache keys).
    pub fn fingerprint(&self) -> String {
        let text = serde_json::to_string(self).unwrap_or_default();
        ContentHash::of(text.as_bytes()).short()
    }
}

/// A per-device correction learned from the user's own measurements: the forecast
/// change is scaled by `mu_scale` and the spread by `sigma_scale`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Adjustment {
    pub mu_scale: f64,
    pub sigma_scale: f64,
    /// Measurements it was fitted on.
    pub measurements: usize,
    /// Increases with every refit; part of the forecaster's id.
    pub version: u32,
}

impl Default for Adjustment {
    fn default() -> Self {
        Self { mu_scale: 1.0, sigma_scale: 1.0, measurements: 0, version: 0 }
    }
}

/// The trained forecaster. Profiles (and reasons) come from the embedded analytic model.
pub struct TrainedForecaster {
    model: Arc<Model>,
    /// The training range of the pair features (none: every pair counts as covered).
    coverage: Option<super::novelty::Coverage>,
    /// The model's members, compiled once for speed.
    trees: CompiledMembers,
    adjustment: Adjustment,
    profiles: EmbeddedForecaster,
    id: String,
}

impl TrainedForecaster {
    pub fn new(model: Arc<Model>) -> Self {
        Self::with_adjustment(model, Adjustment::default())
    }

    pub fn with_adjustment(model: Arc<Model>, adjustment: Adjustment) -> Self {
        let mut id = format!("embedded-gbt/1+{}", model.fingerprint());
        if adjustment.version > 0 {
            id.push_str(&format!("+cal{}", adjustment.version));
        }
        let coverage = super::novelty::Coverage::shipped();
        if let Some(c) = &coverage {
            if c.sigma_per_feature > 0.0 || c.lost_per_feature > 0.0 {
                id.push_str(&format!("+cov{}", ContentHash::of(super::novelty::SHIPPED_COVERAGE.as_bytes()).short()));
            }
        }
        let trees = CompiledMembers::new(&model.members);
        Self { model, coverage, trees, adjustment, profiles: EmbeddedForecaster::new(), id }
    }

    /// The same forecaster with another training range (or none), for evaluation.
    pub fn with_coverage(mut self, coverage: Option<super::novelty::Coverage>) -> Self {
        self.set_coverage(coverage);
        self
    }

    /// Another training range (or none), keeping the profiles already read (a fit that
    /// tries many doubts over the same pairs).
    pub fn set_coverage(&mut self, coverage: Option<super::novelty::Coverage>) {
        self.coverage = coverage;
    }

    /// The same forecaster walking the trees as stored, node by node: the reference the
    /// compiled trees are benchmarked against (the same forecasts, slower).
    pub fn with_plain_trees(mut self) -> Self {
        self.trees = CompiledMembers::Plain(self.model.members.clone());
        self
    }

    /// The shipped model; an error only if its weights do not fit this build (caught by
    /// the tests).
    pub fn shipped() -> Result<Self, String> {
        Ok(Self::new(Model::shipped()?))
    }

    pub fn model(&self) -> &Arc<Model> {
        &self.model
    }

    pub fn adjustment(&self) -> Adjustment {
        self.adjustment
    }

    /// Profile of a kernel version (cached).
    pub fn profile(&self, kernel: &Kernel) -> Arc<Profile> {
        self.profiles.profile(kernel)
    }

    /// The model's estimate for two profiles (the trees' forecast, stretched), before the
    /// device's adjustment.
    pub fn raw_estimate(&self, base: &Profile, cand: &Profile) -> Estimate {
        estimate_compiled(&self.trees, &pair_vector(base, cand)).scaled(self.model.spread.stretch)
    }

    /// The forecast for two profiles.
    pub fn forecast_profiles(&self, base: &Profile, cand: &Profile) -> Forecast {
        self.forecast_read(base, cand, false)
    }

    /// The forecast for two profiles of code read with (or, `undeclared`, without)
    /// `kforecast:` declarations.
    fn forecast_read(&self, base: &Profile, cand: &Profile, undeclared: bool) -> Forecast {
        let estimate = self.raw_estimate(base, cand).scaled(self.adjustment.mu_scale);
        self.forecast_estimate(estimate, 0.0, undeclared, base, cand)
    }

    /// The forecast for an estimate, with reasons from the two (representative) profiles,
    /// widened for code read without declarations and where the pair lies outside the
    /// training range.
    fn forecast_estimate(
        &self,
        estimate: Estimate,
        extra: f64,
        undeclared: bool,
        base: &Profile,
        cand: &Profile,
    ) -> Forecast {
        let style = self.model.spread.style_sigma(undeclared);
        let mut f = self.forecast_estimate_covered(estimate, extra.hypot(style), base, cand);
        if style > 0.0 {
            f.reasons.push(format!(
                "less sure: read from code without `kforecast:` declarations (±{style:.2} in log2 S: the model's \
                 error on programs in other styles, measured out of family)"
            ));
        }
        let Some(coverage) = &self.coverage else { return f };
        if coverage.sigma_per_feature <= 0.0 && coverage.lost_per_feature <= 0.0 {
            return f;
        }
        let outside = coverage.outside(&pair_vector(base, cand));
        if outside.is_empty() {
            return f;
        }
        let names: Vec<&str> = outside
            .iter()
            .take(3)
            .filter_map(|&j| coverage.features.get(j).map(|n| n.trim_start_matches("dlog2 ")))
            .collect();
        let note = format!(
            "less sure: {} of this pair's features lie outside what the model was trained on ({})",
            outside.len(),
            names.join(", ")
        );
        f.widened(coverage.doubt(outside.len()), Some(note))
    }

    fn forecast_estimate_covered(&self, estimate: Estimate, extra: f64, base: &Profile, cand: &Profile) -> Forecast {
        let mut reasons = explain::reasons(base, cand);
        if self.model.spread.trees_disagree(estimate) {
            reasons.push(format!(
                "less sure: unlike most kernels the model was trained on (its trees disagree by ±{:.2} in log2 S)",
                estimate.disagreement
            ));
        }
        if self.adjustment.version > 0 {
            reasons.push(format!("calibrated on {} of your measurements on this device", self.adjustment.measurements));
        }
        self.model.spread.forecast_wider(estimate, self.adjustment.sigma_scale, extra, &self.id, reasons)
    }
}

impl Forecaster for TrainedForecaster {
    fn id(&self) -> &str {
        &self.id
    }

    fn forecast(&self, base: &Kernel, candidate: &Kernel) -> Forecast {
        let (base, candidate) = super::same_problem(base, candidate);
        if base.identity() == candidate.identity() {
            return Forecast::same_kernel(&self.id);
        }
        let (b, c) = (self.profile(&base), self.profile(&candidate));
        let undeclared = super::undeclared([&*base, &*candidate]);
        let f = if b.assumed.is_empty() && c.assumed.is_empty() {
            self.forecast_read(&b, &c, undeclared)
        } else {
            self.forecast_over_sizes(&base, &candidate, &b, &c)
        };
        read_doubts(f, &[(&base, b.cost.total)], &[(&candidate, c.cost.total)])
    }

    fn forecast_programs(&self, base: &[&Kernel], candidate: &[&Kernel]) -> Option<Forecast> {
        let f = TrainedForecaster::forecast_programs(self, base, candidate)?;
        let cost = |k: &Kernel| self.weight(k);
        Some(read_doubts(f, &with_costs(base.iter().copied(), cost), &with_costs(candidate.iter().copied(), cost)))
    }

    fn weight(&self, kernel: &Kernel) -> f64 {
        self.profile(kernel).cost.total
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::extract::extract_text;

    fn kernel(src: &str) -> Kernel {
        extract_text(Language::Cuda, src).kernels.into_iter().next().expect("a kernel")
    }

    #[test]
    fn the_shipped_model_loads_and_swapping_the_versions_negates_the_forecast() {
        let f = TrainedForecaster::shipped().expect("the shipped weights fit this build");
        let strided = kernel(
            "__global__ void k(float* o, const float* a, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; \
             if (i < n) o[i] = a[i * 32 % n]; }\nvoid go(float* o, const float* a) { k<<<4096, 256>>>(o, a, 1 << 20); }",
        );
        let coalesced = kernel(
            "__global__ void k(float* o, const float* a, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; \
             if (i < n) o[i] = a[i]; }\nvoid go(float* o, const float* a) { k<<<4096, 256>>>(o, a, 1 << 20); }",
        );
        let there = f.forecast(&strided, &coalesced);
        let back = f.forecast(&coalesced, &strided);
        assert!((there.speedup.log2() + back.speedup.log2()).abs() < 1e-9);
        assert!(there.bins.0.iter().sum::<f64>() > 0.999 && there.confidence <= 0.995);
        assert!(f.id().starts_with("embedded-gbt/1+"));
    }

    #[test]
    fn declaring_the_problem_is_not_a_change_of_speed() {
        let f = TrainedForecaster::shipped().expect("the shipped weights fit this build");
        let body = "__global__ void k(float* o, const float* a, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; \
                    if (i < n) o[i] = a[i]; }\nvoid go(float* o, const float* a, int n) { k<<<(n + 255) / 256, 256>>>(o, a, n); }";
        let plain = kernel(body);
        let declared = kernel(&format!("// kforecast: n = 1 << 12; a: f32[n] randn\n{body}"));
        assert!(!declared.declared.is_empty());
        assert!(f.forecast(&plain, &declared).identical);
        assert!(f.forecast(&declared, &plain).identical);
        // A real edit with a declaration added is compared at the declared size on both sides.
        let strided = kernel(&body.replace("a[i]", "a[i * 32 % n]"));
        let both = f.forecast(&strided, &declared);
        let declared_strided =
            kernel(&format!("// kforecast: n = 1 << 12; a: f32[n] randn\n{}", body.replace("a[i]", "a[i * 32 % n]")));
        assert_eq!(both.speedup, f.forecast(&declared_strided, &declared).speedup);
    }

    #[test]
    fn a_pair_the_members_disagree_on_is_forecast_less_surely() {
        let spread = Spread { disagreement: 6.0, ..Model::shipped().expect("loads").spread };
        let agreed = spread.forecast(Estimate { mu: 0.8, disagreement: 0.0 }, 1.0, "t", Vec::new());
        let split = spread.forecast(Estimate { mu: 0.8, disagreement: 0.15 }, 1.0, "t", Vec::new());
        assert_eq!(agreed.speedup, split.speedup, "the same forecast change");
        assert!(split.sigma > agreed.sigma && split.confidence < agreed.confidence, "{split:?} vs {agreed:?}");
        let top = |f: &Forecast| f.bins.0[f.bins.argmax()];
        assert!(top(&split) < top(&agreed));
        assert!(spread.trees_disagree(Estimate { mu: 0.0, disagreement: 0.1 }));
        assert!(!spread.trees_disagree(Estimate { mu: 0.8, disagreement: 0.05 }));
    }

    #[test]
    fn weights_for_other_features_are_refused_with_a_reason() {
        let mut m = Model::clone(&Model::shipped().expect("loads"));
        m.features.pop();
        let text = serde_json::to_string(&m).expect("json");
        assert!(Model::from_json(&text).is_err_and(|e| e.contains("retrain")));
        assert!(Model::from_json("{").is_err());
    }

    #[test]
    fn an_edit_to_a_kernel_modelled_past_any_real_run_is_never_hinted_surely() {
        // What an editor's hint forecasts: one kernel against its previous version.
        let f = TrainedForecaster::shipped().expect("the shipped weights fit this build");
        let spin = "// kforecast: n = 16777216\n__global__ void spin(const float* a, float* out, int n) { \
                    int i = blockIdx.x * blockDim.x + threadIdx.x; if (i >= n) return; float acc = 0.0f; \
                    for (long r = 0; r < 100000000000L; r++) acc += a[(i * 7 + r) % n]; out[i] = acc; }";
        let (base, cand) = (kernel(spin), kernel(&spin.replace("acc += a", "acc += 2.0f * a")));
        let hint = f.forecast(&base, &cand);
        assert!(hint.confidence <= FLIP_CAP, "{hint:?}");
        assert!(hint.reasons.iter().any(|r| r.contains("over 10 s a run")), "{:?}", hint.reasons);
    }
}
