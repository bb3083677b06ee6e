//! How forecasts are printed: compiler-style text and JSON.

use kforecast_core::bins::{NUM_BINS, RANGES};
use kforecast_core::forecast::Forecast;
use serde_json::{json, Value};

/// The JSON form of a forecast (fields documented in the README).
pub fn forecast_json(f: &Forecast, threshold: f64) -> Value {
    json!({
        "speedup": round(f.speedup, 4),
        "p_faster": round(f.p_faster, 4),
        "bins": f.bins.0.iter().map(|p| round(*p, 6)).collect::<Vec<_>>(),
        "confidence": round(f.confidence, 4),
        "claim": f.claim,
        "defer": f.defer(threshold),
        "identical": f.identical,
        "forecaster": f.forecaster,
        "reasons": f.reasons,
    })
}

fn round(x: f64, digits: i32) -> f64 {
    let m = 10f64.powi(digits);
    (x * m).round() / m
}

/// `≤0.25× 0% · … · >4× 0%`, bins under 0.5% left out.
pub fn bins_line(f: &Forecast) -> String {
    (0..NUM_BINS)
        .filter(|i| f.bins.0[*i] >= 0.005)
        .map(|i| format!("{} {:.0}%", RANGES[i], f.bins.0[i] * 100.0))
        .collect::<Vec<_>>()
        .join(" · ")
}

/// The severity word and trailing note for a forecast, compiler-style.
pub fn severity(f: &Forecast, threshold: f64) -> (&'static str, &'static str) {
    if f.is_regression(threshold) {
        ("warning", " [confident regression]")
    } else if f.defer(threshold) {
        ("note", " [unsure: verify on a GPU]")
    } else {
        ("forecast", "")
    }
}
