//! The optional LLM surrogate: any OpenAI-compatible chat-completions endpoint (a local
//! vLLM serving GPT-OSS-20B, or a hosted model), ensembled with the embedded forecaster.
//!
//! - `client.rs`: [`client::ChatClient`], a small reusable chat client (time limits, retries with
//!   backoff, bounded concurrency, the API key from an environment variable, never logged).
//! - `forecaster.rs`: [`LlmForecaster`], the pair forecaster on top of it (content-hash
//!   cache, fallback to the embedded forecast on any failure, the ensemble).
//! - `rewrite.rs`: [`rewrite::LlmRewrite`], the search's rewrite operator on the same
//!   endpoint (a few faster-kernel proposals a generation, answers cached by content hash).
//!
//! Off unless an endpoint is configured (`kforecast.llm.endpoint`, `--llm-endpoint`).

pub mod client;
pub mod forecaster;
pub mod rewrite;

pub use forecaster::LlmForecaster;

use kforecast_core::analysis::{KernelReport, Status};
use kforecast_core::forecast::llm_prompt::PairContext;
use kforecast_core::forecast::Forecast;
use kforecast_core::hash::ContentHash;
use kforecast_core::kernel::Kernel;
use serde_json::Value;
use std::time::Duration;

/// The environment variable that holds the API key unless another is named.
pub const DEFAULT_KEY_ENV: &str = "KFORECAST_LLM_API_KEY";

/// Where the LLM surrogate is and how it is called.
#[derive(Clone, Debug, PartialEq)]
pub struct LlmConfig {
    /// Base URL of the OpenAI-compatible API (`http://localhost:8000/v1`); empty: off.
    pub endpoint: String,
    pub model: String,
    /// Name of the environment variable holding the API key (the key itself is never a setting).
    pub api_key_env: String,
    /// Time limit of one request.
    pub timeout: Duration,
    /// Requests in flight at most.
    pub max_concurrency: usize,
    /// Retries after a timeout, a dropped connection, HTTP 429 or 5xx.
    pub max_retries: u32,
    /// The LLM's share in the ensemble (the embedded forecaster has the rest).
    pub weight: f64,
    /// Rewrites the search asks for per generation at most (0: none).
    pub rewrites: usize,
}

impl Default for LlmConfig {
    fn default() -> Self {
        Self {
            endpoint: String::new(),
            model: String::new(),
            api_key_env: DEFAULT_KEY_ENV.to_string(),
            timeout: Duration::from_secs(30),
            max_concurrency: 4,
            max_retries: 2,
            weight: 0.5,
            rewrites: rewrite::DEFAULT_REWRITES,
        }
    }
}

impl LlmConfig {
    pub fn enabled(&self) -> bool {
        !self.endpoint.trim().is_empty()
    }

    /// Applies one `kforecast.llm.<key>` setting; the message names the setting.
    pub fn apply_setting(&mut self, key: &str, v: &Value) -> Result<(), String> {
        let name = format!("kforecast.llm.{key}");
        let text = |v: &Value| v.as_str().map(str::trim).map(str::to_string);
        match key {
            "endpoint" | "url" => match v {
                Value::Null => self.endpoint.clear(),
                _ => match text(v) {
                    Some(url) if url.is_empty() || url.starts_with("http://") || url.starts_with("https://") => {
                        self.endpoint = url
                    }
                    _ => {
                        return Err(format!(
                            "setting `{name}` must be an http:// or https:// URL (empty: off), got {v}"
                        ))
                    }
                },
            },
            "model" => match text(v) {
                Some(m) => self.model = m,
                None => return Err(format!("setting `{name}` must be a model name, got {v}")),
            },
            "apiKeyEnv" => match text(v) {
                Some(var) if !var.is_empty() && !var.contains('=') => self.api_key_env = var,
                _ => {
                    return Err(format!(
                        "setting `{name}` must be the NAME of an environment variable that holds the key, got {v}"
                    ))
                }
            },
            "timeoutMs" => match v.as_u64() {
                Some(ms) if (100..=600_000).contains(&ms) => self.timeout = Duration::from_millis(ms),
                _ => {
                    return Err(format!(
                        "setting `{name}` must be a whole number of milliseconds from 100 to 600000, got {v}"
                    ))
                }
            },
            "maxConcurrency" => match v.as_u64() {
                Some(n) if (1..=64).contains(&n) => self.max_concurrency = n as usize,
                _ => return Err(format!("setting `{name}` must be a whole number from 1 to 64, got {v}")),
            },
            "retries" => match v.as_u64() {
                Some(n) if n <= 10 => self.max_retries = n as u32,
                _ => return Err(format!("setting `{name}` must be a whole number from 0 to 10, got {v}")),
            },
            "weight" => match v.as_f64() {
                Some(w) if (0.0..=1.0).contains(&w) => self.weight = w,
                _ => return Err(format!("setting `{name}` must be a number from 0 to 1, got {v}")),
            },
            "rewrites" => match v.as_u64() {
                Some(n) if n <= rewrite::MAX_REWRITES as u64 => self.rewrites = n as usize,
                _ => {
                    return Err(format!(
                        "setting `{name}` must be a whole number from 0 to {}, got {v}",
                        rewrite::MAX_REWRITES
                    ))
                }
            },
            other => return Err(format!("unknown setting `kforecast.llm.{other}`")),
        }
        Ok(())
    }

