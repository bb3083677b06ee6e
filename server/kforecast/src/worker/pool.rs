//! The client side: where jobs go. A local worker (a supervised child process on this
//! machine) or remote workers over HTTP(S); jobs are spread across them, and a worker
//! that does not answer is skipped for a while and tried again later.

use super::supervisor::LocalWorker;
use super::Health;
use crate::http::HttpClient;
use kforecast_core::measure::protocol::{MeasureRequest, Measurement, Status};
use serde::Deserialize;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// One `gpuWorkers` entry: `{"url": "http://gpu-box:7878", "token": "…"}` or
/// `{"url": …, "tokenEnv": "VAR"}`; `{"url": "local"}` is a worker on this machine.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct WorkerSetting {
    pub url: String,
    #[serde(default)]
    pub token: Option<String>,
    #[serde(default)]
    pub token_env: Option<String>,
}

enum Endpoint {
    Local(Mutex<LocalWorker>),
    Remote { url: String, token: Option<String>, client: HttpClient },
}

impl Endpoint {
    fn name(&self) -> String {
        match self {
            Endpoint::Local(_) => "local".to_string(),
            Endpoint::Remote { url, .. } => url.clone(),
        }
    }
}

/// Why a worker could not be used (so the next one is tried).
struct Unreachable(String);

/// How a measurement starts when none of the workers could take the job.
pub const NO_WORKER: &str = "no GPU worker could take the job";

pub struct WorkerPool {
    endpoints: Vec<Endpoint>,
    /// What each worker's last job said.
    last: Mutex<Vec<Last>>,
    next: AtomicUsize,
    job_timeout: Duration,
}

/// What a worker's last job said.
#[derive(Clone, Copy, Debug)]
enum Last {
    Unused,
    Up,
    /// It did not answer; left alone until then.
    Down(Instant),
}

/// How long a worker that did not answer is left alone.
const RETRY_AFTER: Duration = Duration::from_secs(30);

impl WorkerPool {
    /// A pool from settings; no entries means one local worker.
    pub fn new(settings: &[WorkerSetting], job_timeout: Duration) -> Result<Self, String> {
        let mut endpoints = Vec::new();
        for (i, s) in settings.iter().enumerate() {
            if s.url == "local" {
                endpoints.push(Endpoint::Local(Mutex::new(LocalWorker::new())));
                continue;
            }
            let parsed = reqwest::Url::parse(&s.url)
                .map_err(|e| format!("gpuWorkers[{i}].url `{}` is not a URL: {e}", s.url))?;
            if !matches!(parsed.scheme(), "http" | "https") {
                return Err(format!("gpuWorkers[{i}].url must be http:// or https://, got `{}`", s.url));
            }
            let token = match (&s.token, &s.token_env) {
                (Some(t), _) => Some(t.clone()),
                (None, Some(var)) => Some(
                    std::env::var(var)
                        .map_err(|_| format!("gpuWorkers[{i}].tokenEnv: environment variable `{var}` is not set"))?,
                ),
                (None, None) => None,
            };
            let client = HttpClient::new(Duration::from_secs(5), job_timeout + Duration::from_secs(30));
            endpoints.push(Endpoint::Remote { url: s.url.trim_end_matches('/').to_string(), token, client });
        }
        if endpoints.is_empty() {
            endpoints.push(Endpoint::Local(Mutex::new(LocalWorker::new())));
        }
        let n = endpoints.len();
        Ok(Self { endpoints, last: Mutex::new(vec![Last::Unused; n]), next: AtomicUsize::new(0), job_timeout })
    }

    /// Not left alone after failing to answer (or the time to leave it alone is over).
    fn alive(&self, i: usize) -> bool {
        self.last.lock().map(|l| !matches!(l[i], Last::Down(t) if Instant::now() < t)).unwrap_or(true)
    }

    fn mark(&self, i: usize, dead: bool) {
        if let Ok(mut l) = self.last.lock() {
            l[i] = if dead { Last::Down(Instant::now() + RETRY_AFTER) } else { Last::Up };
        }
    }

