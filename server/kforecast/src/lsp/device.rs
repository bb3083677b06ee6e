//! The `device` setting against the devices a model exists for: today one, the H100
//! the shipped weights were trained on. Another name is forecast with that model, and
//! said so, never repeated as if the forecast were for it.

use kforecast_core::forecast::Model;
use kforecast_core::measure::protocol::short_device;

/// The device the shipped model was trained on (`NVIDIA H100 80GB HBM3`).
pub fn model_device() -> String {
    Model::shipped().map(|m| m.provenance.device.clone()).unwrap_or_else(|_| crate::cli::DEFAULT_DEVICE.to_string())
}

/// Whether a model exists for `device` (`NVIDIA H100`, `H100`, `NVIDIA H100 80GB HBM3`).
pub fn has_model(device: &str) -> bool {
    let model = short_device(&model_device());
    device.split_whitespace().any(|w| w.eq_ignore_ascii_case(&model))
}

/// The warning for a device without a model, naming the model in use.
pub fn check(device: &str) -> Option<String> {
    (!has_model(device)).then(|| {
        format!(
            "setting `kforecast.forecast.device`: kforecast has no model for \"{device}\"; forecasts use the {} model \
             (set it to \"{}\" to silence this)",
            model_device(),
            crate::cli::DEFAULT_DEVICE
        )
    })
}

/// How the hover names the device: `device NVIDIA H100`, or the model actually used.
pub fn describe(device: &str) -> String {
    if has_model(device) {
        format!("device {device}")
    } else {
        format!("model for {} (no model for \"{device}\")", model_device())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_h100_has_a_model() {
        for d in ["NVIDIA H100", "H100", "NVIDIA H100 80GB HBM3", "nvidia h100"] {
            assert!(check(d).is_none(), "{d}");
        }
        let w = check("banana").expect("a warning");
        assert!(w.contains("\"banana\"") && w.contains("H100"), "{w}");
        assert!(describe("banana").starts_with("model for NVIDIA H100"), "{}", describe("banana"));
        assert_eq!(describe("NVIDIA H100"), "device NVIDIA H100");
    }
}
