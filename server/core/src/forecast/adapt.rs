//! Learning from the user's own measurements: each verified pair on a device refines
//! the trained model's calibration for that device ([`Adjustment`]).
//!
//! Bounded: only the newest [`WINDOW`] measurements count, each scale is shrunk toward
//! 1 with a prior worth [`PRIOR`] measurements and clamped, so a handful of odd kernels
//! cannot turn the model upside down. Versioned and reversible: every refit is kept in
//! a small JSON file per device next to the store, with the active version; rolling
//! back or resetting only moves that pointer.

use super::trained::{Adjustment, Estimate, Model};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// Measurements used, newest first.
pub const WINDOW: usize = 500;
/// Weight of the shipped calibration, in measurements.
pub const PRIOR: f64 = 20.0;
/// Largest residual a single measurement contributes, in log2 units.
const CLIP: f64 = 2.0;
/// Versions kept in the history.
const HISTORY: usize = 20;

/// One measured pair: the model's estimate (before any adjustment) and the measured
/// log2 S.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Observation {
    pub raw: Estimate,
    pub measured: f64,
    /// When it was measured (seconds since the epoch), to keep the newest.
    pub at: u64,
}

/// Σ x·y and Σ x² of (estimated, measured) log2 S pairs, each measurement clipped to
/// within [`CLIP`] of its estimate: the least-squares slope through the origin is their
/// ratio.
pub(crate) fn slope_sums(points: impl Iterator<Item = (f64, f64)>) -> (f64, f64) {
    points.fold((0.0, 0.0), |(xy, xx), (x, y)| (xy + x * y.clamp(x - CLIP, x + CLIP), xx + x * x))
}

/// Fits an adjustment to `observations` (any order); `None` when there are none.
pub fn fit(model: &Model, observations: &[Observation], version: u32) -> Option<Adjustment> {
    let mut obs: Vec<&Observation> =
        observations.iter().filter(|o| o.raw.mu.is_finite() && o.measured.is_finite()).collect();
    if obs.is_empty() {
        return None;
    }
    obs.sort_by_key(|o| std::cmp::Reverse(o.at));
    obs.truncate(WINDOW);
    let n = obs.len() as f64;
    // A measurement far from the forecast counts as at most this far (log2 units).
    let clip = |o: &Observation| o.measured.clamp(o.raw.mu - CLIP, o.raw.mu + CLIP);
    // Scale of the forecast change: least squares through the origin, shrunk toward 1.
    let (sxy, sxx) = slope_sums(obs.iter().map(|o| (o.raw.mu, o.measured)));
    let mean_xx = sxx / n;
    let prior_xx = PRIOR * mean_xx.max(0.25);
    let mu_scale = ((sxy + prior_xx) / (sxx + prior_xx)).clamp(0.5, 1.5);
    // Scale of the spread: the residuals' mean squared z-score, shrunk toward 1.
    let z2: f64 = obs
        .iter()
        .map(|o| {
            let e = o.raw.scaled(mu_scale);
            ((clip(o) - e.mu) / model.spread.sigma(e)).powi(2)
        })
        .sum();
    let sigma_scale = ((z2 + PRIOR) / (n + PRIOR)).sqrt().clamp(0.5, 3.0);
    Some(Adjustment { mu_scale, sigma_scale, measurements: obs.len(), version })
}

/// The calibration history of one device.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct History {
    pub device: String,
    /// Fingerprint of the model the versions were fitted for.
    pub model: String,
    pub versions: Vec<Adjustment>,
    /// The version in use (0: none, the shipped calibration).
    pub active: u32,
}

impl History {
    /// The file that keeps a device's history in `dir`.
    pub fn path(dir: &Path, device: &str) -> PathBuf {
        let slug: String =
            device.chars().map(|c| if c.is_ascii_alphanumeric() { c.to_ascii_lowercase() } else { '-' }).collect();
        dir.join(format!("calibration-{slug}.json"))
    }

