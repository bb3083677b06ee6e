//! Forecasts per second on one core.
//!
//! `cargo bench -p kforecast-core --bench forecast_throughput`
//!
//! For the test workspaces' kernel pairs, the trained forecaster (the default) with its
//! trees compiled (as it runs) and walking them node by node as stored (the plain walk,
//! the reference), measured in alternating slices of one run so that other load on the
//! machine falls on both alike:
//! - trees: the members' estimate from two ready profiles (pair vector and trees);
//! - model: the forecast from two ready profiles (trees, spread, reasons);
//! - cached: `Forecaster::forecast` on two kernels whose profiles are cached (target
//!   ≥ 50,000/s);
//! - cold: profiling both versions from source, then forecasting (what an edit to a
//!   kernel never seen costs).
//!
//! Rates are per second of the bench thread's CPU time where Linux gives it (so a machine
//! shared with other work still shows one core's rate), with the share of a core the
//! run had. Then the analytic (embedded roofline) forecaster; with `KFORECAST_BENCH_MODEL=FILE`,
//! also the weights in FILE (another model, say the previous one), and the ratio.

use kforecast_core::extract::extract_text;
use kforecast_core::features::{self, Profile};
use kforecast_core::forecast::{same_problem, EmbeddedForecaster, Forecaster, Model, TrainedForecaster};
use kforecast_core::kernel::{Kernel, Language};
use std::hint::black_box;
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

fn pairs() -> Vec<(Kernel, Kernel)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../test-workspaces");
    let mut out = Vec::new();
    for (lang, dir, prev) in [
        (Language::Cuda, "cuda/src", "cuda/previous/src"),
        (Language::Triton, "triton/kernels", "triton/previous/kernels"),
    ] {
        let Ok(entries) = std::fs::read_dir(root.join(dir)) else { continue };
        for entry in entries.filter_map(Result::ok) {
            let cur = std::fs::read_to_string(entry.path()).unwrap_or_default();
            let old = std::fs::read_to_string(root.join(prev).join(entry.file_name())).unwrap_or_default();
            let (a, b) = (extract_text(lang, &old), extract_text(lang, &cur));
            for k in &b.kernels {
                if let Some(base) = a.kernel(&k.name) {
                    out.push((base.clone(), k.clone()));
                }
            }
        }
    }
    out
}

/// CPU time this thread has run (Linux's `/proc/thread-self/schedstat`, in ns), so that
/// figures count one core's time even while other processes share it.
fn cpu_time() -> Option<Duration> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    Some(Duration::from_nanos(text.split_whitespace().next()?.parse().ok()?))
}

/// Runs `f` over the items for about `budget` (wall clock), returns calls per second of
/// this thread's CPU time (of wall-clock time where that cannot be read).
fn rate<T>(items: &[T], budget: Duration, mut f: impl FnMut(&T)) -> f64 {
    let (start, cpu) = (Instant::now(), cpu_time());
    let mut n = 0u64;
    while start.elapsed() < budget {
        for item in items {
            f(item);
            n += 1;
        }
    }
    let wall = start.elapsed();
    let spent = cpu.zip(cpu_time()).map_or(wall, |(a, b)| b.saturating_sub(a));
    n as f64 / spent.max(Duration::from_nanos(1)).as_secs_f64()
}

/// Calls per second of `a` and of `b`, each given `budget` in alternating slices.
fn rates<T>(items: &[T], budget: Duration, mut a: impl FnMut(&T), mut b: impl FnMut(&T)) -> (f64, f64) {
    const SLICES: u32 = 8;
    let (mut ta, mut tb) = (0.0, 0.0);
    for _ in 0..SLICES {
        ta += 1.0 / rate(items, budget / SLICES, &mut a);
        tb += 1.0 / rate(items, budget / SLICES, &mut b);
    }
    (f64::from(SLICES) / ta, f64::from(SLICES) / tb)
}

fn row(what: &str, (fast, plain): (f64, f64)) {
    println!("  {what:<34} {fast:>10.0} {plain:>12.0} {:>8.2}", fast / plain);
}

