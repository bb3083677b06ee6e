//! The search without a GPU: measurements replayed from sweeps recorded on an H100
//! (`tests/data/search/`, see its README). The core loop is driven directly here; the
//! command line and the language server are driven through a fake worker on loopback
//! that answers from the same tables. The LLM rewrite operator is driven through a fake
//! chat endpoint on loopback; its rewrites are measured by the fake worker from what
//! their source holds.

mod command_line;
#[path = "../common/mod.rs"]
mod common;
mod editor;
mod engine;
mod llm_rewrite;
mod policy;

use common::{binary, position_of, repo_root, uri_of, Client};
use kforecast_core::extract::extract_text;
use kforecast_core::forecast::{EmbeddedForecaster, Forecaster};
use kforecast_core::hash::ContentHash;
use kforecast_core::kernel::Language;
use kforecast_core::measure::protocol::{DeviceInfo, Job, MeasureRequest, Measurement, Status};
use kforecast_core::measure::spec;
use kforecast_core::search::{
    diff, KnobSpace, Measured, Measurer, Original, Outcome, Progress, SearchConfig, Searcher, Step, Stop,
};
use serde_json::{json, Value};
use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// One recorded kernel: its file and its sweep.
struct Table {
    file: &'static str,
    kernel: &'static str,
    language: Language,
    text: String,
    rows: HashMap<String, Value>,
    /// The sweep is a sample of the knob space (the variants nearest the original), not
    /// all of it.
    sample: bool,
}

/// `file` in `tests/data/search/`, or a path under `tests/data/` (its sweep, named after
/// its stem, in `tests/data/search/`).
fn table(file: &'static str, kernel: &'static str) -> Table {
    let dir = repo_root().join("tests/data/search");
    let source = if file.contains('/') { repo_root().join("tests/data").join(file) } else { dir.join(file) };
    let text = std::fs::read_to_string(source).expect("source");
    let name = file.rsplit('/').next().expect("name");
    let stem = name.split('.').next().expect("stem");
    let sweep = std::fs::read_to_string(dir.join(format!("{stem}.sweep.jsonl"))).expect("sweep");
    let rows = sweep
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).expect("json line"))
        .map(|v| (v["text_hash"].as_str().expect("hash").to_string(), v))
        .collect();
    let language = if file.ends_with(".py") { Language::Triton } else { Language::Cuda };
    Table { file, kernel, language, text, rows, sample: false }
}

fn tables() -> Vec<Table> {
    vec![table("transpose.cu", "transpose"), table("reduction.cu", "reduce_sum"), table("vector_add.py", "add_kernel")]
}

/// The templated 2D-blocktiling SGEMM of `tests/data/foreign/sgemm/`: its 645 variants
/// nearest the original (of 2,499 valid), measured on an H100.
fn sgemm_table() -> Table {
    Table { sample: true, ..table("foreign/sgemm/sgemm_2d.cu", "sgemm2DBlocktiling") }
}

/// A recorded row as the worker's answer.
fn measurement(row: &Value) -> Measurement {
    let mut m = Measurement::failure(Status::Error, "");
    m.status = serde_json::from_value(row["status"].clone()).expect("status");
    m.speedup = row["speedup"].as_f64();
    m.ci_low = row["ci_low"].as_f64();
    m.ci_high = row["ci_high"].as_f64();
    m.device = row["device"].as_str().map(|d| DeviceInfo { name: d.to_string(), ..DeviceInfo::default() });
    m
}

/// Answers from a table; `stored` variants count as answered by the store, `wrong` ones
/// as computing a wrong result (a miscompiled variant). A variant outside a sampled
/// table is answered as a failed run (the worst it could be) and counted in `outside`.
struct Replay<'a> {
    table: &'a Table,
    stored: HashSet<String>,
    wrong: HashSet<String>,
    /// No GPU answers at all.
    unavailable: bool,
    calls: Vec<String>,
    outside: u32,
}

impl<'a> Replay<'a> {
    fn new(table: &'a Table) -> Self {
        Self { table, stored: HashSet::new(), wrong: HashSet::new(), unavailable: false, calls: Vec::new(), outside: 0 }
    }
}