    /// Reads the history; a missing file is an empty one, one fitted for another model
    /// is ignored (it does not apply), a broken one is an error naming the file.
    pub fn load(dir: &Path, device: &str, model: &Model) -> Result<Self, String> {
        let path = Self::path(dir, device);
        let fresh = Self { device: device.to_string(), model: model.fingerprint(), ..Self::default() };
        let text = match std::fs::read_to_string(&path) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(fresh),
            Err(e) => return Err(format!("cannot read {}: {e}", path.display())),
        };
        let history: History =
            serde_json::from_str(&text).map_err(|e| format!("{} is not a calibration history: {e}", path.display()))?;
        Ok(if history.model == fresh.model { history } else { fresh })
    }

    pub fn save(&self, dir: &Path) -> Result<PathBuf, String> {
        let path = Self::path(dir, &self.device);
        std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
        let text = serde_json::to_string_pretty(self).map_err(|e| e.to_string())?;
        let tmp = path.with_extension("json.tmp");
        std::fs::write(&tmp, text).map_err(|e| format!("cannot write {}: {e}", tmp.display()))?;
        std::fs::rename(&tmp, &path).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        Ok(path)
    }

    /// The adjustment in use, if any.
    pub fn current(&self) -> Option<Adjustment> {
        self.versions.iter().find(|a| a.version == self.active).copied()
    }

    /// Refits from `observations`; returns the new adjustment if it differs from the
    /// current one (then it becomes the active version).
    pub fn refit(&mut self, model: &Model, observations: &[Observation]) -> Option<Adjustment> {
        let next = self.versions.iter().map(|a| a.version).max().unwrap_or(0) + 1;
        let adj = fit(model, observations, next)?;
        let same = self.current().is_some_and(|c| {
            c.measurements == adj.measurements
                && (c.mu_scale - adj.mu_scale).abs() < 1e-9
                && (c.sigma_scale - adj.sigma_scale).abs() < 1e-9
        });
        if same {
            return None;
        }
        self.versions.push(adj);
        if self.versions.len() > HISTORY {
            self.versions.remove(0);
        }
        self.active = next;
        Some(adj)
    }

    /// Goes back to the version before the active one (or to none).
    pub fn rollback(&mut self) -> Option<Adjustment> {
        let prev = self.versions.iter().map(|a| a.version).filter(|v| *v < self.active).max().unwrap_or(0);
        self.active = prev;
        self.current()
    }

    /// Back to the shipped calibration; the history is kept.
    pub fn reset(&mut self) {
        self.active = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at_mu(mu: f64) -> Estimate {
        Estimate { mu, disagreement: 0.0 }
    }

    fn model() -> std::sync::Arc<Model> {
        Model::shipped().expect("the shipped model loads")
    }

    #[test]
    fn a_model_that_overstates_changes_is_scaled_down_within_bounds() {
        let m = model();
        // The user's kernels move half as much as forecast, consistently.
        let obs: Vec<Observation> = (0..200)
            .map(|i| {
                let mu = ((i % 9) as f64 - 4.0) * 0.5;
                Observation { raw: at_mu(mu), measured: 0.5 * mu, at: i }
            })
            .collect();
        let a = fit(&m, &obs, 1).expect("fits");
        assert!(a.mu_scale < 0.7 && a.mu_scale >= 0.5, "{a:?}");
        // A few wild measurements barely move it.
        let few: Vec<Observation> = (0..3).map(|i| Observation { raw: at_mu(1.0), measured: -5.0, at: i }).collect();
        let b = fit(&m, &few, 1).expect("fits");
        assert!(b.mu_scale > 0.6 && b.sigma_scale <= 3.0, "{b:?}");
    }

    #[test]
    fn history_is_versioned_and_reversible() {
        let m = model();
        let dir = tempfile::tempdir().expect("tempdir");
        let mut h = History::load(dir.path(), "H100", &m).expect("empty");
        assert_eq!(h.current(), None);
        let obs = [Observation { raw: at_mu(1.0), measured: 0.5, at: 1 }];
        let first = h.refit(&m, &obs).expect("first version");
        assert_eq!(first.version, 1);
        assert!(h.refit(&m, &obs).is_none(), "same data, no new version");
        let more = [obs[0], Observation { raw: at_mu(2.0), measured: 1.0, at: 2 }];
        assert_eq!(h.refit(&m, &more).map(|a| a.version), Some(2));
        h.save(dir.path()).expect("saved");
        let mut back = History::load(dir.path(), "H100", &m).expect("loads");
        assert_eq!(back.current().map(|a| a.version), Some(2));
        assert_eq!(back.rollback().map(|a| a.version), Some(1));
        back.reset();
        assert_eq!(back.current(), None);
    }
}
