//! The search without a GPU: measurements replayed from sweeps recorded on an H100
//! (`tests/data/search/`, see its README). The core loop is driven directly here; the
//! command line and the language server are driven through a fake worker on loopback
//! that answers from the same tables.

mod common;

use common::repo_root;
use kforecast_core::forecast::EmbeddedForecaster;
use kforecast_core::hash::ContentHash;
use kforecast_core::kernel::Language;
use kforecast_core::measure::protocol::{DeviceInfo, Measurement, Status};
use kforecast_core::search::{
    diff, KnobSpace, Measured, Measurer, Original, Outcome, Progress, SearchConfig, Searcher, Stop,
};
use serde_json::Value;
use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicBool, Ordering};

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
    calls: Vec<String>,
}

impl<'a> Replay<'a> {
    fn new(table: &'a Table) -> Self {
        Self { table, stored: HashSet::new(), wrong: HashSet::new(), calls: Vec::new() }
    }
}

impl Measurer for Replay<'_> {
    fn measure(&mut self, candidate: &str) -> Measured {
        let hash = ContentHash::of(candidate.as_bytes()).to_string();
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