    /// Each worker and what the pool knows of it without asking: "up" (answered its last
    /// job), "down" (did not answer it) or "unused" (no job yet).
    pub fn states(&self) -> Vec<(String, &'static str)> {
        let last = self.last.lock().map(|l| l.clone()).unwrap_or_default();
        let state = |i: usize| match last.get(i) {
            Some(Last::Up) => "up",
            Some(Last::Down(_)) => "down",
            Some(Last::Unused) | None => "unused",
        };
        self.endpoints.iter().enumerate().map(|(i, e)| (e.name(), state(i))).collect()
    }

    /// Runs a job on the next live worker, falling through to the others.
    pub fn measure(&self, req: &MeasureRequest) -> Measurement {
        let n = self.endpoints.len();
        let start = self.next.fetch_add(1, Ordering::Relaxed);
        let mut problems = Vec::new();
        // Live workers first, in turn; then the ones marked dead, in case they are back.
        let order: Vec<usize> = (0..n).map(|k| (start + k) % n).collect();
        let (live, dead): (Vec<usize>, Vec<usize>) = order.into_iter().partition(|&i| self.alive(i));
        for i in live.into_iter().chain(dead) {
            match self.run_on(i, req) {
                Ok(mut m) => {
                    self.mark(i, false);
                    m.worker = self.endpoints[i].name();
                    return m;
                }
                Err(Unreachable(why)) => {
                    tracing::warn!("worker {} unavailable: {why}", self.endpoints[i].name());
                    self.mark(i, true);
                    problems.push(format!("{}: {why}", self.endpoints[i].name()));
                }
            }
        }
        Measurement::failure(Status::Error, format!("{NO_WORKER}: {}", problems.join("; ")))
    }

    fn run_on(&self, i: usize, req: &MeasureRequest) -> Result<Measurement, Unreachable> {
        match &self.endpoints[i] {
            Endpoint::Local(w) => {
                let mut w = w.lock().map_err(|_| Unreachable("lock poisoned".into()))?;
                Ok(w.measure(req, self.job_timeout))
            }
            Endpoint::Remote { url, token, client } => {
                let http = client.get().map_err(|e| Unreachable(format!("HTTP client: {e}")))?;
                let mut r = http.post(format!("{url}/v1/measure")).json(req);
                if let Some(t) = token {
                    r = r.bearer_auth(t);
                }
                let resp = r.send().map_err(|e| Unreachable(e.to_string()))?;
                let status = resp.status();
                if status.is_success() {
                    return resp.json::<Measurement>().map_err(|e| Unreachable(format!("bad answer: {e}")));
                }
                let body = resp.text().unwrap_or_default();
                match status.as_u16() {
                    401 => Err(Unreachable("the worker rejected the token (check gpuWorkers' token)".into())),
                    413 => {
                        Ok(Measurement::failure(Status::Error, format!("the job is larger than {url} accepts: {body}")))
                    }
                    400 => Ok(Measurement::failure(Status::Error, format!("{url} rejected the job: {body}"))),
                    code => Err(Unreachable(format!("HTTP {code}: {body}"))),
                }
            }
        }
    }

    /// Health of every worker.
    pub fn health(&self) -> Vec<(String, Health)> {
        self.endpoints
            .iter()
            .map(|e| {
                let h = match e {
                    Endpoint::Local(w) => match w.lock() {
                        Ok(mut w) => w.health(Duration::from_secs(30)),
                        Err(_) => Health::default(),
                    },
                    Endpoint::Remote { url, token, client } => match client.get() {
                        Err(_) => Health { ok: false, message: "no HTTP client".into(), ..Health::default() },
                        Ok(http) => {
                            let mut r = http.get(format!("{url}/v1/health"));
                            if let Some(t) = token {
                                r = r.bearer_auth(t);
                            }
                            match r.send().and_then(|r| r.error_for_status()).and_then(|r| r.json::<Health>()) {
                                Ok(h) => h,
                                Err(e) => Health { ok: false, message: e.to_string(), ..Health::default() },
                            }
                        }
                    },
                };
                (e.name(), h)
            })
            .collect()
    }
}
