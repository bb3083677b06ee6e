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

/// `67.1 MB`, `512 B`: bytes in decimal units.
pub fn bytes(b: f64) -> String {
    let b = if b.is_finite() { b.max(0.0) } else { 0.0 };
    match b {
        b if b >= 1e9 => format!("{:.2} GB", b / 1e9),
        b if b >= 1e6 => format!("{:.1} MB", b / 1e6),
        b if b >= 1e3 => format!("{:.1} kB", b / 1e3),
        b => format!("{b:.0} B"),
    }
}

/// `16.8M`, `4,096`, `0.5`: a count, whole where it is whole.
pub fn count(x: f64) -> String {
    if !x.is_finite() {
        return "?".to_string();
    }
    match x.abs() {
        a if a >= 1e9 => format!("{:.1}G", x / 1e9),
        a if a >= 1e6 => format!("{:.1}M", x / 1e6),
        a if a >= 1e4 => format!("{:.0}k", x / 1e3),
        _ if x.fract() == 0.0 => format!("{x:.0}"),
        _ => format!("{x:.1}"),
    }
}

/// A message of `; `-separated parts (outside backticks) as an indented list, one part
/// a line: `why:\n  - a\n  - b`. A message of one part is left as it is.
pub fn multiline(message: &str) -> String {
    let mut parts = Vec::new();
    let (mut start, mut quoted) = (0, false);
    for (i, c) in message.char_indices() {
        match c {
            '`' => quoted = !quoted,
            ';' if !quoted && message[i + 1..].starts_with(' ') => {
                parts.push(message[start..i].trim());
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(message[start..].trim());
    if parts.len() < 2 {
        return message.to_string();
    }
    // A lead-in ends with `: ` before the first part.
    let (lead, first) = match parts[0].find(": ") {
        Some(i) => (&parts[0][..i + 1], parts[0][i + 2..].trim()),
        None => ("", parts[0]),
    };
    let mut s = lead.to_string();
    for p in std::iter::once(first).chain(parts[1..].iter().copied()).filter(|p| !p.is_empty()) {
        s += &format!("\n  - {p}");
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn units_and_lists_read_as_text() {
        assert_eq!(bytes(67_108_864.0), "67.1 MB");
        assert_eq!(bytes(512.0), "512 B");
        assert_eq!(count(4096.0), "4096");
        assert_eq!(count(16_777_216.0), "16.8M");
        assert_eq!(count(0.5), "0.5");
        assert_eq!(
            multiline("cannot search `k`: parameter `n` needs a value; `x`: unknown dtype `f33`; e.g. `// kforecast: a = 1; b = 2`"),
            "cannot search `k`:\n  - parameter `n` needs a value\n  - `x`: unknown dtype `f33`\n  - e.g. `// kforecast: a = 1; b = 2`"
        );
        assert_eq!(multiline("one thing went wrong"), "one thing went wrong");
    }
}
