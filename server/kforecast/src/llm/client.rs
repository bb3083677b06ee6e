//! A small chat-completions client for any OpenAI-compatible endpoint, shared by the
//! LLM surrogate and whatever else needs a model's text (e.g. a rewrite operator).
//!
//! `POST {endpoint}/chat/completions` with `model`, `messages`, `temperature` and, where
//! the endpoint accepts it, `response_format: {"type": "json_object"}`. Each request has
//! a time limit; timeouts, dropped or cut-off connections, HTTP 429 and 5xx are retried
//! with exponential backoff and jitter (honouring `Retry-After`) within an overall
//! budget; at most `max_concurrency` requests are in flight. The API key is read from
//! the environment variable the configuration names, sent as a bearer token, and
//! removed from every message this client produces. Blocking: call it from a thread
//! that may block (`spawn_blocking` in async code).

use super::LlmConfig;
use crate::http::HttpClient;
use kforecast_core::forecast::llm_prompt::{one_line, ChatMessage, ReplyError};
use serde_json::{json, Value};
use std::hash::BuildHasher;
use std::io::Read;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Condvar, Mutex};
use std::time::{Duration, Instant};

/// Why a request (or the answer in it) could not be used. Messages never hold the API key.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum LlmError {
    #[error("{0}")]
    Config(String),
    #[error("no answer within {:.1} s", .0.as_secs_f64())]
    Timeout(Duration),
    #[error("cannot reach {endpoint}: {message}")]
    Connection { endpoint: String, message: String },
    #[error("{endpoint} answered HTTP {status}: {body}")]
    Http { endpoint: String, status: u16, body: String },
    #[error("{endpoint} rejected the API key (HTTP {status}): put a valid key in ${env}")]
    Auth { endpoint: String, status: u16, env: String },
    #[error("the reply is not a chat completion: {0}")]
    BadReply(String),
    #[error("the model's answer is unusable: {0}")]
    Answer(#[from] ReplyError),
}

impl LlmError {
    /// Worth another try: the endpoint may answer next time.
    pub fn retryable(&self) -> bool {
        match self {
            LlmError::Timeout(_) | LlmError::Connection { .. } | LlmError::BadReply(_) => true,
            LlmError::Http { status, .. } => *status == 429 || (500..=599).contains(status),
            LlmError::Config(_) | LlmError::Auth { .. } | LlmError::Answer(_) => false,
        }
    }
}

/// How one chat request is made.
#[derive(Clone, Debug, PartialEq)]
pub struct ChatOptions {
    pub temperature: f64,
    /// Ask for a JSON object (`response_format`), where the endpoint supports it.
    pub json: bool,
    pub max_tokens: Option<u32>,
}

impl Default for ChatOptions {
    fn default() -> Self {
        Self { temperature: 0.0, json: false, max_tokens: None }
    }
}

/// The API key: never printed, not even by `{:?}`.
struct Secret(String);

impl std::fmt::Debug for Secret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Secret(***)")
    }
}

/// A counting semaphore: requests in flight at most.
struct Permits {
    max: usize,
    used: Mutex<usize>,
    freed: Condvar,
}

struct Permit<'a>(&'a Permits);

impl Permits {
    fn new(max: usize) -> Self {
        Self { max: max.max(1), used: Mutex::new(0), freed: Condvar::new() }
    }

    /// Waits for a free slot until `deadline`.
    fn acquire(&self, deadline: Instant) -> Option<Permit<'_>> {
        let mut used = self.used.lock().unwrap_or_else(|p| p.into_inner());
        while *used >= self.max {
            let left = deadline.checked_duration_since(Instant::now()).filter(|d| !d.is_zero())?;
            used = self.freed.wait_timeout(used, left).unwrap_or_else(|p| p.into_inner()).0;
        }
        *used += 1;
        Some(Permit(self))
    }
}

impl Drop for Permit<'_> {
    fn drop(&mut self) {
        let mut used = self.0.used.lock().unwrap_or_else(|p| p.into_inner());
        *used = used.saturating_sub(1);
        self.0.freed.notify_one();
    }
}

/// One failed attempt: the error, the wait the endpoint asked for, and whether to try
/// again at once (the endpoint refused `response_format`).
struct Failure {
    error: LlmError,
    retry_after: Option<Duration>,
    again_now: bool,
}

impl From<LlmError> for Failure {
    fn from(error: LlmError) -> Self {
        Self { error, retry_after: None, again_now: false }
    }
}

/// First and longest backoff between attempts; the longest `Retry-After` honoured.
const BACKOFF_BASE: Duration = Duration::from_millis(250);
const BACKOFF_MAX: Duration = Duration::from_secs(4);
const RETRY_AFTER_MAX: Duration = Duration::from_secs(30);
/// The largest reply read; a larger one is an error.
const MAX_REPLY_BYTES: u64 = 8 << 20;

