//! The forecaster, refined within one search from each new measurement.
//!
//! The corrected forecast of a variant's log2 speedup is the forecaster's, rescaled by a
//! ridge fit `measured ≈ a + b·forecast` over this search's measurements (pulled towards
//! a = 0, b = 1: the forecaster as it is), plus a Gaussian process over what the
//! forecaster still gets wrong, in the space of log2 knob values: a variant a knob step
//! away from a measured one inherits most of that one's error, a far one none. Its spread
//! is the forecaster's and the observed error's, shrunk near measurements; variants near
//! failed ones inherit their risk of failing.

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

/// The measurements of one search.
#[derive(Clone, Debug, Default)]
pub struct Correction {
    observations: Vec<Observation>,
}

/// Weight of the prior (a = 0, b = 1) in the fit, in observations.
const PRIOR: f64 = 1.0;
/// Spread (log2) of the forecaster's error before anything is measured, and its weight.
const PRIOR_SPREAD: f64 = 0.5;
const PRIOR_SPREAD_WEIGHT: f64 = 2.0;
/// Length scale of the error process, in log2 knob steps (L1).
const LENGTH: f64 = 2.5;
/// Measurement noise (log2; about 2%).
const NOISE: f64 = 0.03;
/// Measurements the process conditions on at most (the latest).
const MAX_POINTS: usize = 128;

/// log2 of knob values (0, "not given", is −1), the coordinates of a variant.
pub fn key_of(values: &[i64]) -> Vec<f64> {
    values.iter().map(|&v| if v > 0 { (v as f64).log2() } else { -1.0 }).collect()
}

fn distance(p: &[f64], q: &[f64]) -> f64 {
    p.iter().zip(q).map(|(a, b)| (a - b).abs()).sum()
}

impl Correction {
    pub fn observe(&mut self, forecast: f64, measured: Option<f64>, key: Option<Vec<f64>>) {
        self.observations.push(Observation { forecast, measured, key });
    }

    /// Measured variants that ran correctly.
    pub fn measured(&self) -> usize {
        self.observations.iter().filter(|o| o.measured.is_some()).count()
    }

    /// The corrected forecaster for the measurements so far.
    pub fn model(&self) -> Model {
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
        let variance = (ss + PRIOR_SPREAD_WEIGHT * PRIOR_SPREAD * PRIOR_SPREAD) / (n + PRIOR_SPREAD_WEIGHT);
        // The error process over the measured points of the knob space.
        let points: Vec<(Vec<f64>, f64)> = self
            .observations
            .iter()
            .filter_map(|o| Some((o.key.clone()?, o.measured? - a - b * o.forecast)))
            .rev()
            .take(MAX_POINTS)
            .collect();
        let k = points.len();
        let mut gram = vec![0.0; k * k];
        for i in 0..k {
            for j in 0..k {
                gram[i * k + j] = variance * (-distance(&points[i].0, &points[j].0) / LENGTH).exp();
            }
            gram[i * k + i] += NOISE * NOISE;
        }
        let chol = cholesky(&gram, k);
        let residuals: Vec<f64> = points.iter().map(|p| p.1).collect();
        let alpha = chol.as_ref().map(|l| solve_upper(l, k, &solve_lower(l, k, &residuals))).unwrap_or_default();
        let failures =
            self.observations.iter().filter(|o| o.measured.is_none()).filter_map(|o| o.key.clone()).collect();
        let all = self.observations.iter().filter_map(|o| o.key.clone()).collect();
        Model {
            a,
            b,
            variance,
            measured: n,
            points: points.into_iter().map(|p| p.0).collect(),
            chol: chol.unwrap_or_default(),
            alpha,
            failures,
            all,
        }
    }
}

/// The corrected forecaster at one moment of a search.
pub struct Model {
    a: f64,
    b: f64,
    /// Variance of the forecaster's error (after the linear fit).
    variance: f64,
    measured: f64,
    points: Vec<Vec<f64>>,
    /// Cholesky factor of the points' covariance (row-major, lower), and K⁻¹·residuals.
    chol: Vec<f64>,
    alpha: Vec<f64>,
    failures: Vec<Vec<f64>>,
    all: Vec<Vec<f64>>,
}