impl Measurer for Replay<'_> {
    fn measure(&mut self, candidate: &str) -> Measured {
        let hash = ContentHash::of(candidate.as_bytes()).to_string();
        if self.unavailable {
            let m = Measurement::failure(Status::NoGpu, "no NVIDIA driver");
            return Measured { measurement: m, gpu_run: false, unavailable: true };
        }
        let Some(row) = self.table.rows.get(&hash) else {
            assert!(
                self.table.sample,
                "{}: a variant that is not in the recorded sweep:\n{candidate}",
                self.table.file
            );
            self.outside += 1;
            self.calls.push(hash);
            let m = Measurement::failure(Status::Error, "not in the recorded sample");
            return Measured { measurement: m, gpu_run: true, unavailable: false };
        };
        let mut m = measurement(row);
        if self.wrong.contains(&hash) {
            m.status = Status::WrongResult;
            m.speedup = None;
        }
        self.calls.push(hash.clone());
        Measured { measurement: m, gpu_run: !self.stored.contains(&hash), unavailable: false }
    }
}

fn search_with(
    t: &Table,
    measurer: &mut Replay,
    config: &SearchConfig,
    cancel: &AtomicBool,
    progress: &mut dyn FnMut(&Progress),
) -> Outcome {
    search_by(&EmbeddedForecaster::new(), t, measurer, config, cancel, progress)
}

fn search_by(
    forecaster: &dyn Forecaster,
    t: &Table,
    measurer: &mut dyn Measurer,
    config: &SearchConfig,
    cancel: &AtomicBool,
    progress: &mut dyn FnMut(&Progress),
) -> Outcome {
    let original = Original::new(&t.text, t.language, t.kernel).expect("original");
    Searcher { forecaster, measurer, operators: Vec::new(), cancel, progress }.run(&original, config).expect("search")
}

fn search(t: &Table, budget: u32, seed: u64, surrogate: bool) -> (Outcome, Vec<String>) {
    let mut replay = Replay::new(t);
    let config = SearchConfig { budget, seed, surrogate };
    let outcome = search_with(t, &mut replay, &config, &AtomicBool::new(false), &mut |_| {});
    (outcome, replay.calls)
}

fn recorded_speedup(t: &Table, text: &str) -> f64 {
    t.rows[&ContentHash::of(text.as_bytes()).to_string()]["speedup"].as_f64().expect("speedup")
}

fn execute(c: &mut Client, command: &str, uri: &str, kernel: &str) -> Value {
    c.request("workspace/executeCommand", json!({"command": command, "arguments": [{"uri": uri, "kernel": kernel}]}))
}

/// Byte offset of an LSP position in an ASCII text.
fn offset(text: &str, pos: &Value) -> usize {
    let (line, col) = (pos["line"].as_u64().expect("line") as usize, pos["character"].as_u64().expect("col") as usize);
    text.split_inclusive('\n').take(line).map(str::len).sum::<usize>() + col
}

fn apply_edits(text: &str, edits: &[Value]) -> String {
    let mut edits: Vec<(usize, usize, &str)> = edits
        .iter()
        .map(|e| {
            (offset(text, &e["range"]["start"]), offset(text, &e["range"]["end"]), e["newText"].as_str().expect("text"))
        })
        .collect();
    edits.sort_by_key(|e| std::cmp::Reverse(e.0));
    let mut out = text.to_string();
    for (s, e, new) in edits {
        out.replace_range(s..e, new);
    }
    out
}

/// A GPU worker on loopback (`/v1/health`, `/v1/measure`; no shared store) that answers from the recorded
/// sweeps: each recorded variant is rendered, its job built as the server builds it, and
/// the job's candidate looked up.
struct FakeWorker {
    url: String,
    requests: Arc<AtomicUsize>,
    _server: Loopback,
}

