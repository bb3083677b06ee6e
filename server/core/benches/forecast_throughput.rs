//! Forecasts per second of the embedded forecaster on one core.
//!
//! `cargo bench -p kforecast-core --bench forecast_throughput`
//!
//! Prints three figures for the test workspaces' kernel pairs:
//! - model: the pairwise model on two ready profiles (what a cached kernel costs);
//! - forecast: `Forecaster::forecast` on two kernels whose profiles are cached;
//! - cold: profiling both versions from source, then forecasting (a kernel never seen).
//!
//! Then the trained forecaster (the default); with `KFORECAST_BENCH_MODEL=FILE`, also the
//! weights in FILE (another model, say the previous one) in the same run, and the ratio.

use kforecast_core::extract::extract_text;
use kforecast_core::features;
use kforecast_core::forecast::{EmbeddedForecaster, Forecaster, Model, TrainedForecaster};
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

/// Runs `f` over the pairs for about `budget`, returns calls per second.
fn rate(pairs: &[(Kernel, Kernel)], budget: Duration, mut f: impl FnMut(&Kernel, &Kernel)) -> f64 {
    let start = Instant::now();
    let mut n = 0u64;
    while start.elapsed() < budget {
        for (a, b) in pairs {
            f(a, b);
            n += 1;
        }
    }
    n as f64 / start.elapsed().as_secs_f64()
}

fn main() {
    let pairs = pairs();
    assert!(!pairs.is_empty(), "no kernel pairs found in test-workspaces");
    let forecaster = EmbeddedForecaster::new();
    let profiles: Vec<_> = pairs.iter().map(|(a, b)| (features::profile(a), features::profile(b))).collect();
    let budget = Duration::from_secs(2);

    let start = Instant::now();
    let mut n = 0u64;
    while start.elapsed() < budget {
        for (a, b) in &profiles {
            black_box(forecaster.forecast_profiles(a, b));
            n += 1;
        }
    }
    let model = n as f64 / start.elapsed().as_secs_f64();
    let cached = rate(&pairs, budget, |a, b| {
        black_box(forecaster.forecast(a, b));
    });
    let cold = rate(&pairs, budget, |a, b| {
        let fresh = EmbeddedForecaster::new();
        black_box(fresh.forecast(a, b));
    });
    println!("embedded forecaster, one core, {} kernel pairs from test-workspaces/", pairs.len());
    println!("  model on ready profiles : {model:>12.0} forecasts/s");
    println!("  forecast, profiles cached: {cached:>12.0} forecasts/s   (target >= 50000)");
    println!("  cold (profile both + forecast): {cold:>7.0} forecasts/s");
    let trained = TrainedForecaster::shipped().expect("the shipped weights load");
    let trained_model = rate(&pairs, budget, |a, b| {
        black_box(trained.forecast(a, b));
    });
    println!("trained forecaster (the default), profiles cached: {trained_model:>9.0} forecasts/s");
    if let Ok(path) = std::env::var("KFORECAST_BENCH_MODEL") {
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("KFORECAST_BENCH_MODEL={path}: {e}"));
        let model = Model::from_json(&text).unwrap_or_else(|e| panic!("KFORECAST_BENCH_MODEL={path}: {e}"));
        let other = TrainedForecaster::new(Arc::new(model));
        let other_model = rate(&pairs, budget, |a, b| {
            black_box(other.forecast(a, b));
        });
        println!(
            "trained forecaster with {path}, profiles cached: {other_model:>9.0} forecasts/s (shipped / this: {:.2})",
            trained_model / other_model
        );
    }
}
