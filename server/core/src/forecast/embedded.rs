//! The embedded forecaster: a pairwise roofline model, no network, no GPU.
//!
//! Each version is profiled ([`crate::features`]) into a modelled cost; the forecast is
//! a normal distribution over log2 S centred on the (damped) log-ratio of the costs,
//! whose spread grows with the size of the claimed change, with what had to be
//! assumed, and when the code changed in ways the model does not see.

use super::{explain, Forecast, Forecaster};
use crate::features::{self, Profile, Rates};
use crate::hash::ContentHash;
use crate::kernel::Kernel;
use lru::LruCache;
use std::num::NonZeroUsize;
use std::sync::{Arc, Mutex};

/// Name and version of this model.
pub const ID: &str = "embedded-roofline/1";

/// Models overstate differences (caches and the memory system smooth them out).
const DAMPING: f64 = 0.85;
/// Spread for measurement noise and effects outside the model, in log2 units.
const BASE_SIGMA: f64 = 0.15;
/// Spread that grows with the size of the forecast change.
const RELATIVE_SIGMA: f64 = 0.3;
/// Extra spread per assumed quantity.
const GUESS_SIGMA: f64 = 0.05;
/// Extra spread when the code changed but the profile barely did.
const UNSEEN_SIGMA: f64 = 0.25;

/// The model's free parameters (log2 units). `Params::default()` is the shipped model;
/// `kforecast eval --fit` searches them on a corpus's training split.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Params {
    pub damping: f64,
    pub base_sigma: f64,
    pub relative_sigma: f64,
    pub guess_sigma: f64,
    pub unseen_sigma: f64,
}

impl Default for Params {
    fn default() -> Self {
        Self {
            damping: DAMPING,
            base_sigma: BASE_SIGMA,
            relative_sigma: RELATIVE_SIGMA,
            guess_sigma: GUESS_SIGMA,
            unseen_sigma: UNSEEN_SIGMA,
        }
    }
}

pub struct EmbeddedForecaster {
    params: Params,
    rates: Rates,
    profiles: Mutex<LruCache<ContentHash, Arc<Profile>>>,
}

impl Default for EmbeddedForecaster {
    fn default() -> Self {
        Self::new()
    }
}

impl EmbeddedForecaster {
    pub fn new() -> Self {
        Self::with_rates(Rates::H100)
    }

    pub fn with_rates(rates: Rates) -> Self {
        let capacity = NonZeroUsize::new(4096).unwrap_or(NonZeroUsize::MIN);
        Self { params: Params::default(), rates, profiles: Mutex::new(LruCache::new(capacity)) }
    }

    /// Profile of a kernel version, cached by its identity.
    pub fn profile(&self, kernel: &Kernel) -> Arc<Profile> {
        let key = kernel.identity();
        if let Ok(mut cache) = self.profiles.lock() {
            if let Some(p) = cache.get(&key) {
                return p.clone();
            }
        }
        let profile = Arc::new(features::profile_with(kernel, &self.rates));
        if let Ok(mut cache) = self.profiles.lock() {
            cache.put(key, profile.clone());
        }
        profile
    }

    /// Profile of a kernel version with the sizes nothing in the code gives taken as
    /// `assumed` (cached by identity and size).
    pub fn profile_assuming(&self, kernel: &Kernel, assumed: f64) -> Arc<Profile> {
        if assumed == features::expr::ASSUMED_SIZE {
            return self.profile(kernel);
        }
        let key = crate::hash::Hasher::new().hash(&kernel.identity()).str(&assumed.to_bits().to_string()).finish();
        if let Ok(mut cache) = self.profiles.lock() {
            if let Some(p) = cache.get(&key) {
                return p.clone();
            }
        }
        let profile = Arc::new(features::profile_assuming(kernel, &self.rates, assumed));
        if let Ok(mut cache) = self.profiles.lock() {
            cache.put(key, profile.clone());
        }
        profile
    }

    /// The device rates profiles are made with.
    pub fn rates(&self) -> &Rates {
        &self.rates
    }

    /// The model's parameters.
    pub fn params(&self) -> Params {
        self.params
    }

    /// The pairwise model on two profiles.
    pub fn forecast_profiles(&self, base: &Profile, candidate: &Profile) -> Forecast {
        self.forecast_profiles_with(&self.params, base, candidate)
    }

    /// The pairwise model with other parameters (for fitting them).
    pub fn forecast_profiles_with(&self, p: &Params, base: &Profile, candidate: &Profile) -> Forecast {
        let ratio = base.cost.total / candidate.cost.total.max(1e-9);
        let mu = p.damping * ratio.log2();
        let guesses = f64::from((base.guesses + candidate.guesses).min(8));
        let unseen = if feature_distance(base, candidate) < 0.02 { p.unseen_sigma } else { 0.0 };
        let sigma = (p.base_sigma.powi(2)
            + (p.relative_sigma * mu).powi(2)
            + (p.guess_sigma * guesses).powi(2)
            + unseen * unseen)
            .sqrt();
        Forecast::from_log2_normal(mu, sigma, ID, explain::reasons(base, candidate))
    }
}

/// Relative change of the feature vector (0: identical profiles).
fn feature_distance(a: &Profile, b: &Profile) -> f64 {
    let (va, vb) = (a.features.values(), b.features.values());
    let mut total = 0.0;
    for (x, y) in va.iter().zip(vb.iter()) {
        let scale = x.abs().max(y.abs());
        if scale > 0.0 {
            total += ((x - y).abs() / scale).min(1.0);
        }
    }
    total / va.len().max(1) as f64 + (a.cost.total - b.cost.total).abs() / a.cost.total.max(b.cost.total).max(1e-9)
}

impl Forecaster for EmbeddedForecaster {
    fn id(&self) -> &str {
        ID
    }

    fn weight(&self, kernel: &Kernel) -> f64 {
        self.profile(kernel).cost.total
    }

    fn forecast(&self, base: &Kernel, candidate: &Kernel) -> Forecast {
        let (base, candidate) = super::same_problem(base, candidate);
        if base.identity() == candidate.identity() {
            return Forecast::same_kernel(ID);
        }
        let (b, c) = (self.profile(&base), self.profile(&candidate));
        self.forecast_profiles(&b, &c)
    }
}