/// An HTTP server on loopback whose requests go to `handle` until it is dropped.
struct Loopback {
    stop: Arc<AtomicBool>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Loopback {
    /// The server and its address (`127.0.0.1:port`).
    fn start(mut handle: impl FnMut(tiny_http::Request) + Send + 'static) -> (Loopback, String) {
        let server = tiny_http::Server::http("127.0.0.1:0").expect("listen");
        let addr = server.server_addr().to_ip().expect("ip").to_string();
        let stop = Arc::new(AtomicBool::new(false));
        let done = stop.clone();
        let thread = std::thread::spawn(move || {
            while !done.load(Ordering::SeqCst) {
                if let Ok(Some(rq)) = server.recv_timeout(Duration::from_millis(50)) {
                    handle(rq);
                }
            }
        });
        (Loopback { stop, thread: Some(thread) }, addr)
    }
}

impl Drop for Loopback {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// The key of a job's candidate: what the worker would compile and launch.
fn job_key(job: &Job) -> String {
    match job {
        Job::Cuda(j) => serde_json::to_string(&j.candidate).expect("json"),
        Job::Triton(j) => ContentHash::of(j.candidate.source.as_bytes()).to_string(),
    }
}

fn recorded_jobs(t: &Table) -> HashMap<String, Value> {
    let space = KnobSpace::discover(&t.text, t.language, t.kernel).expect("space");
    let original = extract_text(t.language, &t.text).kernel(t.kernel).cloned().expect("kernel");
    let mut out = HashMap::new();
    for row in t.rows.values() {
        let values: Vec<i64> = space.knobs.iter().map(|k| row["knobs"][&k.name].as_i64().expect("value")).collect();
        let text = space.render(&values);
        assert_eq!(ContentHash::of(text.as_bytes()).to_string(), row["text_hash"], "the table matches the renderer");
        let cand = extract_text(t.language, &text).kernel(t.kernel).cloned().expect("kernel");
        let (job, _) = spec::job((t.file, &original, &t.text), (t.file, &cand, &text)).expect("job");
        out.insert(job_key(&job), row.clone());
    }
    out
}

fn fake_worker(tables: &[&Table], delay: Duration) -> FakeWorker {
    fake_worker_answering(tables, delay, |_| None)
}

/// A fake worker that also answers jobs outside the recorded sweeps, as `answer` says
/// (rewritten kernels, told apart by what their source holds).
fn fake_worker_answering(
    tables: &[&Table],
    delay: Duration,
    answer: impl Fn(&Job) -> Option<Measurement> + Send + 'static,
) -> FakeWorker {
    let mut jobs = HashMap::new();
    for t in tables {
        jobs.extend(recorded_jobs(t));
    }
    let requests = Arc::new(AtomicUsize::new(0));
    let count = requests.clone();
    let (server, addr) = Loopback::start(move |mut rq| {
        let mut body = String::new();
        let _ = rq.as_reader().read_to_string(&mut body);
        if rq.url().starts_with("/v1/store/") {
            // A worker without a shared store.
            let _ = rq.respond(tiny_http::Response::from_string(r#"{"error": "no store"}"#).with_status_code(501));
            return;
        }
        let answer = if rq.url().ends_with("/v1/health") {
            json!({"ok": true, "device": {"name": "NVIDIA H100 80GB HBM3", "compute_capability": "9.0", "memory_bytes": 0, "driver": "recorded"}, "version": "replay"})
        } else {
            count.fetch_add(1, Ordering::SeqCst);
            std::thread::sleep(delay);
            let req: MeasureRequest = serde_json::from_str(&body).expect("measure request");
            match (jobs.get(&job_key(&req.job)), answer(&req.job)) {
                (Some(row), _) => serde_json::to_value(measurement(row)).expect("json"),
                (None, Some(m)) => serde_json::to_value(m).expect("json"),
                (None, None) => json!({"status": "error", "message": "this job is not in the recorded sweep"}),
            }
        };
        let _ = rq.respond(tiny_http::Response::from_string(answer.to_string()));
    });
    FakeWorker { url: format!("http://{addr}"), requests, _server: server }
}
fn cli(args: &[&str], worker: &FakeWorker) -> (std::process::Output, String) {
    let cache = tempfile::tempdir().expect("cache");
    cli_in(cache.path(), args, worker, &[])
}

/// `kforecast ARGS --worker W` with its cache in `cache` and these environment variables.
fn cli_in(
    cache: &std::path::Path,
    args: &[&str],
    worker: &FakeWorker,
    env: &[(&str, &str)],
) -> (std::process::Output, String) {
    let mut cmd = std::process::Command::new(binary());
    cmd.args(args)
        .args(["--worker", &worker.url])
        .env("KFORECAST_CACHE_DIR", cache)
        .env("KFORECAST_WORKER_TOKEN", "t")
        .env_remove("KFORECAST_LLM_API_KEY")
        .env_remove("KFORECAST_LOG")
        .current_dir(repo_root().join("tests/data/search"));
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.output().expect("run");
    let stdout = String::from_utf8_lossy(&out.stdout).to_string();
    (out, stdout)
}