    /// Applies `llm: {…}`, `llmEndpoint: {url, model, apiKeyEnv}` (or a URL string),
    /// or a flat `llm.<key>`; returns one message per bad value.
    pub fn apply(&mut self, key: &str, v: &Value) -> Vec<String> {
        match (key, v) {
            (_, Value::Null) if key == "llm" || key == "llmEndpoint" => {
                self.endpoint.clear();
                Vec::new()
            }
            ("llm" | "llmEndpoint", Value::Object(o)) => {
                o.iter().filter_map(|(k, v)| self.apply_setting(k, v).err()).collect()
            }
            ("llmEndpoint", Value::String(_)) => self.apply_setting("endpoint", v).err().into_iter().collect(),
            ("llm" | "llmEndpoint", other) => vec![format!(
                "setting `kforecast.{key}` must be an object {{\"endpoint\", \"model\", \"apiKeyEnv\", \"timeoutMs\", \"maxConcurrency\", \"weight\", \"rewrites\"}}, got {other}"
            )],
            (flat, v) => match flat.strip_prefix("llm.") {
                Some(k) => self.apply_setting(k, v).err().into_iter().collect(),
                None => vec![format!("unknown setting `kforecast.{flat}`")],
            },
        }
    }
}

/// One changed kernel of a comparison, with both its versions.
pub struct Changed<'a> {
    /// Where it is among the reports.
    pub index: usize,
    /// Identities of (baseline, current).
    pub pair: (ContentHash, ContentHash),
    pub embedded: &'a Forecast,
    pub base: &'a Kernel,
    pub current: &'a Kernel,
}

/// The changed kernels of `reports`; `current` holds the kernels the reports were made
/// of (by `Analyzer::compare`, one report each, in order), `base` the baseline's.
pub fn changed<'a>(
    reports: &'a [KernelReport],
    base: &'a [Kernel],
    current: impl IntoIterator<Item = &'a Kernel>,
) -> impl Iterator<Item = Changed<'a>> {
    reports.iter().zip(current).enumerate().filter_map(move |(index, (r, current))| {
        let (Status::Changed(embedded), Some(pair)) = (&r.status, r.pair) else { return None };
        let base = base.iter().find(|k| k.name == r.name && k.identity() == pair.0)?;
        Some(Changed { index, pair, embedded, base, current })
    })
}

/// Replaces each changed kernel's forecast in `reports` with its ensemble with the LLM's
/// (all requested at once); `base` and `current` are each side's kernels and file text.
pub fn ensemble_reports(
    llm: &LlmForecaster,
    device: &str,
    reports: &mut [KernelReport],
    base: (&[Kernel], &str),
    current: (&[Kernel], &str),
) {
    let (at, pairs): (Vec<usize>, Vec<_>) = changed(reports, base.0, current.0)
        .map(|c| (c.index, (c.embedded.clone(), PairContext::new(c.base, base.1, c.current, current.1, device))))
        .unzip();
    for (i, f) in at.into_iter().zip(llm.ensemble_pairs(&pairs)) {
        reports[i].status = Status::Changed(f);
    }
}

