//! The forecaster, refined within one search from each new measurement.
//!
//! The measured log2 speedup of a variant is modelled as `b·forecast + g(knobs)`: a
//! Gaussian process whose prior mean is the forecaster as it is (b = 1) and whose data
//! can take the forecaster's say away (b is uncertain, and a forecaster contradicted by
//! its measurements loses its slope), plus an error `g` the forecaster makes, in the
//! space of log2 knob values. `g` is zero at the original (a variant equal to it is not
//! faster) and mostly a sum of one error per knob (each knob's moves up and down learnt
//! apart: measuring one step of a knob tells about every variant that makes that step),
//! with a smaller part for knobs acting together. The spread of a variant that makes a
//! move not yet measured stays wide, so the policy can explore it; variants near failed
//! ones inherit their risk of failing.

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
    /// log2 knob values of the original, where the forecaster's error is zero.
    origin: Option<Vec<f64>>,
}

/// Spread of the forecaster's slope b around 1 (b near 0: its forecasts tell nothing).
const SLOPE_SPREAD: f64 = 1.0;
/// Spread (log2) of the forecaster's error before anything is measured, and its weight.
const PRIOR_SPREAD: f64 = 0.5;
const PRIOR_SPREAD_WEIGHT: f64 = 2.0;
/// Length scale of the error, in log2 knob steps.
const LENGTH: f64 = 2.5;
/// Share of the error's variance in knobs acting together (the rest: each knob alone).
const INTERACTION: f64 = 0.25;
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

/// Covariance of an exponential process at `u` and `v` once it is pinned to zero at `o`
/// (distances `uv`, `uo`, `vo`): values on opposite sides of `o` are independent.
fn pinned(uv: f64, uo: f64, vo: f64) -> f64 {
    ((-uv / LENGTH).exp() - (-(uo + vo) / LENGTH).exp()).max(0.0)
}

impl Correction {
    /// The correction of a search from the original at `origin` (its log2 knob values).
    pub fn anchored(origin: Vec<f64>) -> Self {
        Self { observations: Vec::new(), origin: Some(origin) }
    }

    pub fn observe(&mut self, forecast: f64, measured: Option<f64>, key: Option<Vec<f64>>) {
        self.observations.push(Observation { forecast, measured, key });
    }

    /// Measured variants that ran correctly.
    pub fn measured(&self) -> usize {
        self.observations.iter().filter(|o| o.measured.is_some()).count()
    }

    /// The corrected forecaster for the measurements so far.
    pub fn model(&self) -> Model {
        let ok: Vec<(f64, f64, Option<Vec<f64>>)> =
            self.observations.iter().filter_map(|o| Some((o.forecast, o.measured?, o.key.clone()))).collect();
        let n = ok.len() as f64;
        let ss: f64 = ok.iter().map(|(x, y, _)| (y - x).powi(2)).sum();
        let variance = (ss + PRIOR_SPREAD_WEIGHT * PRIOR_SPREAD * PRIOR_SPREAD) / (n + PRIOR_SPREAD_WEIGHT);
        let failures =
            self.observations.iter().filter(|o| o.measured.is_none()).filter_map(|o| o.key.clone()).collect();
        let all = self.observations.iter().filter_map(|o| o.key.clone()).collect();
        let mut model = Model {
            variance,
            measured: n,
            origin: self.origin.clone(),
            points: Vec::new(),
            chol: Vec::new(),
            alpha: Vec::new(),
            failures,
            all,
        };
        let latest: Vec<&(f64, f64, Option<Vec<f64>>)> = ok.iter().rev().take(MAX_POINTS).collect();
        let points: Vec<(f64, Option<Vec<f64>>)> = latest.iter().map(|(x, _, k)| (*x, k.clone())).collect();
        let k = points.len();
        let mut gram = vec![0.0; k * k];
        for i in 0..k {
            for j in 0..k {
                gram[i * k + j] = model.covariance(
                    (points[i].0, points[i].1.as_deref()),
                    (points[j].0, points[j].1.as_deref()),
                    i == j,
                );
            }
            gram[i * k + i] += NOISE * NOISE;
        }
        // K⁻¹·(measured − forecast): the forecaster as it is is the prior mean.
        let residuals: Vec<f64> = latest.iter().map(|(x, y, _)| y - x).collect();
        if let Some(l) = cholesky(&gram, k) {
            model.alpha = solve_upper(&l, k, &solve_lower(&l, k, &residuals));
            model.chol = l;
        }
        model.points = points;
        model
    }
}

