//! Server settings, parsed once into a typed struct; a bad value is reported by name
//! and the previous value is kept.

use crate::worker::pool::WorkerSetting;
use serde_json::Value;

/// Where a kernel's baseline comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BaselineMode {
    /// The file at git HEAD; the content when opened if the file is not in git.
    Git,
    /// The content when the file was opened.
    Open,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Settings {
    pub confidence_threshold: f64,
    pub baseline_mode: BaselineMode,
    pub device: String,
    /// Files larger than this are not analysed.
    pub max_file_size: usize,
    /// Where GPU jobs go (none: a local worker process).
    pub gpu_workers: Vec<WorkerSetting>,
    /// Verify deferred forecasts on the GPU without being asked.
    pub auto_verify: bool,
    /// Refine the forecaster's calibration for the device from each verified kernel.
    pub learn: bool,
    /// Time limit of one GPU job, in seconds.
    pub verify_timeout: u64,
    /// The optional LLM surrogate (`kforecast.llm.*`; off without an endpoint).
    pub llm: crate::llm::LlmConfig,
    /// GPU runs a "Search faster variants" may spend, and its seed.
    pub search_budget: u32,
    pub search_seed: u64,
}

impl Default for Settings {
    fn default() -> Self {
        Self {
            confidence_threshold: 0.7,
            baseline_mode: BaselineMode::Git,
            device: crate::cli::DEFAULT_DEVICE.to_string(),
            max_file_size: 16 * 1024 * 1024,
            gpu_workers: Vec::new(),
            auto_verify: false,
            learn: true,
            verify_timeout: 120,
            llm: crate::llm::LlmConfig::default(),
            search_budget: 8,
            search_seed: 0,
        }
    }
}

/// Keys later features use; accepted now so editors can send them.
const RESERVED: [&str; 1] = ["cacheDir"];

impl Settings {
    /// Applies a settings object (flat, or nested under `kforecast`). Returns one message
    /// per invalid or unknown setting; valid ones are applied regardless.
    pub fn apply(&mut self, value: &Value) -> Vec<String> {
        let mut errors = Vec::new();
        let obj = match value.get("kforecast").unwrap_or(value) {
            Value::Object(o) => o,
            Value::Null => return errors,
            other => {
                errors.push(format!("kforecast settings must be an object, got {other}"));
                return errors;
            }
        };
        for (key, v) in obj {
            match key.as_str() {
                "confidenceThreshold" => match v.as_f64() {
                    Some(t) if (0.0..=1.0).contains(&t) => self.confidence_threshold = t,
                    _ => errors.push(format!(
                        "setting `kforecast.confidenceThreshold` must be a number from 0 to 1, got {v}; keeping {}",
                        self.confidence_threshold
                    )),
                },
                "baselineMode" => match v.as_str() {
                    Some("git") => self.baseline_mode = BaselineMode::Git,
                    Some("open") => self.baseline_mode = BaselineMode::Open,
                    _ => errors.push(format!(
                        "setting `kforecast.baselineMode` must be \"git\" or \"open\", got {v}; keeping {:?}",
                        self.baseline_mode
                    )),
                },
                "device" => match v.as_str() {
                    Some(d) if !d.trim().is_empty() => self.device = d.trim().to_string(),
                    _ => errors.push(format!("setting `kforecast.device` must be a non-empty string, got {v}")),
                },
                "maxFileSize" => match v.as_u64() {
                    Some(n) if n >= 1024 => self.max_file_size = n as usize,
                    _ => errors.push(format!(
                        "setting `kforecast.maxFileSize` must be a whole number of bytes ≥ 1024, got {v}"
                    )),
                },
                "gpuWorkers" => match serde_json::from_value::<Vec<WorkerSetting>>(v.clone()) {
                    Ok(w) => self.gpu_workers = w,
                    Err(e) => errors.push(format!(
                        "setting `kforecast.gpuWorkers` must be a list of {{\"url\": \"http(s)://host:port\", \"tokenEnv\": \"VAR\"}} (or \"url\": \"local\"): {e}"
                    )),
                },
                "learnFromMeasurements" => match v.as_bool() {
                    Some(b) => self.learn = b,
                    None => errors
                        .push(format!("setting `kforecast.learnFromMeasurements` must be true or false, got {v}")),
                },
                "autoVerify" => match v.as_bool() {
                    Some(b) => self.auto_verify = b,
                    None => errors.push(format!("setting `kforecast.autoVerify` must be true or false, got {v}")),
                },
                "verifyTimeout" => match v.as_u64() {
                    Some(n) if (1..=3600).contains(&n) => self.verify_timeout = n,
                    _ => errors.push(format!("setting `kforecast.verifyTimeout` must be a number of seconds from 1 to 3600, got {v}")),
                },
                k if k == "llm" || k == "llmEndpoint" || k.starts_with("llm.") => errors.extend(self.llm.apply(k, v)),
                "search" => match v.as_object() {
                    Some(o) => {
                        for (k, v) in o {
                            self.apply_search(&format!("search.{k}"), v, &mut errors);
                        }
                    }
                    None => errors.push(format!(
                        "setting `kforecast.search` must be an object like {{\"budget\": 8, \"seed\": 0}}, got {v}"
                    )),
                },
                "searchBudget" => self.apply_search("search.budget", v, &mut errors),
                "searchSeed" => self.apply_search("search.seed", v, &mut errors),
                k if RESERVED.contains(&k) => {}
                other => tracing::info!("ignoring unknown setting `kforecast.{other}`"),
            }
        }
        errors
    }

