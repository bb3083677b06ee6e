//! The search without a GPU: measurements replayed from sweeps recorded on an H100
//! (`tests/data/search/`, see its README). The core loop is driven directly here; the
//! command line and the language server are driven through a fake worker on loopback
//! that answers from the same tables. The LLM rewrite operator is driven through a fake
//! chat endpoint on loopback; its rewrites are measured by the fake worker from what
//! their source holds.

mod common;

use common::{binary, position_of, repo_root, uri_of, Client};
use kforecast_core::extract::extract_text;
use kforecast_core::forecast::EmbeddedForecaster;
use kforecast_core::hash::ContentHash;
use kforecast_core::kernel::Language;
use kforecast_core::measure::protocol::{DeviceInfo, Job, MeasureRequest, Measurement, Status};
use kforecast_core::measure::spec;
use kforecast_core::search::{
    diff, KnobSpace, Measured, Measurer, Original, Outcome, Progress, SearchConfig, Searcher, Stop,
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
}

fn table(file: &'static str, kernel: &'static str) -> Table {
    let dir = repo_root().join("tests/data/search");
    let text = std::fs::read_to_string(dir.join(file)).expect("source");
    let stem = file.split('.').next().expect("stem");
    let sweep = std::fs::read_to_string(dir.join(format!("{stem}.sweep.jsonl"))).expect("sweep");
    let rows = sweep
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).expect("json line"))
        .map(|v| (v["text_hash"].as_str().expect("hash").to_string(), v))
        .collect();
    let language = if file.ends_with(".py") { Language::Triton } else { Language::Cuda };
    Table { file, kernel, language, text, rows }
}

fn tables() -> Vec<Table> {
    vec![table("transpose.cu", "transpose"), table("reduction.cu", "reduce_sum"), table("vector_add.py", "add_kernel")]
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
/// as computing a wrong result (a miscompiled variant).
struct Replay<'a> {
    table: &'a Table,
    stored: HashSet<String>,
    wrong: HashSet<String>,
    /// No GPU answers at all.
    unavailable: bool,
    calls: Vec<String>,
}

impl<'a> Replay<'a> {
    fn new(table: &'a Table) -> Self {
        Self { table, stored: HashSet::new(), wrong: HashSet::new(), unavailable: false, calls: Vec::new() }
    }
}

impl Measurer for Replay<'_> {
    fn measure(&mut self, candidate: &str) -> Measured {
        let hash = ContentHash::of(candidate.as_bytes()).to_string();
        if self.unavailable {
            let m = Measurement::failure(Status::NoGpu, "no NVIDIA driver");
            return Measured { measurement: m, gpu_run: false, unavailable: true };
        }
        let row = self.table.rows.get(&hash).unwrap_or_else(|| {
            panic!("{}: a variant that is not in the recorded sweep:\n{candidate}", self.table.file)
        });
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
    let original = Original::new(&t.text, t.language, t.kernel).expect("original");
    let forecaster = EmbeddedForecaster::new();
    Searcher { forecaster: &forecaster, measurer, operators: Vec::new(), cancel, progress }
        .run(&original, config)
        .expect("search")
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

#[test]
fn the_budget_is_never_exceeded_and_every_gpu_run_is_counted() {
    for t in tables() {
        for surrogate in [true, false] {
            for (budget, seed) in [(1, 0), (3, 1), (8, 2), (16, 3)] {
                let (o, calls) = search(&t, budget, seed, surrogate);
                let what = format!("{} budget {budget} seed {seed} surrogate {surrogate}", t.kernel);
                assert!(o.runs <= budget, "{what}: {} runs", o.runs);
                assert_eq!(calls.len() as u32, o.runs + o.cache_hits, "{what}");
                let runs: Vec<u32> = o.steps.iter().filter_map(|s| s.run).collect();
                assert_eq!(runs, (1..=o.runs).collect::<Vec<_>>(), "{what}: runs numbered in order");
                assert_eq!(o.stop == Stop::Budget, o.runs == budget, "{what}: {:?}", o.stop);
                assert_eq!(calls.iter().collect::<HashSet<_>>().len(), calls.len(), "{what}: a variant measured twice");
                // The best is the best measured step, and it is what the table says.
                let best = o.steps.iter().filter_map(|s| s.speedup).fold(1.0, f64::max);
                assert_eq!(o.best_speedup(), best, "{what}");
                if let Some(b) = &o.best {
                    assert_eq!(b.speedup, recorded_speedup(&t, &b.text), "{what}");
                    assert_eq!(b.device.as_deref(), Some("H100"));
                }
            }
        }
    }
}

#[test]
fn stored_measurements_cost_no_gpu_run() {
    let t = table("vector_add.py", "add_kernel");
    // Half of the sweep is already in the store.
    let mut replay = Replay::new(&t);
    replay.stored = t.rows.keys().filter(|h| h.as_bytes()[0] % 2 == 0).cloned().collect();
    let config = SearchConfig { budget: 6, seed: 4, surrogate: false };
    let o = search_with(&t, &mut replay, &config, &AtomicBool::new(false), &mut |_| {});
    assert_eq!(o.runs, 6);
    assert!(o.cache_hits > 0, "{o:?}");
    let stored_steps = o.steps.iter().filter(|s| s.run.is_none()).count() as u32;
    assert_eq!(stored_steps, o.cache_hits);
    assert_eq!(replay.calls.len() as u32, 6 + o.cache_hits);
}

#[test]
fn cancelling_stops_at_once_and_keeps_the_best_so_far() {
    for t in tables() {
        let cancel = AtomicBool::new(false);
        let mut replay = Replay::new(&t);
        let config = SearchConfig { budget: 16, seed: 1, surrogate: true };
        // The user cancels while the third GPU run is under way.
        let mut progress = |p: &Progress| {
            if p.runs == 2 && p.message.starts_with("measuring") {
                cancel.store(true, Ordering::SeqCst);
            }
        };
        let o = search_with(&t, &mut replay, &config, &cancel, &mut progress);
        assert_eq!(o.stop, Stop::Cancelled, "{}", t.kernel);
        assert!(o.runs <= 3, "{}: {} runs after the cancel", t.kernel, o.runs);
        let best = o.steps.iter().filter_map(|s| s.speedup).fold(1.0, f64::max);
        assert_eq!(o.best_speedup(), best);
        // Cancelled before it starts: nothing runs.
        let cancel = AtomicBool::new(true);
        let mut replay = Replay::new(&t);
        let o = search_with(&t, &mut replay, &config, &cancel, &mut |_| {});
        assert_eq!((o.stop, o.runs, replay.calls.len()), (Stop::Cancelled, 0, 0));
    }
}

#[test]
fn without_a_gpu_the_search_stops_and_says_why() {
    let t = table("reduction.cu", "reduce_sum");
    let mut replay = Replay::new(&t);
    replay.unavailable = true;
    let config = SearchConfig { budget: 8, seed: 0, surrogate: true };
    let o = search_with(&t, &mut replay, &config, &AtomicBool::new(false), &mut |_| {});
    assert_eq!((o.stop, o.runs, o.steps.len()), (Stop::Unavailable, 0, 0));
    assert!(o.note.contains("no GPU"), "{}", o.note);
    assert!(o.best.is_none());
}

#[test]
fn a_wrong_result_is_never_the_best() {
    let t = table("transpose.cu", "transpose");
    // The 40 fastest variants compute a wrong result (as a miscompiled variant would).
    let mut by_speed: Vec<(&String, f64)> =
        t.rows.iter().map(|(h, r)| (h, r["speedup"].as_f64().unwrap_or(0.0))).collect();
    by_speed.sort_by(|a, b| b.1.total_cmp(&a.1));
    let wrong: HashSet<String> = by_speed.iter().take(40).map(|(h, _)| (*h).clone()).collect();
    let mut measured_wrong = 0;
    for seed in 0..6 {
        for surrogate in [true, false] {
            let mut replay = Replay::new(&t);
            replay.wrong = wrong.clone();
            let config = SearchConfig { budget: 16, seed, surrogate };
            let o = search_with(&t, &mut replay, &config, &AtomicBool::new(false), &mut |_| {});
            measured_wrong += o.steps.iter().filter(|s| s.status == Status::WrongResult).count();
            for s in o.steps.iter().filter(|s| s.status == Status::WrongResult) {
                assert!(s.speedup.is_none() && s.headline.contains("WRONG RESULT"), "{s:?}");
            }
            if let Some(b) = &o.best {
                assert!(!wrong.contains(&ContentHash::of(b.text.as_bytes()).to_string()), "seed {seed}: {b:?}");
                assert!(b.speedup <= by_speed[40].1 + 1e-12);
            }
        }
    }
    assert!(measured_wrong > 0, "the searches met wrong variants");
}

#[test]
fn the_apply_edit_produces_exactly_the_best_variant() {
    for t in tables() {
        let (o, _) = search(&t, 8, 0, true);
        let best = o.best.as_ref().expect("a faster variant");
        let hunks = diff::hunks(&t.text, &best.text);
        let edits: Vec<_> = hunks.iter().map(|h| (h.old, h.new.clone())).collect();
        assert_eq!(diff::apply(&t.text, &edits), best.text);
        assert_eq!(best.speedup, recorded_speedup(&t, &best.text));
        // Only the kernel's knobs changed: `#define`s, the kernel, its launch wrapper.
        let space = KnobSpace::discover(&t.text, t.language, t.kernel).expect("space");
        let again = KnobSpace::discover(&best.text, t.language, t.kernel).expect("again");
        assert_eq!(again.knobs.len(), space.knobs.len());
        assert_eq!(space.render(&again.original()), best.text, "the best is a point of the knob space");
        for h in &hunks {
            let old = &t.text[h.old.start..h.old.end];
            assert!(old.lines().count() <= 2, "{}: small edits only: {old}", t.kernel);
        }
    }
}

/// Measures a batch as a farm does: all at once, finishing in another order (here the
/// reverse), answered in the batch's order.
struct SideBySide<'a> {
    replay: Replay<'a>,
    batches: Vec<usize>,
}