pub struct ChatClient {
    url: String,
    endpoint: String,
    model: String,
    key: Option<Secret>,
    key_env: String,
    timeout: Duration,
    max_retries: u32,
    permits: Permits,
    http: HttpClient,
    json_mode: AtomicBool,
}

impl std::fmt::Debug for ChatClient {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ChatClient").field("url", &self.url).field("model", &self.model).finish_non_exhaustive()
    }
}

impl ChatClient {
    /// A client for `config`; the API key is read now from `config.api_key_env`. A named
    /// variable other than the default that is unset is an error (a local endpoint
    /// needs no key: leave the default unset).
    pub fn new(config: &LlmConfig) -> Result<Self, LlmError> {
        let endpoint = config.endpoint.trim().trim_end_matches('/').to_string();
        let parsed = reqwest::Url::parse(&endpoint)
            .map_err(|e| LlmError::Config(format!("the LLM endpoint `{endpoint}` is not a URL: {e}")))?;
        if !matches!(parsed.scheme(), "http" | "https") {
            return Err(LlmError::Config(format!("the LLM endpoint must be http:// or https://, got `{endpoint}`")));
        }
        if config.model.trim().is_empty() {
            return Err(LlmError::Config("the LLM endpoint needs a model name (the model it serves)".to_string()));
        }
        let key = match std::env::var(&config.api_key_env) {
            Ok(k) if !k.trim().is_empty() => Some(Secret(k.trim().to_string())),
            _ if config.api_key_env != super::DEFAULT_KEY_ENV => {
                return Err(LlmError::Config(format!(
                    "the environment variable `{}` named for the LLM's API key is not set",
                    config.api_key_env
                )))
            }
            _ => None,
        };
        let url = if endpoint.ends_with("/chat/completions") {
            endpoint.clone()
        } else {
            format!("{endpoint}/chat/completions")
        };
        Ok(Self {
            url,
            endpoint,
            model: config.model.trim().to_string(),
            key,
            key_env: config.api_key_env.clone(),
            timeout: config.timeout,
            max_retries: config.max_retries,
            permits: Permits::new(config.max_concurrency),
            http: HttpClient::new(Duration::from_secs(10).min(config.timeout), config.timeout),
            json_mode: AtomicBool::new(true),
        })
    }

    pub fn model(&self) -> &str {
        &self.model
    }

    pub fn endpoint(&self) -> &str {
        &self.endpoint
    }

    /// How long one [`ChatClient::chat`] may take at most, waiting for a slot,
    /// retries and backoff included.
    pub fn budget(&self) -> Duration {
        let attempts = self.max_retries + 1;
        self.timeout * attempts + BACKOFF_MAX * self.max_retries
    }

    /// Sends the messages and returns the text of the first choice.
    pub fn chat(&self, messages: &[ChatMessage], options: &ChatOptions) -> Result<String, LlmError> {
        let deadline = Instant::now() + self.budget();
        let mut retries = 0;
        loop {
            let Some(permit) = self.permits.acquire(deadline) else {
                return Err(LlmError::Timeout(self.budget()));
            };
            let left = deadline.saturating_duration_since(Instant::now());
            let limit = self.timeout.min(left);
            let result = self.attempt(messages, options, limit);
            drop(permit);
            let failure = match result {
                Ok(text) => return Ok(text),
                Err(f) => f,
            };
            if failure.again_now {
                continue;
            }
            if !failure.error.retryable() || retries >= self.max_retries {
                return Err(failure.error);
            }
            let wait = failure.retry_after.unwrap_or_else(|| backoff(retries));
            if Instant::now() + wait >= deadline {
                return Err(failure.error);
            }
            tracing::info!("LLM request failed ({}); retrying in {} ms", failure.error, wait.as_millis());
            std::thread::sleep(wait);
            retries += 1;
        }
    }

    /// Removes the API key from a message taken from elsewhere (an error, a body).
    fn redact(&self, text: &str) -> String {
        match &self.key {
            Some(Secret(k)) => text.replace(k.as_str(), "***"),
            None => text.to_string(),
        }
    }

    fn connection(&self, message: &str) -> LlmError {
        LlmError::Connection { endpoint: self.endpoint.clone(), message: self.redact(message) }
    }

