//! Forecasts for a whole file: several kernels taken as one unit.

use super::{Forecast, Forecaster};
use crate::kernel::Kernel;

/// One kernel's part in a unit: its forecast (None if it exists only on one side) and
/// its weights (relative time) in the base and candidate.
pub struct Part<'a> {
    pub name: &'a str,
    pub forecast: Option<Forecast>,
    pub base_weight: f64,
    pub candidate_weight: f64,
}

/// S of the unit = Σ t_base / Σ t_new, with each kernel's new time taken from its
/// forecast; spreads add in quadrature, weighted by each kernel's share of the new time.
pub fn combine(parts: &[Part], forecaster: &str) -> Forecast {
    // One kernel on both sides: its own forecast, with the forecaster's calibrated bins and
    // confidence (the sum below would redo them as a plain normal).
    if let [Part { name, forecast: Some(f), .. }] = parts {
        let mut f = f.clone();
        if !f.identical {
            let first = part_reason(name, &f);
            f.reasons = std::iter::once(first).chain(f.reasons.into_iter().skip(1)).collect();
        }
        return f;
    }
    let mut base_total = 0.0;
    let mut new_total = 0.0;
    let mut var = 0.0;
    let mut shares = Vec::new();
    for p in parts {
        base_total += p.base_weight;
        match &p.forecast {
            Some(f) => {
                let t_new = p.base_weight / f.speedup.max(1e-9);
                new_total += t_new;
                shares.push((t_new, f.sigma, p));
            }
            None => new_total += p.candidate_weight,
        }
    }
    for (t_new, sigma, _) in &shares {
        let w = t_new / new_total.max(1e-12);
        var += (w * sigma).powi(2);
    }
    let mu = if base_total > 0.0 && new_total > 0.0 { (base_total / new_total).log2() } else { 0.0 };
    let mut reasons = Vec::new();
    let mut ranked: Vec<&(f64, f64, &Part)> = shares.iter().collect();
    ranked.sort_by(|a, b| {
        let da = (a.2.base_weight - a.0).abs();
        let db = (b.2.base_weight - b.0).abs();
        db.total_cmp(&da)
    });
    for (_, _, part) in ranked.iter().take(4) {
        if let Some(f) = part.forecast.as_ref().filter(|f| !f.identical) {
            reasons.push(part_reason(part.name, f));
        }
    }
    for p in parts.iter().filter(|p| p.forecast.is_none()) {
        let side = if p.base_weight > 0.0 { "removed" } else { "added" };
        reasons.push(format!("{} {side}", p.name));
    }
    let sigma = var.sqrt().max(0.03);
    let mut f = Forecast::from_log2_normal(mu, sigma, forecaster, reasons);
    f.identical = shares.iter().all(|(_, _, p)| p.forecast.as_ref().is_some_and(|f| f.identical))
        && parts.iter().all(|p| p.forecast.is_some());
    f
}

/// `name ≈1.3× faster: <its first reason>`.
fn part_reason(name: &str, f: &Forecast) -> String {
    let why = f.reasons.first().map(|r| format!(": {r}")).unwrap_or_default();
    format!("{name} {}{why}", f.headline())
}

/// Forecasts two versions of a file as one unit, matching kernels by name.
pub fn forecast_unit(
    forecast: impl Fn(&Kernel, &Kernel) -> Forecast,
    forecaster: &dyn Forecaster,
    base: &[Kernel],
    candidate: &[Kernel],
) -> Forecast {
    let mut parts = Vec::new();
    for b in base {
        match candidate.iter().find(|c| c.name == b.name) {
            Some(c) => parts.push(Part {
                name: &b.name,
                forecast: Some(forecast(b, c)),
                base_weight: forecaster.weight(b),
                candidate_weight: forecaster.weight(c),
            }),
            None => parts.push(Part {
                name: &b.name,
                forecast: None,
                base_weight: forecaster.weight(b),
                candidate_weight: 0.0,
            }),
        }
    }
    for c in candidate.iter().filter(|c| !base.iter().any(|b| b.name == c.name)) {
        parts.push(Part { name: &c.name, forecast: None, base_weight: 0.0, candidate_weight: forecaster.weight(c) });
    }
    combine(&parts, forecaster.id())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_with_one_kernel_gets_that_kernels_calibrated_forecast() {
        // A forecast whose bins are not a plain normal (as the trained model's mixture is).
        let mut f = Forecast::from_log2_normal(1.4, 0.5, "t", vec!["fewer passes".into()]);
        f.bins.0[0] += 0.04;
        f.bins.0[5] -= 0.04;
        f.confidence = 0.83;
        let unit =
            combine(&[Part { name: "k", forecast: Some(f.clone()), base_weight: 1.0, candidate_weight: 1.0 }], "t");
        assert_eq!(unit.bins, f.bins);
        assert_eq!(unit.confidence, 0.83);
        assert!(unit.reasons[0].starts_with("k ") && unit.reasons[0].ends_with(": fewer passes"), "{:?}", unit.reasons);
    }
}