impl Measurer for SideBySide<'_> {
    fn measure(&mut self, candidate: &str) -> Measured {
        self.batches.push(1);
        self.replay.measure(candidate)
    }

    fn measure_many(&mut self, candidates: &[&str]) -> Vec<Measured> {
        self.batches.push(candidates.len());
        let mut answers: Vec<Measured> = candidates.iter().rev().map(|c| self.replay.measure(c)).collect();
        answers.reverse();
        answers
    }
}

#[test]
fn measuring_a_generation_side_by_side_gives_the_same_search() {
    for t in tables() {
        for (budget, seed) in [(1, 0), (5, 1), (8, 2), (16, 3)] {
            let config = SearchConfig { budget, seed, surrogate: false };
            // A third of the sweep is in the store: stored answers leave budget for more.
            let stored: HashSet<String> = t.rows.keys().filter(|h| h.as_bytes()[1] % 3 == 0).cloned().collect();
            let mut one_by_one = Replay::new(&t);
            one_by_one.stored = stored.clone();
            let a = search_with(&t, &mut one_by_one, &config, &AtomicBool::new(false), &mut |_| {});
            let mut replay = Replay::new(&t);
            replay.stored = stored;
            let mut farm = SideBySide { replay, batches: Vec::new() };
            let original = Original::new(&t.text, t.language, t.kernel).expect("original");
            let forecaster = EmbeddedForecaster::new();
            let cancel = AtomicBool::new(false);
            let b = Searcher {
                forecaster: &forecaster,
                measurer: &mut farm,
                operators: Vec::new(),
                cancel: &cancel,
                progress: &mut |_| {},
            }
            .run(&original, &config)
            .expect("search");
            let what = format!("{} budget {budget} seed {seed}", t.kernel);
            assert_eq!(a, b, "{what}");
            let (mut x, mut y) = (one_by_one.calls.clone(), farm.replay.calls.clone());
            x.sort();
            y.sort();
            assert_eq!(x, y, "{what}: the same variants measured, none more");
            if budget > 1 {
                assert!(farm.batches.iter().any(|&n| n > 1), "{what}: measured side by side: {:?}", farm.batches);
            }
        }
    }
}

#[test]
fn the_same_seed_gives_the_same_search() {
    for t in tables() {
        let (a, calls_a) = search(&t, 8, 7, true);
        let (b, calls_b) = search(&t, 8, 7, true);
        assert_eq!(a, b);
        assert_eq!(calls_a, calls_b);
        let others: Vec<Vec<String>> = (0..4).map(|s| search(&t, 8, s, true).1).collect();
        assert!(others.iter().any(|c| *c != calls_a), "{}: seeds change the search", t.kernel);
    }
}