    fn attempt(&self, messages: &[ChatMessage], options: &ChatOptions, limit: Duration) -> Result<String, Failure> {
        let http = self.http.get().map_err(|e| LlmError::Config(format!("cannot set up the HTTP client: {e}")))?;
        let json_mode = options.json && self.json_mode.load(Ordering::Relaxed);
        let mut body = json!({
            "model": self.model,
            "messages": messages,
            "temperature": options.temperature,
            "stream": false,
        });
        if json_mode {
            body["response_format"] = json!({"type": "json_object"});
        }
        if let Some(n) = options.max_tokens {
            body["max_tokens"] = n.into();
        }
        tracing::debug!("LLM request to {} (model {}, time limit {} ms)", self.url, self.model, limit.as_millis());
        let started = Instant::now();
        let mut request = http.post(&self.url).timeout(limit).json(&body);
        if let Some(Secret(k)) = &self.key {
            request = request.bearer_auth(k);
        }
        let response = request.send().map_err(|e| {
            if e.is_timeout() {
                LlmError::Timeout(limit)
            } else {
                self.connection(&error_chain(&e))
            }
        })?;
        let status = response.status().as_u16();
        let retry_after = response
            .headers()
            .get(reqwest::header::RETRY_AFTER)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.trim().parse::<f64>().ok())
            .filter(|s| s.is_finite() && *s >= 0.0)
            .map(|s| Duration::from_secs_f64(s).min(RETRY_AFTER_MAX));
        let bytes = self.read_body(response, started + limit, limit)?;
        let text = String::from_utf8_lossy(&bytes);
        if (200..300).contains(&status) {
            return content_of(&text).map_err(|e| Failure::from(self.redacted(e)));
        }
        let snippet = self.redact(&snippet(&text));
        if status == 400 && json_mode && text.to_ascii_lowercase().contains("response_format") {
            tracing::info!("{} does not take response_format; asking without it", self.endpoint);
            self.json_mode.store(false, Ordering::Relaxed);
            return Err(Failure { error: LlmError::BadReply(snippet), retry_after: None, again_now: true });
        }
        let error = match status {
            401 | 403 => LlmError::Auth { endpoint: self.endpoint.clone(), status, env: self.key_env.clone() },
            _ => LlmError::Http { endpoint: self.endpoint.clone(), status, body: snippet },
        };
        Err(Failure { error, retry_after, again_now: false })
    }

    /// Reads a reply body until `deadline` (a body that trickles in counts against the
    /// request's time limit too) and at most [`MAX_REPLY_BYTES`].
    fn read_body(&self, mut response: impl Read, deadline: Instant, limit: Duration) -> Result<Vec<u8>, LlmError> {
        let mut bytes = Vec::new();
        let mut chunk = [0u8; 16 * 1024];
        loop {
            if Instant::now() >= deadline {
                return Err(LlmError::Timeout(limit));
            }
            match response.read(&mut chunk) {
                Ok(0) => return Ok(bytes),
                Ok(n) => bytes.extend_from_slice(&chunk[..n]),
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => {
                    let timed_out = e.kind() == std::io::ErrorKind::TimedOut
                        || e.get_ref().and_then(|i| i.downcast_ref::<reqwest::Error>()).is_some_and(|r| r.is_timeout());
                    return Err(if timed_out {
                        LlmError::Timeout(limit)
                    } else {
                        self.connection(&format!("the reply was cut off: {}", error_chain(&e)))
                    });
                }
            }
            if bytes.len() as u64 > MAX_REPLY_BYTES {
                return Err(LlmError::BadReply(format!("the reply is larger than {} MB", MAX_REPLY_BYTES >> 20)));
            }
        }
    }

    fn redacted(&self, e: LlmError) -> LlmError {
        match e {
            LlmError::BadReply(m) => LlmError::BadReply(self.redact(&m)),
            other => other,
        }
    }
}

/// A reqwest error with its causes (the top level alone often says only "error sending request").
fn error_chain(e: &dyn std::error::Error) -> String {
    let mut parts = vec![e.to_string()];
    let mut source = e.source();
    while let Some(s) = source {
        let text = s.to_string();
        if !parts.iter().any(|p| p.contains(&text)) {
            parts.push(text);
        }
        source = s.source();
    }
    parts.join(": ")
}

/// The first 300 characters of a body, on one line.
fn snippet(text: &str) -> String {
    one_line(text, 300)
}

