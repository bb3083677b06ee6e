//! The client side: where jobs go. A local worker (a supervised child process on this
//! machine) or remote workers over HTTP(S); jobs are spread across them, and a worker
//! that does not answer is skipped for a while and tried again later. A batch of jobs
//! ([`WorkerPool::measure_many`]) keeps every worker busy at once: one lane per job a
//! worker can take at a time (a farm behind one URL says how many in its health), and a
//! job whose worker stops answering goes back to the queue for the others.

use super::supervisor::LocalWorker;
use super::Health;
use crate::http::HttpClient;
use kforecast_core::measure::protocol::{MeasureRequest, Measurement, Status};
use serde::Deserialize;
use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Mutex, OnceLock};
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

pub(super) enum Endpoint {
    Local(Mutex<LocalWorker>),
    Remote {
        url: String,
        token: Option<String>,
        client: HttpClient,
        /// Jobs it measures at once, from its health (asked once, for the first batch).
        slots: OnceLock<usize>,
        /// Answered that it keeps no shared store (not asked again).
        storeless: AtomicBool,
    },
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
    pub(super) endpoints: Vec<Endpoint>,
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

/// The most jobs in flight to one worker URL (a farm of that many GPUs).
const MAX_SLOTS: usize = 256;

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
            let url = s.url.trim_end_matches('/').to_string();
            endpoints.push(Endpoint::Remote {
                url,
                token,
                client,
                slots: OnceLock::new(),
                storeless: AtomicBool::new(false),
            });
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

    /// Runs every job, each worker as busy as it can be, and answers in the jobs' order;
    /// `done` hears of each job as it finishes (in any order). A worker that stops
    /// answering leaves its job to the others, so a worker lost mid-batch loses no job.
    pub fn measure_many(
        &self,
        reqs: &[MeasureRequest],
        done: &(dyn Fn(usize, &Measurement) + Sync),
    ) -> Vec<Measurement> {
        let queue = Mutex::new((0..reqs.len()).collect::<VecDeque<usize>>());
        let results: Mutex<Vec<Option<Measurement>>> = Mutex::new(vec![None; reqs.len()]);
        let slots: Vec<usize> = (0..self.endpoints.len()).map(|i| self.slots(i)).collect();
        // Lanes interleaved across workers, so a short batch is spread over all of them.
        let most = slots.iter().copied().max().unwrap_or(1);
        let slots = &slots;
        let lanes: Vec<usize> =
            (0..most).flat_map(|k| (0..slots.len()).filter(move |&i| k < slots[i])).take(reqs.len().max(1)).collect();
        std::thread::scope(|scope| {
            for &i in &lanes {
                let (queue, results) = (&queue, &results);
                scope.spawn(move || {
                    // The guard is dropped inside the closure: no lock is held during a job.
                    let next = || queue.lock().ok().and_then(|mut q| q.pop_front());
                    while let Some(j) = next() {
                        match self.run_on(i, &reqs[j]) {
                            Ok(mut m) => {
                                self.mark(i, false);
                                m.worker = self.endpoints[i].name();
                                done(j, &m);
                                if let Ok(mut r) = results.lock() {
                                    r[j] = Some(m);
                                }
                            }
                            Err(Unreachable(why)) => {
                                // This lane stops; the job waits for another worker.
                                tracing::warn!("worker {} unavailable: {why}", self.endpoints[i].name());
                                self.mark(i, true);
                                if let Ok(mut q) = queue.lock() {
                                    q.push_front(j);
                                }
                                break;
                            }
                        }
                    }
                });
            }
        });
        // Jobs left when every lane had stopped: each tried once more through every worker.
        let results = results.into_inner().unwrap_or_default();
        results
            .into_iter()
            .enumerate()
            .map(|(j, m)| {
                m.unwrap_or_else(|| {
                    let m = self.measure(&reqs[j]);
                    done(j, &m);
                    m
                })
            })
            .collect()
    }

    /// How many jobs worker `i` measures at once: one for a local or plain worker; what
    /// its health says for a farm (its GPU replicas).
    fn slots(&self, i: usize) -> usize {
        let Endpoint::Remote { url, token, client, slots, .. } = &self.endpoints[i] else { return 1 };
        *slots.get_or_init(|| {
            let Ok(http) = client.get() else { return 1 };
            let mut r = http.get(format!("{url}/v1/health")).timeout(Duration::from_secs(60));
            if let Some(t) = token {
                r = r.bearer_auth(t);
            }
            let health = r.send().and_then(|r| r.error_for_status()).and_then(|r| r.json::<Health>());
            health.ok().and_then(|h| h.slots).map_or(1, |n| n.clamp(1, MAX_SLOTS))
        })
    }

    fn run_on(&self, i: usize, req: &MeasureRequest) -> Result<Measurement, Unreachable> {
        match &self.endpoints[i] {
            Endpoint::Local(w) => {
                let mut w = w.lock().map_err(|_| Unreachable("lock poisoned".into()))?;
                Ok(w.measure(req, self.job_timeout))
            }
            Endpoint::Remote { url, token, client, .. } => {
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
                    Endpoint::Remote { url, token, client, .. } => match client.get() {
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
