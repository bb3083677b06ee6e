//! The forecaster, refined within one search from each new measurement.
//!
//! Forecast and measured speedups are compared in log2: a ridge fit of
//! `measured ≈ a + b·forecast` (pulled towards the forecaster as it is, a = 0, b = 1)
//! corrects its scale and bias for this kernel on this GPU, and the residuals of measured
//! variants near a candidate (fewer knob steps away: larger weight) correct it locally.
//! The spread shrinks as the forecaster is checked; variants near failed ones inherit
//! their risk of failing.

/// One measured variant.
#[derive(Clone, Debug)]
struct Observation {
    /// Forecast log2 speedup.
    forecast: f64,
    /// Measured log2 speedup; `None` for a failure (wrong result, compile error, fault).
    measured: Option<f64>,
    /// log2 knob values, when the variant is a point of the knob space.
    key: Option<Vec<f64>>,
}

/// A corrected forecast of a candidate's log2 speedup.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Prediction {
    pub mu: f64,
    pub sigma: f64,
    /// Probability that it fails (from failed neighbours).
    pub p_fail: f64,
}

impl Prediction {
    /// Probability that the candidate beats `best` (a log2 speedup) and is correct.
    pub fn p_improve(&self, best: f64) -> f64 {
        crate::bins::normal_cdf((self.mu - best) / self.sigma.max(1e-6)) * (1.0 - self.p_fail)
    }
}

#[derive(Clone, Debug, Default)]
pub struct Correction {
    observations: Vec<Observation>,
}

/// Weight of the prior (a = 0, b = 1) in the fit, in observations.
const PRIOR: f64 = 1.0;
/// Prior residual spread (log2) before anything is measured, and its weight.
const PRIOR_SPREAD: f64 = 0.5;
const PRIOR_SPREAD_WEIGHT: f64 = 2.0;

/// log2 of knob values (0, "not given", is −1), the coordinates of a variant.
pub fn key_of(values: &[i64]) -> Vec<f64> {
    values.iter().map(|&v| if v > 0 { (v as f64).log2() } else { -1.0 }).collect()
}

impl Correction {
    pub fn observe(&mut self, forecast: f64, measured: Option<f64>, key: Option<Vec<f64>>) {
        self.observations.push(Observation { forecast, measured, key });
    }

    /// Measured variants that ran correctly.
    pub fn measured(&self) -> usize {
        self.observations.iter().filter(|o| o.measured.is_some()).count()
    }

    /// (a, b, residual spread).
    fn fit(&self) -> (f64, f64, f64) {
        let ok: Vec<(f64, f64)> = self.observations.iter().filter_map(|o| Some((o.forecast, o.measured?))).collect();
        let n = ok.len() as f64;
        let (sx, sy) = ok.iter().fold((0.0, 0.0), |(a, b), (x, y)| (a + x, b + y));
        let (sxx, sxy) = ok.iter().fold((0.0, 0.0), |(a, b), (x, y)| (a + x * x, b + x * y));
        // [n+λ, Σx; Σx, Σx²+λ]·[a; b] = [Σy; Σxy+λ]
        let (m11, m12, m22) = (n + PRIOR, sx, sxx + PRIOR);
        let (r1, r2) = (sy, sxy + PRIOR);
        let det = m11 * m22 - m12 * m12;
        let (a, b) =
            if det.abs() > 1e-9 { ((r1 * m22 - m12 * r2) / det, (m11 * r2 - m12 * r1) / det) } else { (0.0, 1.0) };
        let ss: f64 = ok.iter().map(|(x, y)| (y - a - b * x).powi(2)).sum();
        let spread = ((ss + PRIOR_SPREAD_WEIGHT * PRIOR_SPREAD * PRIOR_SPREAD) / (n + PRIOR_SPREAD_WEIGHT)).sqrt();
        (a, b, spread)
    }

    /// The corrected forecast for a candidate the forecaster puts at `forecast` ± `sigma`.
    pub fn predict(&self, forecast: f64, sigma: f64, key: Option<&[f64]>) -> Prediction {
        let (a, b, spread) = self.fit();
        let (mut near_residual, mut near_weight, mut fail_weight, mut all_weight) = (0.0, 0.0, 0.0, 0.0);
        if let Some(key) = key {
            for o in &self.observations {
                let Some(k) = &o.key else { continue };
                let distance: f64 = k.iter().zip(key).map(|(p, q)| (p - q).abs()).sum();
                let w = (-1.5 * distance).exp();
                all_weight += w;
                match o.measured {
                    Some(y) => {
                        near_residual += w * (y - a - b * o.forecast);
                        near_weight += w;
                    }
                    None => fail_weight += w,
                }
            }
        }
        let n = self.measured() as f64;
        let mu = a + b * forecast + near_residual / (near_weight + 0.5);
        let sigma = (spread * spread / (1.0 + near_weight) + sigma * sigma / (1.0 + n)).sqrt().max(0.02);
        Prediction { mu, sigma, p_fail: fail_weight / (all_weight + 1.0) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn learns_the_forecasters_bias_and_trusts_measured_neighbours() {
        let mut c = Correction::default();
        let before = c.predict(1.0, 0.3, Some(&[5.0]));
        assert!((before.mu - 1.0).abs() < 1e-9 && before.p_fail == 0.0);
        // The forecaster says +1 octave everywhere; the GPU says 0.
        for i in 0..6 {
            c.observe(1.0, Some(0.0), Some(vec![i as f64]));
        }
        let far = c.predict(1.0, 0.3, Some(&[40.0]));
        assert!(far.mu < 0.35, "{far:?}");
        assert!(far.sigma < before.sigma);
        let near = c.predict(1.0, 0.3, Some(&[2.0]));
        assert!(near.mu.abs() < far.mu.abs() + 1e-9 && near.sigma < far.sigma, "{near:?} {far:?}");
        c.observe(0.5, None, Some(vec![10.0]));
        let risky = c.predict(0.5, 0.3, Some(&[10.0]));
        assert!(risky.p_fail > 0.3 && risky.p_improve(0.0) < c.predict(0.5, 0.3, Some(&[30.0])).p_improve(0.0));
    }
}
