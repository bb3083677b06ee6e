//! The core loop driven directly, its measurements replayed from the recorded sweeps:
//! the budget, the store, cancelling, wrong results, reproducibility and the screening.

use super::*;

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