#[test]
fn a_smaller_budget_is_the_start_of_a_larger_one() {
    for t in tables() {
        for surrogate in [true, false] {
            let (small, _) = search(&t, 8, 5, surrogate);
            let (large, _) = search(&t, 16, 5, surrogate);
            if small.stop == Stop::Budget {
                let n = small.steps.len();
                assert_eq!(small.steps[..], large.steps[..n], "{} surrogate {surrogate}", t.kernel);
            }
        }
    }
}

#[test]
fn the_forecaster_screens_several_candidates_per_gpu_run() {
    for t in tables() {
        for seed in 0..3 {
            let (filtered, _) = search(&t, 8, seed, true);
            let (unfiltered, _) = search(&t, 8, seed, false);
            assert!(unfiltered.considered_per_run() <= 1.0 + 1e-9);
            assert!(filtered.considered_per_run() >= 3.0, "{} seed {seed}: {filtered:?}", t.kernel);
        }
    }
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

fn code_action_titles(c: &mut Client, uri: &str, line: u32) -> Vec<Value> {
    let actions = c.request(
        "textDocument/codeAction",
        json!({"textDocument": {"uri": uri}, "range": {"start": {"line": line, "character": 0}, "end": {"line": line, "character": 0}}, "context": {"diagnostics": []}}),
    );
    actions["result"].as_array().cloned().unwrap_or_default()
}

fn find_action<'a>(actions: &'a [Value], prefix: &str) -> Option<&'a Value> {
    actions.iter().find(|a| a["title"].as_str().is_some_and(|t| t.starts_with(prefix)))
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

/// The first `$/progress` of this kind.
fn progress(c: &mut Client, kind: &'static str) -> Value {
    c.wait_notification(move |n| n["method"] == "$/progress" && n["params"]["value"]["kind"] == kind)
}

#[test]
fn the_editor_searches_reports_progress_and_applies_the_best_variant() {
    let t = table("transpose.cu", "transpose");
    let worker = fake_worker(&[&t], Duration::ZERO);
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("transpose.cu");
    std::fs::write(&path, &t.text).expect("write");
    let uri = uri_of(&path);
    let cache = tempfile::tempdir().expect("cache");
    let mut c = Client::start_in(cache.path());
    let init =
        c.initialize(json!({"gpuWorkers": [{"url": worker.url, "token": "t"}], "search": {"budget": 4, "seed": 1}}));
    let commands = init["result"]["capabilities"]["executeCommandProvider"]["commands"].to_string();
    assert!(commands.contains("kforecast.search") && commands.contains("kforecast.applySearch"), "{commands}");
    c.open(&uri, "cuda", &t.text);
    let line = position_of(&t.text, "transpose(const").0;
    let actions = code_action_titles(&mut c, &uri, line);
    assert!(
        find_action(&actions, "Search faster variants of `transpose` (budget: 4 GPU runs)").is_some(),
        "{actions:?}"
    );
    assert!(find_action(&actions, "Apply:").is_none());

    let started = execute(&mut c, "kforecast.search", &uri, "transpose");
    assert_eq!(started["result"]["started"], true, "{started}");
    let begin = progress(&mut c, "begin");
    assert_eq!(begin["params"]["value"]["cancellable"], true, "{begin}");
    let report = progress(&mut c, "report");
    assert!(report["params"]["value"]["percentage"].is_u64(), "{report}");
    assert!(report["params"]["value"]["message"].as_str().unwrap_or("").contains("GPU runs"), "{report}");
    let end = progress(&mut c, "end");
    let message = end["params"]["value"]["message"].as_str().expect("message").to_string();
    assert!(message.contains("best") && message.contains("faster") && message.contains("4 GPU run(s)"), "{message}");
    assert_eq!(worker.requests.load(Ordering::SeqCst), 4, "the budget is the number of jobs sent");

    let actions = code_action_titles(&mut c, &uri, line);
    let apply = find_action(&actions, "Apply: ").unwrap_or_else(|| panic!("{actions:?}")).clone();
    let title = apply["title"].as_str().expect("title").to_string();
    assert!(title.ends_with("faster (measured on H100)"), "{title}");

    // The document changes: the edit is refused, with a message.
    c.change(&uri, 2, (0, 0), (0, 0), "// a note\n");
    let actions = code_action_titles(&mut c, &uri, line + 1);
    let stale = find_action(&actions, "Apply: ").expect("still listed");
    assert!(stale["disabled"]["reason"].as_str().unwrap_or("").contains("changed"), "{stale}");
    let refused = execute(&mut c, "kforecast.applySearch", &uri, "transpose");
    assert!(refused["error"]["message"].as_str().unwrap_or("").contains("changed since the search"), "{refused}");
    c.wait_notification(|n| {
        n["method"] == "window/showMessage" && n["params"]["message"].as_str().unwrap_or("").contains("not applied")
    });
    assert!(c.server_requests.iter().all(|r| r["method"] != "workspace/applyEdit"));

    // Back to the searched text: the edit goes to the editor and gives the best variant.
    c.change(&uri, 3, (0, 0), (1, 0), "");
    let applied = execute(&mut c, "kforecast.applySearch", &uri, "transpose");
    assert_eq!(applied["result"]["applied"], true, "{applied}");
    let request = c.server_requests.iter().find(|r| r["method"] == "workspace/applyEdit").expect("applyEdit").clone();
    let edits = request["params"]["edit"]["changes"][&uri].as_array().expect("edits").clone();
    let result = apply_edits(&t.text, &edits);
    let speedup = recorded_speedup(&t, &result);
    assert!(
        title.contains(&format!("{:.1}×", speedup)) || title.contains(&format!("{:.2}×", speedup)),
        "{title} {speedup}"
    );
    for h in diff::hunks(&t.text, &result) {
        let line = &t.text[h.old.start..h.old.end];
        assert!(line.starts_with("#define") || line.contains("__launch_bounds__"), "only the knobs change: {h:?}");
    }

    // The same search again is answered from memory, and after a restart from the store.
    let again = execute(&mut c, "kforecast.search", &uri, "transpose");
    assert_eq!(again["result"]["stored"], true, "{again}");
    assert!(c.shutdown().success());
    let mut c = Client::start_in(cache.path());
    c.initialize(json!({"gpuWorkers": [{"url": worker.url, "token": "t"}], "search": {"budget": 4, "seed": 1}}));
    c.open(&uri, "cuda", &t.text);
    let again = execute(&mut c, "kforecast.search", &uri, "transpose");
    assert_eq!(again["result"]["stored"], true, "{again}");
    assert_eq!(worker.requests.load(Ordering::SeqCst), 4, "no new GPU job");
    assert!(find_action(&code_action_titles(&mut c, &uri, line), "Apply: ").is_some());
    assert!(c.shutdown().success());
}