impl Model {
    /// The corrected forecast for a candidate the forecaster puts at `forecast` ± `sigma`.
    pub fn predict(&self, forecast: f64, sigma: f64, key: Option<&[f64]>) -> Prediction {
        let mut mu = self.a + self.b * forecast;
        // Before measurements the forecaster's own spread counts; it fades as it is checked.
        let prior = (self.variance + sigma * sigma / (1.0 + self.measured)) / 2.0;
        let mut explained = 0.0;
        let mut p_fail = 0.0;
        if let Some(key) = key {
            let k = self.points.len();
            if k > 0 && self.alpha.len() == k && self.chol.len() == k * k {
                let cross: Vec<f64> =
                    self.points.iter().map(|p| self.variance * (-distance(p, key) / LENGTH).exp()).collect();
                mu += cross.iter().zip(&self.alpha).map(|(c, a)| c * a).sum::<f64>();
                let v = solve_lower(&self.chol, k, &cross);
                explained = (v.iter().map(|x| x * x).sum::<f64>() / self.variance).clamp(0.0, 1.0);
            }
            let weight = |pts: &[Vec<f64>]| pts.iter().map(|p| (-distance(p, key) / LENGTH).exp()).sum::<f64>();
            p_fail = weight(&self.failures) / (weight(&self.all) + 1.0);
        }
        let sigma = (prior * (1.0 - explained) + NOISE * NOISE).sqrt();
        Prediction { mu, sigma, p_fail }
    }
}

/// Lower Cholesky factor of a symmetric positive definite `n×n` matrix.
fn cholesky(m: &[f64], n: usize) -> Option<Vec<f64>> {
    let mut l = vec![0.0; n * n];
    for i in 0..n {
        for j in 0..=i {
            let s: f64 = (0..j).map(|k| l[i * n + k] * l[j * n + k]).sum();
            if i == j {
                let d = m[i * n + i] - s;
                if d <= 0.0 || !d.is_finite() {
                    return None;
                }
                l[i * n + i] = d.sqrt();
            } else {
                l[i * n + j] = (m[i * n + j] - s) / l[j * n + j];
            }
        }
    }
    Some(l)
}

/// Solves L·x = b.
fn solve_lower(l: &[f64], n: usize, b: &[f64]) -> Vec<f64> {
    let mut x = vec![0.0; n];
    for i in 0..n {
        let s: f64 = (0..i).map(|k| l[i * n + k] * x[k]).sum();
        x[i] = (b[i] - s) / l[i * n + i];
    }
    x
}

/// Solves Lᵀ·x = b.
fn solve_upper(l: &[f64], n: usize, b: &[f64]) -> Vec<f64> {
    let mut x = vec![0.0; n];
    for i in (0..n).rev() {
        let s: f64 = (i + 1..n).map(|k| l[k * n + i] * x[k]).sum();
        x[i] = (b[i] - s) / l[i * n + i];
    }
    x
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn learns_the_forecasters_bias_and_trusts_measured_neighbours() {
        let mut c = Correction::default();
        let before = c.model().predict(1.0, 0.3, Some(&[5.0]));
        assert!((before.mu - 1.0).abs() < 1e-9 && before.p_fail == 0.0);
        // The forecaster says +1 octave everywhere; the GPU says 0.
        for i in 0..6 {
            c.observe(1.0, Some(0.0), Some(vec![i as f64]));
        }
        let m = c.model();
        let far = m.predict(1.0, 0.3, Some(&[40.0]));
        assert!(far.mu < 0.35, "{far:?}");
        assert!(far.sigma < before.sigma);
        let near = m.predict(1.0, 0.3, Some(&[2.5]));
        assert!(near.mu.abs() < 0.05 && near.sigma < far.sigma, "{near:?} {far:?}");
        // A surprise: one variant is 4× faster; its neighbour is now promising, a far one not.
        c.observe(1.0, Some(2.0), Some(vec![20.0]));
        let m = c.model();
        let (next, far) = (m.predict(1.0, 0.3, Some(&[21.0])), m.predict(1.0, 0.3, Some(&[40.0])));
        assert!(next.mu > 0.8 && next.mu > far.mu + 0.5, "{next:?} {far:?}");
        c.observe(0.5, None, Some(vec![10.0]));
        let m = c.model();
        let risky = m.predict(0.5, 0.3, Some(&[10.0]));
        assert!(risky.p_fail > 0.3 && risky.p_improve(0.0) < m.predict(0.5, 0.3, Some(&[30.0])).p_improve(0.0));
    }

    #[test]
    fn cholesky_solves() {
        let m = [4.0, 2.0, 2.0, 3.0];
        let l = cholesky(&m, 2).expect("spd");
        let x = solve_upper(&l, 2, &solve_lower(&l, 2, &[2.0, 1.0]));
        assert!((4.0 * x[0] + 2.0 * x[1] - 2.0).abs() < 1e-12 && (2.0 * x[0] + 3.0 * x[1] - 1.0).abs() < 1e-12);
        assert!(cholesky(&[1.0, 2.0, 2.0, 1.0], 2).is_none());
    }
}