    /// `kforecast.search.budget` (1–1000 GPU runs) and `kforecast.search.seed`.
    fn apply_search(&mut self, key: &str, v: &Value, errors: &mut Vec<String>) {
        match key {
            "search.budget" => match v.as_u64() {
                Some(n) if (1..=1000).contains(&n) => self.search_budget = n as u32,
                _ => errors.push(format!(
                    "setting `kforecast.search.budget` must be a number of GPU runs from 1 to 1000, got {v}; keeping {}",
                    self.search_budget
                )),
            },
            "search.seed" => match v.as_u64() {
                Some(n) => self.search_seed = n,
                None => errors.push(format!(
                    "setting `kforecast.search.seed` must be a whole number ≥ 0, got {v}; keeping {}",
                    self.search_seed
                )),
            },
            other => tracing::info!("ignoring unknown setting `kforecast.{other}`"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn applies_valid_and_names_invalid_settings() {
        let mut s = Settings::default();
        let errors = s.apply(&json!({"kforecast": {"confidenceThreshold": 0.9, "baselineMode": "nope"}}));
        assert_eq!(s.confidence_threshold, 0.9);
        assert_eq!(s.baseline_mode, BaselineMode::Git);
        assert_eq!(errors.len(), 1);
        assert!(errors[0].contains("kforecast.baselineMode"));
        let errors = s.apply(&json!({"confidenceThreshold": "high"}));
        assert!(errors[0].contains("kforecast.confidenceThreshold"));
        assert_eq!(s.confidence_threshold, 0.9);
    }

    #[test]
    fn search_budget_and_seed() {
        let mut s = Settings::default();
        assert_eq!((s.search_budget, s.search_seed), (8, 0));
        assert!(s.apply(&json!({"kforecast": {"search": {"budget": 16, "seed": 3}}})).is_empty());
        assert_eq!((s.search_budget, s.search_seed), (16, 3));
        let errors = s.apply(&json!({"search": {"budget": 0}, "searchSeed": -1}));
        assert_eq!(errors.len(), 2, "{errors:?}");
        assert!(errors[0].contains("kforecast.search.budget") && errors[1].contains("kforecast.search.seed"));
        assert_eq!((s.search_budget, s.search_seed), (16, 3));
        assert!(s.apply(&json!({"search": 4}))[0].contains("kforecast.search"));
    }
}