#[test]
fn the_editor_can_cancel_a_search() {
    let t = table("vector_add.py", "add_kernel");
    let worker = fake_worker(&[&t], Duration::from_millis(300));
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("vector_add.py");
    std::fs::write(&path, &t.text).expect("write");
    let uri = uri_of(&path);
    let mut c = Client::start();
    c.initialize(json!({"kforecast": {"gpuWorkers": [{"url": worker.url, "token": "t"}], "search": {"budget": 40}}}));
    c.open(&uri, "python", &t.text);
    let line = position_of(&t.text, "def add_kernel").0;
    assert_eq!(execute(&mut c, "kforecast.search", &uri, "add_kernel")["result"]["started"], true);
    let begin = progress(&mut c, "begin");
    let token = begin["params"]["token"].clone();
    c.wait_notification(|n| {
        n["method"] == "$/progress" && n["params"]["value"]["message"].as_str().is_some_and(|m| m.starts_with("1/40"))
    });
    let actions = code_action_titles(&mut c, &uri, line);
    assert!(find_action(&actions, "Cancel the search").is_some(), "{actions:?}");
    c.notify("window/workDoneProgress/cancel", json!({"token": token}));
    let end = progress(&mut c, "end");
    let message = end["params"]["value"]["message"].as_str().unwrap_or("").to_string();
    assert!(message.contains("cancelled"), "{message}");
    let sent = worker.requests.load(Ordering::SeqCst);
    assert!(sent < 10, "stopped promptly: {sent} jobs");
    // A new search can start; the server is fine.
    let actions = code_action_titles(&mut c, &uri, line);
    assert!(find_action(&actions, "Search faster variants of `add_kernel` (budget: 40 GPU runs)").is_some());
    let status = c.request("kforecast/status", Value::Null);
    assert_eq!(status["result"]["jobs"], 0, "{status}");
    // The status bar's worker count: this worker answered its jobs.
    assert_eq!(status["result"]["gpuWorkers"], json!([{"url": worker.url, "state": "up"}]), "{status}");
    assert!(c.shutdown().success());
}

#[test]
fn the_status_says_which_gpu_workers_answered() {
    let t = table("transpose.cu", "transpose");
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("transpose.cu");
    std::fs::write(&path, &t.text).expect("write");
    let uri = uri_of(&path);
    let mut c = Client::start();
    c.initialize(json!({"gpuWorkers": [{"url": "http://127.0.0.1:1", "token": "t"}], "search": {"budget": 2}}));
    c.open(&uri, "cuda", &t.text);
    let status = c.request("kforecast/status", Value::Null);
    assert_eq!(status["result"]["gpuWorkers"], json!([{"url": "http://127.0.0.1:1", "state": "unused"}]), "{status}");
    // A search whose only worker is not there: the job fails and the worker shows as down.
    assert_eq!(execute(&mut c, "kforecast.search", &uri, "transpose")["result"]["started"], true);
    progress(&mut c, "end");
    let status = c.request("kforecast/status", Value::Null);
    assert_eq!(status["result"]["gpuWorkers"][0]["state"], "down", "{status}");
    assert!(c.shutdown().success());
}