/// The command line's LLM options (`check`, `forecast`, `search`).
#[derive(clap::Args, Clone, Debug)]
pub struct LlmArgs {
    /// Ensemble with an LLM surrogate at this OpenAI-compatible endpoint
    /// (e.g. http://localhost:8000/v1); its API key comes from $KFORECAST_LLM_API_KEY.
    #[arg(long, value_name = "URL", requires = "llm_model")]
    llm_endpoint: Option<String>,
    /// The model the endpoint serves (e.g. openai/gpt-oss-20b).
    #[arg(long, value_name = "NAME")]
    llm_model: Option<String>,
    /// Environment variable holding the endpoint's API key.
    #[arg(long, value_name = "VAR", default_value = DEFAULT_KEY_ENV)]
    llm_api_key_env: String,
    /// Time limit of one LLM request, in milliseconds.
    #[arg(long, value_name = "MS", default_value_t = 30_000, value_parser = clap::value_parser!(u64).range(100..=600_000))]
    llm_timeout_ms: u64,
    /// LLM requests in flight at most.
    #[arg(long, value_name = "N", default_value_t = 4, value_parser = clap::value_parser!(u64).range(1..=64))]
    llm_max_concurrency: u64,
    /// Retries of a failed LLM request (timeouts, dropped connections, HTTP 429 and 5xx).
    #[arg(long, value_name = "N", default_value_t = 2, value_parser = clap::value_parser!(u32).range(0..=10))]
    llm_retries: u32,
    /// The LLM's weight in the ensemble (0–1; the embedded forecaster has the rest).
    #[arg(long, value_name = "W", default_value_t = 0.5, value_parser = crate::cli::check::parse_threshold)]
    llm_weight: f64,
}

impl LlmArgs {
    /// The configuration, if an endpoint was given.
    pub fn config(&self) -> Option<LlmConfig> {
        let endpoint = self.llm_endpoint.clone().filter(|e| !e.trim().is_empty())?;
        Some(LlmConfig {
            endpoint,
            model: self.llm_model.clone().unwrap_or_default(),
            api_key_env: self.llm_api_key_env.clone(),
            timeout: Duration::from_millis(self.llm_timeout_ms),
            max_concurrency: self.llm_max_concurrency as usize,
            max_retries: self.llm_retries,
            weight: self.llm_weight,
            rewrites: rewrite::DEFAULT_REWRITES,
        })
    }

    /// The surrogate for a command, sharing the command's forecast cache; `None` if off.
    pub fn forecaster(
        &self,
        cache: std::sync::Arc<kforecast_core::cache::ForecastCache>,
    ) -> anyhow::Result<Option<LlmForecaster>> {
        match self.config() {
            None => Ok(None),
            Some(c) => Ok(Some(LlmForecaster::new(&c, cache).map_err(|e| anyhow::anyhow!("--llm-endpoint: {e}"))?)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn settings_are_applied_and_bad_ones_named() {
        let mut c = LlmConfig::default();
        assert!(!c.enabled());
        let errors = c.apply(
            "llm",
            &json!({"endpoint": "http://localhost:8000/v1", "model": "openai/gpt-oss-20b", "timeoutMs": 5000,
                    "maxConcurrency": 2, "weight": 0.3, "apiKeyEnv": "MY_KEY"}),
        );
        assert!(errors.is_empty(), "{errors:?}");
        assert!(c.enabled());
        assert_eq!(c.timeout, Duration::from_millis(5000));
        assert_eq!((c.max_concurrency, c.weight, c.api_key_env.as_str()), (2, 0.3, "MY_KEY"));
        let errors = c.apply("llm", &json!({"timeoutMs": 5, "weight": 2, "endpoint": "ftp://x", "apiKeyEnv": ""}));
        assert_eq!(errors.len(), 4, "{errors:?}");
        for name in
            ["kforecast.llm.timeoutMs", "kforecast.llm.weight", "kforecast.llm.endpoint", "kforecast.llm.apiKeyEnv"]
        {
            assert!(errors.iter().any(|e| e.contains(name)), "{name}: {errors:?}");
        }
        assert_eq!(c.timeout, Duration::from_millis(5000), "a bad value keeps the previous one");
        // The editors' `llmEndpoint: {url, model, apiKeyEnv}` and flat keys.
        let mut d = LlmConfig::default();
        assert!(d.apply("llmEndpoint", &json!({"url": "https://api.example.com/v1", "model": "m"})).is_empty());
        assert_eq!(d.endpoint, "https://api.example.com/v1");
        assert!(d.apply("llm.maxConcurrency", &json!(8)).is_empty());
        assert_eq!(d.max_concurrency, 8);
        assert_eq!(d.rewrites, rewrite::DEFAULT_REWRITES);
        assert!(d.apply("llm.rewrites", &json!(0)).is_empty());
        assert_eq!(d.rewrites, 0);
        assert!(d.apply("llm.rewrites", &json!(9))[0].contains("kforecast.llm.rewrites"));
        assert!(d.apply("llm", &Value::Null).is_empty());
        assert!(!d.enabled());
        assert!(d.apply("llm", &json!("http://x"))[0].contains("kforecast.llm"));
    }
}