/// The text of `choices[0].message.content` of a chat completion.
fn content_of(body: &str) -> Result<String, LlmError> {
    let v: Value =
        serde_json::from_str(body).map_err(|e| LlmError::BadReply(format!("not JSON ({e}): {}", snippet(body))))?;
    if let Some(err) = v.get("error") {
        let message = err.get("message").and_then(Value::as_str).map(str::to_string).unwrap_or_else(|| err.to_string());
        return Err(LlmError::BadReply(format!("the endpoint reported an error: {}", snippet(&message))));
    }
    let choice = v.get("choices").and_then(|c| c.get(0));
    let message = choice.and_then(|c| c.get("message"));
    match message.and_then(|m| m.get("content")).and_then(Value::as_str) {
        Some(text) if !text.trim().is_empty() => Ok(text.to_string()),
        _ => {
            let finish = choice.and_then(|c| c.get("finish_reason")).and_then(Value::as_str).unwrap_or("");
            let reasoning = message.and_then(|m| m.get("reasoning_content").or_else(|| m.get("reasoning")));
            Err(LlmError::BadReply(if finish == "length" {
                "the answer was cut off at the token limit (finish_reason \"length\")".to_string()
            } else if reasoning.is_some_and(|r| !r.is_null()) {
                "the model reasoned but gave no answer".to_string()
            } else {
                format!("no choices[0].message.content in {}", snippet(body))
            }))
        }
    }
}

/// Exponential backoff with jitter: a random wait in [d/2, d], d = 250 ms · 2^retry, at most 4 s.
fn backoff(retry: u32) -> Duration {
    let d = BACKOFF_BASE.saturating_mul(1u32 << retry.min(8)).min(BACKOFF_MAX);
    // Each RandomState is freshly seeded: a cheap source of jitter without a dependency.
    let r = std::collections::hash_map::RandomState::new().hash_one(retry);
    let unit = (r >> 11) as f64 / (1u64 << 53) as f64;
    d.mul_f64(0.5 + 0.5 * unit)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_grows_with_jitter_and_a_cap() {
        for retry in 0..12 {
            let d = backoff(retry);
            let full = BACKOFF_BASE.saturating_mul(1u32 << retry.min(8)).min(BACKOFF_MAX);
            assert!(d >= full / 2 && d <= full, "{retry}: {d:?}");
        }
        assert!(backoff(20) <= BACKOFF_MAX);
    }

    #[test]
    fn content_is_read_from_the_first_choice() {
        let ok = r#"{"choices": [{"message": {"role": "assistant", "content": "{\"bins\": []}"}}]}"#;
        assert_eq!(content_of(ok), Ok("{\"bins\": []}".to_string()));
        let cut = r#"{"choices": [{"message": {"content": ""}, "finish_reason": "length"}]}"#;
        assert!(content_of(cut).expect_err("cut").to_string().contains("token limit"));
        let thinking = r#"{"choices": [{"message": {"content": null, "reasoning_content": "hmm"}}]}"#;
        assert!(content_of(thinking).expect_err("reasoning").to_string().contains("no answer"));
        assert!(content_of(r#"{"error": {"message": "model not found"}}"#)
            .expect_err("error")
            .to_string()
            .contains("model not found"));
        assert!(matches!(content_of("{\"choices\": [{\"mess"), Err(LlmError::BadReply(_))));
    }

    #[test]
    fn configuration_mistakes_are_named() {
        let base = LlmConfig { endpoint: "http://localhost:8000/v1".into(), model: "m".into(), ..LlmConfig::default() };
        assert!(ChatClient::new(&base).is_ok());
        let e = ChatClient::new(&LlmConfig { model: String::new(), ..base.clone() }).expect_err("model");
        assert!(e.to_string().contains("model name"));
        let e = ChatClient::new(&LlmConfig { endpoint: "localhost:8000".into(), ..base.clone() }).expect_err("scheme");
        assert!(e.to_string().contains("http"), "{e}");
        let e = ChatClient::new(&LlmConfig { api_key_env: "KFORECAST_TEST_SURELY_UNSET".into(), ..base.clone() })
            .expect_err("unset key variable");
        assert!(e.to_string().contains("KFORECAST_TEST_SURELY_UNSET"));
        let c = ChatClient::new(&LlmConfig { endpoint: "http://h/v1/chat/completions/".into(), ..base }).expect("full");
        assert_eq!(c.url, "http://h/v1/chat/completions");
    }

    #[test]
    fn permits_bound_and_time_out() {
        let p = Permits::new(2);
        let soon = Instant::now() + Duration::from_millis(50);
        let a = p.acquire(soon).expect("first");
        let _b = p.acquire(soon).expect("second");
        assert!(p.acquire(soon).is_none(), "a third waits, then gives up at the deadline");
        drop(a);
        assert!(p.acquire(Instant::now() + Duration::from_millis(50)).is_some());
    }

    #[test]
    fn the_key_is_never_shown() {
        let c = ChatClient {
            key: Some(Secret("sk-123".into())),
            ..ChatClient::new(&LlmConfig { endpoint: "http://h".into(), model: "m".into(), ..LlmConfig::default() })
                .expect("client")
        };
        assert_eq!(c.redact("bad key sk-123 given"), "bad key *** given");
        assert!(!format!("{c:?} {:?}", c.key).contains("sk-123"));
    }
}