#[test]
fn a_kernel_that_cannot_run_is_refused_with_the_reason() {
    let t = table("transpose.cu", "transpose");
    let text = t.text.replace("// kforecast: rows = 4096; cols = 4096; ", "// ");
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("transpose.cu");
    std::fs::write(&path, &text).expect("write");
    let uri = uri_of(&path);
    let mut c = Client::start();
    c.initialize(json!({"search": {"budget": "lots"}}));
    c.wait_notification(|n| {
        n["method"] == "window/showMessage"
            && n["params"]["message"].as_str().unwrap_or("").contains("kforecast.search.budget")
    });
    c.open(&uri, "cuda", &text);
    let resp = execute(&mut c, "kforecast.search", &uri, "transpose");
    let e = resp["error"]["message"].as_str().unwrap_or("").to_string();
    assert!(e.starts_with("cannot search `transpose`: cannot run `transpose`"), "{resp}");
    let resp = execute(&mut c, "kforecast.applySearch", &uri, "transpose");
    assert!(resp["error"]["message"].as_str().unwrap_or("").contains("no finished search"), "{resp}");
    assert!(c.alive());
    assert!(c.shutdown().success());
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

#[test]
fn the_command_line_prints_the_trajectory_and_the_best_variant_as_a_diff() {
    let t = table("vector_add.py", "add_kernel");
    let worker = fake_worker(&[&t], Duration::ZERO);
    let (out, stdout) = cli(&["search", "vector_add.py", "--budget", "3", "--seed", "2"], &worker);
    assert!(out.status.success(), "{stdout}{}", String::from_utf8_lossy(&out.stderr));
    assert!(stdout.contains("run  1/3") && stdout.contains("run  3/3") && !stdout.contains("run  4/3"), "{stdout}");
    assert!(stdout.contains("3 GPU run(s)") && stdout.contains("per GPU run"), "{stdout}");
    assert!(stdout.contains("best: ") && stdout.contains("measured") && stdout.contains("H100"), "{stdout}");
    assert!(stdout.contains("--- vector_add.py\n+++ vector_add.py (best variant)\n@@ "), "{stdout}");
    let (_, json) =
        cli(&["search", "vector_add.py", "--budget", "3", "--seed", "2", "--no-surrogate", "--json"], &worker);
    let o: Value = serde_json::from_str(json.trim()).expect("json");
    assert_eq!((o["runs"].as_u64(), o["considered"].as_u64()), (Some(3), Some(3)), "{o}");
    assert_eq!(worker.requests.load(Ordering::SeqCst), 6);
    let (out, _) = cli(&["search", "vector_add.py", "--kernel", "nope"], &worker);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no kernel named `nope`"));
    let (out, list) = cli(&["sweep", "vector_add.py", "--list"], &worker);
    assert!(out.status.success());
    assert_eq!(list.lines().count(), t.rows.len(), "the sweep lists the recorded variants");
}

// ---------------------------------------------------------------------------------------
// The LLM rewrite operator: a fake chat endpoint on loopback proposes rewrites, the fake
// worker measures them by what their source holds.

/// What the fake chat endpoint does with one rewrite request.
enum Chat {
    Answer(String),
    /// Waits, then answers (past the client's time limit: a timeout).
    Slow(Duration, String),
}

/// A fake OpenAI-compatible chat endpoint: rewrite requests are answered by a script
/// from the prompt's user message; forecast requests (the LLM surrogate's) with fixed bins.
struct FakeLlm {
    url: String,
    /// User messages of the rewrite requests received.
    asked: Arc<std::sync::Mutex<Vec<String>>>,
    _server: Loopback,
}

impl FakeLlm {
    fn start(script: impl Fn(&str) -> Chat + Send + Sync + 'static) -> Self {
        let asked = Arc::new(std::sync::Mutex::new(Vec::new()));
        let (seen, script) = (asked.clone(), Arc::new(script));
        let (server, addr) = Loopback::start(move |mut rq| {
            let (seen, script) = (seen.clone(), script.clone());
            // A thread per request: a slow answer does not hold up the others.
            std::thread::spawn(move || {
                let mut body = String::new();
                let _ = rq.as_reader().read_to_string(&mut body);
                let body: Value = serde_json::from_str(&body).unwrap_or(Value::Null);
                let system = body["messages"][0]["content"].as_str().unwrap_or("");
                let user = body["messages"][1]["content"].as_str().unwrap_or("").to_string();
                let reply = if system.contains("\"bins\"") {
                    Chat::Answer(r#"{"bins": [0, 0, 0, 0.2, 0.6, 0.2, 0, 0], "why": "about the same"}"#.into())
                } else {
                    seen.lock().expect("asked").push(user.clone());
                    script(&user)
                };
                let content = match reply {
                    Chat::Answer(c) => c,
                    Chat::Slow(wait, c) => {
                        std::thread::sleep(wait);
                        c
                    }
                };
                let completion = json!({"id": "x", "object": "chat.completion", "model": "test-model",
                    "choices": [{"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": "stop"}]});
                let _ = rq.respond(tiny_http::Response::from_string(completion.to_string()));
            });
        });
        FakeLlm { url: format!("http://{addr}/v1"), asked, _server: server }
    }

    fn asked(&self) -> Vec<String> {
        self.asked.lock().expect("asked").clone()
    }
}

/// The transpose through shared-memory tiles: the rewrite an LLM would propose. `marker`
/// (a comment in the kernel) tells the fake worker how it measures.
fn tiled_transpose(marker: &str) -> String {
    format!(
        r#"__global__ void __launch_bounds__(BLOCK_X * BLOCK_Y)
transpose(const float* __restrict__ in, float* __restrict__ out, int rows, int cols)
{{
    // {marker}
    __shared__ float tile[BLOCK_X][BLOCK_X + 1];
    const int x = blockIdx.x * BLOCK_X + threadIdx.x;
    for (int j = threadIdx.y; j < BLOCK_X; j += BLOCK_Y) {{
        const int y = blockIdx.y * BLOCK_X + j;
        if (x < cols && y < rows) tile[j][threadIdx.x] = in[(size_t)y * cols + x];
    }}
    __syncthreads();
    const int ox = blockIdx.y * BLOCK_X + threadIdx.x;
    for (int j = threadIdx.y; j < BLOCK_X; j += BLOCK_Y) {{
        const int oy = blockIdx.x * BLOCK_X + j;
        if (ox < rows && oy < cols) out[(size_t)oy * rows + ox] = tile[threadIdx.x][j];
    }}
}}"#
    )
}

/// The launch of the tiled version: a grid of square tiles.
const TILED_LAUNCH: &str = r#"extern "C" void launch_transpose(const float* in, float* out, int rows, int cols, cudaStream_t stream)
{
    if (rows <= 0 || cols <= 0) return;
    dim3 block(BLOCK_X, BLOCK_Y);
    dim3 grid(ceil_div(cols, BLOCK_X), ceil_div(rows, BLOCK_X));
    transpose<<<grid, block, 0, stream>>>(in, out, rows, cols);
}"#;

/// The prompt is about the file as it is (not a variant of it).
fn about_the_original(user: &str) -> bool {
    user.contains("#define BLOCK_X 32\n#define BLOCK_Y 8") && user.contains("out[(size_t)x * rows + y]")
}

/// A measurement on the (fake) H100.
fn h100(status: Status, speedup: f64) -> Measurement {
    let mut m = Measurement::failure(status, "");
    m.speedup = Some(speedup);
    m.ci_low = Some(speedup * 0.98);
    m.ci_high = Some(speedup * 1.02);
    m.device = Some(DeviceInfo { name: "NVIDIA H100 80GB HBM3".into(), ..DeviceInfo::default() });
    m
}

/// The fake worker for `transpose.cu`: recorded variants from the sweep; a kernel marked
/// `good rewrite` runs 6× faster, one marked `wrong rewrite` 8× faster with a wrong result.
fn rewrite_worker(t: &Table) -> FakeWorker {
    fake_worker_answering(&[t], Duration::ZERO, |job| {
        let source = match job {
            Job::Cuda(j) => &j.candidate.source,
            Job::Triton(j) => &j.candidate.source,
        };
        if source.contains("good rewrite") {
            Some(h100(Status::Ok, 6.0))
        } else if source.contains("wrong rewrite") {
            let mut m = h100(Status::WrongResult, 8.0);
            m.message = "`out` differs from the baseline at 16777216 elements".into();
            Some(m)
        } else {
            None
        }
    })
}

fn llm_args<'a>(llm: &'a FakeLlm, extra: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec!["--llm-endpoint", llm.url.as_str(), "--llm-model", "test-model"];
    args.extend(extra);
    args
}

/// `kforecast search transpose.cu --json` (with these extra arguments) in its own cache.
fn search_json(worker: &FakeWorker, extra: &[&str], env: &[(&str, &str)]) -> (Value, String) {
    let cache = tempfile::tempdir().expect("cache");
    search_json_in(cache.path(), worker, extra, env)
}

fn search_json_in(
    cache: &std::path::Path,
    worker: &FakeWorker,
    extra: &[&str],
    env: &[(&str, &str)],
) -> (Value, String) {
    let mut args = vec!["search", "transpose.cu", "--budget", "6", "--seed", "1", "--json"];
    args.extend(extra);
    let (out, stdout) = cli_in(cache, &args, worker, env);
    let stderr = String::from_utf8_lossy(&out.stderr).to_string();
    assert!(out.status.code().is_some_and(|c| c <= 1), "{stdout}\n{stderr}");
    let v = serde_json::from_str(stdout.trim()).unwrap_or_else(|e| panic!("{e}: {stdout}\n{stderr}"));
    (v, stderr)
}

/// The budget holds and every GPU run is counted, in order.
fn assert_budget_kept(o: &Value, budget: u64, worker_jobs: usize) {
    let runs = o["runs"].as_u64().expect("runs");
    assert!(runs <= budget, "{o}");
    let numbered: Vec<u64> = o["steps"].as_array().expect("steps").iter().filter_map(|s| s["run"].as_u64()).collect();
    assert_eq!(numbered, (1..=runs).collect::<Vec<_>>(), "{o}");
    assert_eq!(o["cache_hits"], 0, "{o}");
    assert_eq!(worker_jobs as u64, runs, "every job sent is a counted GPU run: {o}");
    assert_eq!(o["stop"] == "budget", runs == budget, "{o}");
}

/// The steps that are the LLM's rewrites themselves (not knob children of one).
fn llm_steps(o: &Value) -> Vec<Value> {
    let steps = o["steps"].as_array().expect("steps");
    steps.iter().filter(|s| s["description"].as_str().is_some_and(|d| d.starts_with("LLM rewrite:"))).cloned().collect()
}

#[test]
fn a_good_llm_rewrite_is_screened_measured_and_can_win() {
    let t = table("transpose.cu", "transpose");
    let worker = rewrite_worker(&t);
    let llm = FakeLlm::start(|user| {
        if about_the_original(user) {
            let kernel = tiled_transpose("good rewrite");
            Chat::Answer(format!(
                "Stage tiles in shared memory so that reads and writes are both coalesced.\n```cuda\n{kernel}\n```\n```launch\n{TILED_LAUNCH}\n```\n"
            ))
        } else {
            Chat::Answer("This version is already as fast as I can make it.".into())
        }
    });
    let (o, stderr) = search_json(&worker, &llm_args(&llm, &[]), &[]);
    // Asked once for the original, then for the measured variants it had not had, two a
    // generation at most; never twice about the same variant.
    let asked = llm.asked();
    assert!(asked.iter().filter(|u| about_the_original(u)).count() == 1, "{asked:?}");
    let unique: HashSet<&String> = asked.iter().collect();
    assert_eq!(unique.len(), asked.len(), "a variant asked about twice");
    assert!(asked[0].contains("rows = 4096; cols = 4096") && asked[0].contains("132 SMs"), "{}", asked[0]);
    // Screened like a knob child, measured, and the best.
    let rewrites = llm_steps(&o);
    assert_eq!(rewrites.len(), 1, "{o}");
    let step = &rewrites[0];
    assert!(step["forecast"].is_f64() && step["run"].is_u64(), "screened, then measured on the GPU: {step}");
    assert_eq!(step["status"], "ok");
    assert_eq!(step["speedup"], 6.0);
    let best = &o["best"];
    assert_eq!(best["speedup"], 6.0, "{o}");
    let description = best["description"].as_str().expect("description");
    assert_eq!(description, "LLM rewrite: Stage tiles in shared memory so that reads and writes are both coalesced.");
    let text = best["text"].as_str().expect("text");
    assert!(text.contains("__shared__ float tile[BLOCK_X][BLOCK_X + 1];"), "{text}");
    assert!(text.contains("dim3 grid(ceil_div(cols, BLOCK_X), ceil_div(rows, BLOCK_X));"), "{text}");
    assert!(text.starts_with(&t.text[..t.text.find("__global__").expect("kernel")]), "the rest of the file stays");
    // Then the rewrite's own knobs are tuned, like the original's.
    let tuned: Vec<&str> = o["steps"]
        .as_array()
        .expect("steps")
        .iter()
        .filter_map(|s| s["description"].as_str())
        .filter(|d| d.starts_with("LLM rewrite + "))
        .collect();
    assert!(!tuned.is_empty(), "knob children of the rewrite: {o}");
    assert_budget_kept(&o, 6, worker.requests.load(Ordering::SeqCst));
    assert!(!stderr.contains("error"), "{stderr}");
    // The same search again (a fresh store): the same outcome.
    let (again, _) = search_json(&worker, &llm_args(&llm, &[]), &[]);
    assert_eq!(again, o, "deterministic when the LLM is");
    // In the same store: the answers are kept; a search again asks nothing it asked before
    // (its stored measurements are free, so it goes on to variants the first did not reach).
    let cache = tempfile::tempdir().expect("cache");
    let before = llm.asked().len();
    let (first, _) = search_json_in(cache.path(), &worker, &llm_args(&llm, &[]), &[]);
    let asked_first: HashSet<String> = llm.asked()[before..].iter().cloned().collect();
    assert!(asked_first.iter().any(|u| about_the_original(u)));
    let before = llm.asked().len();
    let (second, _) = search_json_in(cache.path(), &worker, &llm_args(&llm, &[]), &[]);
    let asked_again: Vec<String> = llm.asked()[before..].to_vec();
    assert!(asked_again.iter().all(|u| !asked_first.contains(u)), "answers come from the store");
    assert_eq!(second["best"]["speedup"], 6.0, "{second}");
    assert_eq!(first["best"], o["best"]);
}

#[test]
fn a_wrong_llm_rewrite_is_measured_fails_the_correctness_check_and_is_not_offered() {
    let t = table("transpose.cu", "transpose");
    let worker = rewrite_worker(&t);
    // The rewrite forgets the bounds checks and the barrier: fast, and wrong.
    let wrong = tiled_transpose("wrong rewrite").replace("    __syncthreads();\n", "");
    let llm = FakeLlm::start(move |user| {
        if about_the_original(user) {
            Chat::Answer(format!("Tiles, no barrier.\n```cuda\n{wrong}\n```\n```launch\n{TILED_LAUNCH}\n```"))
        } else {
            Chat::Answer("No further improvement.".into())
        }
    });
    for surrogate in [true, false] {
        let extra = if surrogate { vec![] } else { vec!["--no-surrogate"] };
        let before = worker.requests.load(Ordering::SeqCst);
        let (o, _) = search_json(&worker, &llm_args(&llm, &extra), &[]);
        let rewrites = llm_steps(&o);
        assert_eq!(rewrites.len(), 1, "measured: {o}");
        assert_eq!(rewrites[0]["status"], "wrong_result", "{o}");
        assert!(rewrites[0]["speedup"].is_null(), "a wrong result has no speedup: {o}");
        assert!(rewrites[0]["headline"].as_str().unwrap_or("").contains("WRONG RESULT"), "{o}");
        // Not the best, though it ran 8× faster: the best is a correct, recorded variant.
        let best = &o["best"];
        let text = best["text"].as_str().expect("a correct faster variant");
        assert!(!text.contains("wrong rewrite"), "{best}");
        assert_eq!(best["speedup"].as_f64(), Some(recorded_speedup(&t, text)));
        assert!(o["steps"].as_array().expect("steps").iter().all(|s| s["best"].as_f64() < Some(8.0)));
        assert_budget_kept(&o, 6, worker.requests.load(Ordering::SeqCst) - before);
    }
}

/// Replies an LLM may give that are no use, and the reason each is refused for.
fn unusable_replies() -> Vec<(&'static str, Chat, &'static str)> {
    let good = tiled_transpose("good rewrite");
    let renamed = good.replace("\ntranspose(", "\ntranspose_tiled(");
    let signature = good.replace("int rows, int cols)", "int rows, int cols, int ld)");
    vec![
        (
            "malformed",
            Chat::Answer("Sure! Use shared memory tiles and it will be faster.".into()),
            "no definition of `transpose`",
        ),
        ("empty", Chat::Answer("   ".into()), "no answer"),
        ("partial", Chat::Answer(format!("Tiles.\n```cuda\n{}", &good[..good.len() / 2])), "ends inside a code block"),
        ("renamed", Chat::Answer(format!("```cuda\n{renamed}\n```")), "renames the kernel"),
        ("signature", Chat::Answer(format!("```cuda\n{signature}\n```")), "changes the signature of `transpose`"),
        ("slow", Chat::Slow(Duration::from_secs(5), format!("```cuda\n{good}\n```")), "no answer within 0.3 s"),
    ]
}

#[test]
fn unusable_llm_replies_are_refused_and_the_budget_goes_to_knob_children() {
    let t = table("transpose.cu", "transpose");
    let worker = rewrite_worker(&t);
    let before = worker.requests.load(Ordering::SeqCst);
    let (plain, _) = search_json(&worker, &[], &[]);
    assert_budget_kept(&plain, 6, worker.requests.load(Ordering::SeqCst) - before);
    for (what, reply, why) in unusable_replies() {
        let reply = Arc::new(std::sync::Mutex::new(Some(reply)));
        // The first request gets the unusable reply, later ones a plain refusal.
        let llm = FakeLlm::start(move |_| {
            reply.lock().expect("reply").take().unwrap_or_else(|| Chat::Answer("No improvement.".into()))
        });
        let start = std::time::Instant::now();
        let before = worker.requests.load(Ordering::SeqCst);
        let extra = llm_args(&llm, &["--llm-timeout-ms", "300", "--llm-retries", "0"]);
        let (o, stderr) = search_json(&worker, &extra, &[("KFORECAST_LOG", "kforecast=debug")]);
        assert!(start.elapsed() < Duration::from_secs(30), "{what}: took {:?}", start.elapsed());
        assert!(!llm.asked().is_empty(), "{what}: the LLM was asked");
        assert!(stderr.contains(why), "{what}: `{why}` not among the logged reasons:\n{stderr}");
        // Nothing came of the LLM: the same search, knob children only, budget spent.
        assert!(llm_steps(&o).is_empty(), "{what}: {o}");
        assert_eq!(o, plain, "{what}");
        assert_budget_kept(&o, 6, worker.requests.load(Ordering::SeqCst) - before);
        assert_eq!(o["stop"], "budget", "{what}");
    }
}

#[test]
fn without_an_endpoint_or_with_no_rewrites_the_search_is_the_same_and_asks_nothing() {
    let t = table("transpose.cu", "transpose");
    let worker = rewrite_worker(&t);
    let llm = FakeLlm::start(|_| Chat::Answer(format!("```cuda\n{}\n```", tiled_transpose("good rewrite"))));
    let (plain, _) = search_json(&worker, &[], &[]);
    let (zero, _) = search_json(&worker, &llm_args(&llm, &["--llm-rewrites", "0"]), &[]);
    assert_eq!(zero, plain);
    assert!(llm.asked().is_empty());
    assert!(llm_steps(&plain).is_empty());
    let (out, _) = cli(&["search", "transpose.cu", "--llm-rewrites", "9"], &worker);
    assert_eq!(out.status.code(), Some(2), "at most 8 a generation");
}

#[test]
fn the_editor_search_asks_the_servers_llm_for_rewrites() {
    let t = table("transpose.cu", "transpose");
    let worker = rewrite_worker(&t);
    let llm = FakeLlm::start(|user| {
        if about_the_original(user) {
            let kernel = tiled_transpose("good rewrite");
            Chat::Answer(format!("Shared-memory tiles.\n```cuda\n{kernel}\n```\n```launch\n{TILED_LAUNCH}\n```"))
        } else {
            Chat::Answer("No further improvement.".into())
        }
    });
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("transpose.cu");
    std::fs::write(&path, &t.text).expect("write");
    let uri = uri_of(&path);
    let mut c = Client::start();
    c.initialize(json!({
        "gpuWorkers": [{"url": worker.url, "token": "t"}],
        "search": {"budget": 4, "seed": 1},
        "baselineMode": "open",
        "llm": {"endpoint": llm.url, "model": "test-model", "rewrites": 1}
    }));
    c.open(&uri, "cuda", &t.text);
    assert_eq!(execute(&mut c, "kforecast.search", &uri, "transpose")["result"]["started"], true);
    let end = c.wait_notification(|n| {
        n["method"] == "$/progress"
            && n["params"]["value"]["kind"] == "end"
            && n["params"]["value"]["message"].as_str().is_some_and(|m| m.contains("LLM rewrite"))
    });
    let message = end["params"]["value"]["message"].as_str().expect("message");
    assert!(message.contains("best 6.0× faster: LLM rewrite: Shared-memory tiles."), "{message}");
    assert!(llm.asked().iter().any(|u| about_the_original(u)));
    c.wait_notification(|n| {
        n["method"] == "$/progress"
            && n["params"]["value"]["message"].as_str().is_some_and(|m| m.ends_with("asking the LLM for rewrites"))
    });
    // Apply: the file becomes the rewrite.
    let applied = execute(&mut c, "kforecast.applySearch", &uri, "transpose");
    assert_eq!(applied["result"]["applied"], true, "{applied}");
    let request = c.server_requests.iter().find(|r| r["method"] == "workspace/applyEdit").expect("applyEdit").clone();
    let edits = request["params"]["edit"]["changes"][&uri].as_array().expect("edits").clone();
    let result = apply_edits(&t.text, &edits);
    assert!(result.contains("// good rewrite") && result.contains("ceil_div(rows, BLOCK_X)"), "{result}");
    // The LLM turned off: a different search (not the stored one), knob children only.
    c.notify("workspace/didChangeConfiguration", json!({"settings": {"kforecast": {"llm": null}}}));
    let asked = llm.asked().len();
    let again = execute(&mut c, "kforecast.search", &uri, "transpose");
    assert_eq!(again["result"]["started"], true, "{again}");
    let end = c.wait_notification(|n| {
        n["method"] == "$/progress"
            && n["params"]["value"]["kind"] == "end"
            && n["params"]["value"]["message"].as_str().is_some_and(|m| !m.contains("LLM rewrite"))
    });
    assert!(end["params"]["value"]["message"].as_str().unwrap_or("").contains("4 GPU run(s)"), "{end}");
    assert_eq!(llm.asked().len(), asked, "not asked with the LLM off");
    assert!(c.shutdown().success());
}

/// A per-generation operator in process: records the parents it is given, and proposes
/// the table's best variant for the original (or nothing).
struct Batched {
    n: usize,
    /// The table's best variant and its knob values (a point of the original's space, so
    /// that its children stay in the recorded sweep).
    best: Option<(String, Vec<i64>)>,
    calls: Arc<std::sync::Mutex<Vec<Vec<String>>>>,
}

impl kforecast_core::search::Operator for Batched {
    fn name(&self) -> &str {
        "batched"
    }

    fn propose(
        &mut self,
        _: &kforecast_core::search::Parent<'_>,
        _: &mut kforecast_core::rng::Rng,
    ) -> Option<kforecast_core::search::Proposal> {
        unreachable!("a per-generation operator is asked through propose_many")
    }

    fn per_generation(&self) -> Option<usize> {
        Some(self.n)
    }

    fn propose_many(
        &mut self,
        parents: &[kforecast_core::search::Parent<'_>],
        _: &mut kforecast_core::rng::Rng,
    ) -> Vec<Option<kforecast_core::search::Proposal>> {
        self.calls.lock().expect("calls").push(parents.iter().map(|p| p.text.to_string()).collect());
        parents
            .iter()
            .map(|p| {
                let (text, values) = self.best.clone().filter(|_| p.description == "original")?;
                Some(kforecast_core::search::Proposal { text, description: "scripted".into(), values: Some(values) })
            })
            .collect()
    }
}

#[test]
fn per_generation_operators_get_new_measured_parents_a_few_at_a_time() {
    for t in tables() {
        let best =
            t.rows.values().max_by(|a, b| a["speedup"].as_f64().partial_cmp(&b["speedup"].as_f64()).expect("cmp"));
        let space = KnobSpace::discover(&t.text, t.language, t.kernel).expect("space");
        let best = best.map(|r| {
            let values: Vec<i64> = space.knobs.iter().map(|k| r["knobs"][&k.name].as_i64().expect("v")).collect();
            (space.render(&values), values)
        });
        for (proposes, surrogate) in [(false, true), (true, true), (true, false)] {
            let calls = Arc::new(std::sync::Mutex::new(Vec::new()));
            let op = Batched { n: 2, best: best.clone().filter(|_| proposes), calls: calls.clone() };
            let original = Original::new(&t.text, t.language, t.kernel).expect("original");
            let forecaster = EmbeddedForecaster::new();
            let mut replay = Replay::new(&t);
            let config = SearchConfig { budget: 8, seed: 3, surrogate };
            let o = Searcher {
                forecaster: &forecaster,
                measurer: &mut replay,
                operators: vec![Box::new(op)],
                cancel: &AtomicBool::new(false),
                progress: &mut |_| {},
            }
            .run(&original, &config)
            .expect("search");
            let calls = calls.lock().expect("calls").clone();
            let what = format!("{} proposes {proposes} surrogate {surrogate}", t.kernel);
            assert!(calls.iter().all(|c| !c.is_empty() && c.len() <= 2), "{what}: {calls:?}");
            let all: Vec<&String> = calls.iter().flatten().collect();
            assert_eq!(all.iter().collect::<HashSet<_>>().len(), all.len(), "{what}: a parent given twice");
            assert_eq!(all.first().map(|s| s.as_str()), Some(t.text.as_str()), "{what}: the original first");
            assert!(calls.len() as u32 <= o.steps.iter().map(|s| s.generation).max().unwrap_or(0), "{what}");
            assert!(o.runs <= 8 && replay.calls.len() as u32 == o.runs + o.cache_hits, "{what}");
            if proposes && !surrogate {
                // Unscreened, the operator's children come first; this one is the table's best.
                assert_eq!(o.steps[0].description, "scripted", "{what}: measured first");
                assert_eq!(o.best.as_ref().map(|b| b.description.as_str()), Some("scripted"), "{what}");
            } else if !proposes {
                // Proposing nothing leaves the search as it is without the operator.
                assert_eq!(o, search(&t, 8, 3, true).0, "{what}");
            }
        }
    }
}