/// The corrected forecaster at one moment of a search.
pub struct Model {
    /// Variance of the forecaster's error (its mean square so far, with a prior).
    variance: f64,
    measured: f64,
    origin: Option<Vec<f64>>,
    /// The measured points (forecast, key) the process conditions on.
    points: Vec<(f64, Option<Vec<f64>>)>,
    /// Cholesky factor of the points' covariance (row-major, lower), and K⁻¹·residuals.
    chol: Vec<f64>,
    alpha: Vec<f64>,
    failures: Vec<Vec<f64>>,
    all: Vec<Vec<f64>>,
}

impl Model {
    /// Prior covariance of the measured log2 speedups of two variants, each given by its
    /// forecast and key (`same`: they are one variant).
    fn covariance(&self, (x, p): (f64, Option<&[f64]>), (y, q): (f64, Option<&[f64]>), same: bool) -> f64 {
        let slope = SLOPE_SPREAD * SLOPE_SPREAD * x * y;
        let error = match (p, q) {
            (Some(p), Some(q)) => {
                let origin = self.origin.as_deref();
                let at =
                    |v: &[f64], i: usize| origin.and_then(|o| o.get(i)).map_or(f64::INFINITY, |o| (v[i] - o).abs());
                let alone: f64 =
                    (0..p.len().min(q.len())).map(|i| pinned((p[i] - q[i]).abs(), at(p, i), at(q, i))).sum();
                let far = |v: &[f64]| origin.map_or(f64::INFINITY, |o| distance(v, o));
                let together = pinned(distance(p, q), far(p), far(q));
                (1.0 - INTERACTION) * alone + INTERACTION * together
            }
            // A variant outside the knob space (a rewrite): an error of its own.
            _ if same => 1.0,
            _ => 0.0,
        };
        slope + self.variance * error
    }

    /// The corrected forecast for a candidate the forecaster puts at `forecast` ± `sigma`.
    pub fn predict(&self, forecast: f64, sigma: f64, key: Option<&[f64]>) -> Prediction {
        let k = self.points.len();
        let me = (forecast, key);
        let mut mu = forecast;
        let mut variance = self.covariance(me, me, true);
        if k > 0 && self.alpha.len() == k && self.chol.len() == k * k {
            let cross: Vec<f64> =
                self.points.iter().map(|(x, p)| self.covariance(me, (*x, p.as_deref()), false)).collect();
            mu += cross.iter().zip(&self.alpha).map(|(c, a)| c * a).sum::<f64>();
            let v = solve_lower(&self.chol, k, &cross);
            variance -= v.iter().map(|x| x * x).sum::<f64>();
        }
        // The forecaster's own spread counts too, fading as it is checked.
        let variance = variance.max(0.0) + sigma * sigma / (2.0 * (1.0 + self.measured)) + NOISE * NOISE;
        let mut p_fail = 0.0;
        if let Some(key) = key {
            let weight = |pts: &[Vec<f64>]| pts.iter().map(|p| (-distance(p, key) / LENGTH).exp()).sum::<f64>();
            p_fail = weight(&self.failures) / (weight(&self.all) + 1.0);
        }
        Prediction { mu, sigma: variance.sqrt(), p_fail }
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
    fn a_contradicted_forecaster_loses_its_say_and_each_knob_is_learnt_apart() {
        // Two knobs, the original at (5, 5). The forecaster says that knob 0 up is 2×
        // faster; the GPU says 2× slower.
        let mut c = Correction::anchored(vec![5.0, 5.0]);
        let m = c.model();
        let at = |m: &Model, x: f64, key: [f64; 2]| m.predict(x, 0.3, Some(&key));
        assert!((at(&m, 1.0, [6.0, 5.0]).mu - 1.0).abs() < 1e-9, "the forecast, before any measurement");
        c.observe(1.0, Some(-1.0), Some(vec![6.0, 5.0]));
        let m = c.model();
        // Knob 0 further up, forecast faster still: now expected slower.
        let further = at(&m, 1.5, [7.0, 5.0]);
        assert!(further.mu < 0.0, "{further:?}");
        // Knob 1 up, forecast no change: what knob 0 did says little about it, and it stays open.
        let other = at(&m, 0.0, [5.0, 6.0]);
        assert!(other.mu.abs() < 0.25 && other.sigma > 0.3 && other.p_improve(0.0) > 0.3, "{other:?}");
        // The original itself: no error there.
        assert!(at(&m, 0.0, [5.0, 5.0]).mu.abs() < 1e-9);
        // Twice more contradicted (knob 1 up too, forecast faster, measured slower): a
        // variant forecast much faster elsewhere is no longer expected faster.
        c.observe(0.8, Some(-0.6), Some(vec![5.0, 6.0]));
        let m = c.model();
        let far = at(&m, 1.0, [3.0, 3.0]);
        assert!(far.mu < 0.1, "the forecaster's slope fell: {far:?}");
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