fn main() {
    let pairs = pairs();
    assert!(!pairs.is_empty(), "no kernel pairs found in test-workspaces");
    let profiles: Vec<(Profile, Profile)> =
        pairs.iter().map(|(a, b)| (features::profile(a), features::profile(b))).collect();
    let budget = Duration::from_secs(2);
    let (wall, cpu) = (Instant::now(), cpu_time());

    let trained = TrainedForecaster::shipped().expect("the shipped weights load");
    let plain = TrainedForecaster::shipped().expect("the shipped weights load").with_plain_trees();
    let model = trained.model().clone();
    println!("trained forecaster (the default), one core, {} kernel pairs from test-workspaces/", pairs.len());
    println!(
        "  {} members, {} trees; forecasts/s with the trees compiled, walked as stored, and the ratio",
        model.members.len(),
        model.members.iter().map(|m| m.trees.len()).sum::<usize>()
    );
    println!("  {:<34} {:>10} {:>12} {:>8}", "", "compiled", "plain walk", "ratio");
    // Each figure for the compiled trees and for the plain walk, in one run.
    let compare = |what: &str, each: &dyn Fn(&TrainedForecaster, usize)| {
        let idx: Vec<usize> = (0..pairs.len()).collect();
        row(what, rates(&idx, budget, |&i| each(&trained, i), |&i| each(&plain, i)));
    };
    compare("trees (estimate from two profiles)", &|f, i| {
        black_box(f.raw_estimate(&profiles[i].0, &profiles[i].1));
    });
    compare("model on ready profiles", &|f, i| {
        black_box(f.forecast_profiles(&profiles[i].0, &profiles[i].1));
    });
    compare("forecast, profiles cached (≥ 50000)", &|f, i| {
        black_box(f.forecast(&pairs[i].0, &pairs[i].1));
    });
    compare("cold (profile both + forecast)", &|f, i| {
        let (a, b) = same_problem(&pairs[i].0, &pairs[i].1);
        black_box(f.forecast_profiles(&features::profile(&a), &features::profile(&b)));
    });

    let analytic = EmbeddedForecaster::new();
    let model_rate = rate(&profiles, budget, |(a, b)| {
        black_box(analytic.forecast_profiles(a, b));
    });
    let cached = rate(&pairs, budget, |(a, b)| {
        black_box(analytic.forecast(a, b));
    });
    let cold = rate(&pairs, budget, |(a, b)| {
        let fresh = EmbeddedForecaster::new();
        black_box(fresh.forecast(a, b));
    });
    println!("analytic forecaster (embedded roofline), one core");
    println!("  model on ready profiles          {model_rate:>12.0} forecasts/s");
    println!("  forecast, profiles cached        {cached:>12.0} forecasts/s");
    println!("  cold (profile both + forecast)   {cold:>12.0} forecasts/s");

    match cpu.zip(cpu_time()) {
        Some((a, b)) => println!(
            "(per second of this thread's CPU time; it had {:.0}% of a core over the run)",
            100.0 * (b - a).as_secs_f64() / wall.elapsed().as_secs_f64()
        ),
        None => println!("(per second of wall-clock time: this thread's CPU time cannot be read here)"),
    }
    if let Ok(path) = std::env::var("KFORECAST_BENCH_MODEL") {
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("KFORECAST_BENCH_MODEL={path}: {e}"));
        let model = Model::from_json(&text).unwrap_or_else(|e| panic!("KFORECAST_BENCH_MODEL={path}: {e}"));
        let other = TrainedForecaster::new(Arc::new(model));
        let (shipped, this) = rates(
            &pairs,
            budget,
            |(a, b)| {
                black_box(trained.forecast(a, b));
            },
            |(a, b)| {
                black_box(other.forecast(a, b));
            },
        );
        println!(
            "trained forecaster with {path}, profiles cached: {this:>9.0} forecasts/s (shipped {shipped:.0}; shipped / this: {:.2})",
            shipped / this
        );
    }
}
