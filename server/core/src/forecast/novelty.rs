//! How far a pair lies from the pairs the model was trained on. Trees answer anywhere,
//! also far outside the data they saw, and there they are sure of an extrapolation; a
//! pair whose features lie outside the training range is forecast less surely.
//!
//! The range is each pair feature's 1st to 99th percentile over the training pairs
//! (`kforecast train CORPUS --coverage FILE` writes it), shipped beside the weights in
//! `server/core/model/h100-coverage.json`. How much each feature outside its range
//! widens the forecast is fitted on code written in other styles than the corpus.

use super::Doubt;
use serde::{Deserialize, Serialize};

/// The training range of each pair feature and the doubt a feature outside it adds.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Coverage {
    pub features: Vec<String>,
    pub low: Vec<f64>,
    pub high: Vec<f64>,
    /// Training pairs the range was taken over.
    pub pairs: usize,
    /// σ (log2 S) added per feature outside its range, in quadrature.
    #[serde(default)]
    pub sigma_per_feature: f64,
    /// Weight of the wide normal added per feature outside its range.
    #[serde(default)]
    pub lost_per_feature: f64,
}

/// The coverage shipped with the model.
pub const SHIPPED_COVERAGE: &str = include_str!("../../model/h100-coverage.json");

impl Coverage {
    /// The shipped coverage, if it fits this build's features.
    pub fn shipped() -> Option<Coverage> {
        let c: Coverage = serde_json::from_str(SHIPPED_COVERAGE).ok()?;
        (c.features == super::trained::feature_names() && c.low.len() == c.features.len()).then_some(c)
    }

    /// The 1st and 99th percentiles of each feature over `rows` (pair vectors).
    pub fn of(features: Vec<String>, rows: &[Vec<f64>]) -> Coverage {
        let n = features.len();
        let mut low = vec![0.0; n];
        let mut high = vec![0.0; n];
        for j in 0..n {
            let mut col: Vec<f64> = rows.iter().filter_map(|r| r.get(j).copied()).filter(|v| v.is_finite()).collect();
            col.sort_by(f64::total_cmp);
            if col.is_empty() {
                continue;
            }
            let at = |q: f64| col[((col.len() - 1) as f64 * q).round() as usize];
            low[j] = at(0.01);
            high[j] = at(0.99);
        }
        Coverage { features, low, high, pairs: rows.len(), sigma_per_feature: 0.0, lost_per_feature: 0.0 }
    }

    /// The features of `x` outside their training range (indices), by how far outside.
    pub fn outside(&self, x: &[f64]) -> Vec<usize> {
        let mut out: Vec<(usize, f64)> = (0..self.low.len().min(x.len()))
            .filter_map(|j| {
                let (lo, hi) = (self.low[j], self.high[j]);
                let span = (hi - lo).abs().max(0.5);
                let d = if x[j] < lo {
                    (lo - x[j]) / span
                } else if x[j] > hi {
                    (x[j] - hi) / span
                } else {
                    0.0
                };
                (d > 0.25).then_some((j, d))
            })
            .collect();
        out.sort_by(|a, b| b.1.total_cmp(&a.1));
        out.into_iter().map(|(j, _)| j).collect()
    }

    /// The doubt `outside` features add.
    pub fn doubt(&self, outside: usize) -> Doubt {
        if outside == 0 {
            return Doubt::NONE;
        }
        let k = outside as f64;
        Doubt {
            sigma: self.sigma_per_feature * k.sqrt(),
            lost: 1.0 - (1.0 - self.lost_per_feature.clamp(0.0, 1.0)).powf(k),
            cap: 1.0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_feature_far_outside_the_training_range_is_named_and_doubted() {
        let rows: Vec<Vec<f64>> = (0..100).map(|i| vec![f64::from(i) / 100.0, 0.0]).collect();
        let mut c = Coverage::of(vec!["a".into(), "b".into()], &rows);
        c.sigma_per_feature = 0.5;
        c.lost_per_feature = 0.1;
        assert!(c.outside(&[0.5, 0.0]).is_empty());
        assert_eq!(c.outside(&[5.0, 0.0]), vec![0]);
        let d = c.doubt(1);
        assert!(d.sigma > 0.0 && d.lost > 0.0);
        assert!(c.doubt(0).is_none());
    }

    #[test]
    fn the_shipped_coverage_fits_this_build() {
        assert!(Coverage::shipped().is_some());
    }
}
