//! The screening policy over many seeds, its measurements replayed from the recorded
//! sweeps (the templated SGEMM's a sample of its space): the figures of
//! `docs/measurements/search-bench.md`, and what a user notices when the forecaster is
//! wrong about a kernel.

use super::*;
use kforecast_core::forecast::{Forecast, TrainedForecaster};
use kforecast_core::kernel::Kernel;

/// Bests over seeds `0..seeds` of one table and mode, after 8 and after 16 GPU runs (a
/// search of budget 8 is the start of one of budget 16).
struct Figures {
    bests: [Vec<f64>; 2],
    /// GPU runs spent on variants outside a sampled table (answered as failures).
    outside: [u32; 2],
    considered_per_run: f64,
}

fn figures(forecaster: &dyn Forecaster, t: &Table, surrogate: bool, seeds: u64) -> Figures {
    let mut f = Figures { bests: [Vec::new(), Vec::new()], outside: [0, 0], considered_per_run: 0.0 };
    let (mut considered, mut runs) = (0, 0);
    for seed in 0..seeds {
        let mut replay = Replay::new(t);
        let config = SearchConfig { budget: 16, seed, surrogate };
        let o = search_by(forecaster, t, &mut replay, &config, &AtomicBool::new(false), &mut |_| {});
        for (i, budget) in [8, 16].into_iter().enumerate() {
            let steps: Vec<&Step> = o.steps.iter().filter(|s| s.run.is_some_and(|r| r <= budget)).collect();
            f.bests[i].push(steps.iter().filter_map(|s| s.speedup).fold(1.0, f64::max));
            f.outside[i] += steps.iter().filter(|s| s.headline.contains("not in the recorded sample")).count() as u32;
        }
        considered += o.considered;
        runs += o.runs;
    }
    f.considered_per_run = considered as f64 / runs.max(1) as f64;
    f
}

fn median(v: &[f64]) -> f64 {
    let mut v = v.to_vec();
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

/// The figures, printed: `cargo test --test search -- --ignored --nocapture policy_figures`
/// (`KFORECAST_SEEDS=N`, default 20; `KFORECAST_FORECASTER=roofline` for the analytic
/// forecaster instead of the shipped model; `KFORECAST_KERNELS=a,b` for some kernels only;
/// `KFORECAST_MODES=screened` or `unscreened` for one mode). The considered / run column
/// is over the budget-16 searches.
#[test]
#[ignore = "prints figures; takes minutes"]
fn policy_figures() {
    let seeds = std::env::var("KFORECAST_SEEDS").ok().and_then(|s| s.parse().ok()).unwrap_or(20);
    let forecaster: Box<dyn Forecaster> = match std::env::var("KFORECAST_FORECASTER").as_deref() {
        Ok("roofline") => Box::new(EmbeddedForecaster::new()),
        _ => Box::new(TrainedForecaster::shipped().expect("the shipped model")),
    };
    let only = std::env::var("KFORECAST_KERNELS").unwrap_or_default();
    let modes = std::env::var("KFORECAST_MODES").ok();
    let modes = modes.as_deref();
    println!("forecaster {}, seeds 0..{seeds}", forecaster.id());
    println!("| kernel | budget | mode | mean best | median best | > 1.05× | ≥ 98% of the table's best | considered / run | runs outside the sample |");
    println!("|---|---|---|---|---|---|---|---|---|");
    let mut all = tables();
    all.push(sgemm_table());
    for t in all.iter().filter(|t| only.is_empty() || only.split(',').any(|k| k == t.kernel)) {
        let top = t.rows.values().filter_map(|r| r["speedup"].as_f64()).fold(1.0, f64::max);
        for surrogate in [true, false] {
            if modes.is_some_and(|m| m != if surrogate { "screened" } else { "unscreened" }) {
                continue;
            }
            let f = figures(forecaster.as_ref(), t, surrogate, seeds);
            for (i, budget) in [8, 16].into_iter().enumerate() {
                let bests = &f.bests[i];
                let mean = bests.iter().sum::<f64>() / bests.len() as f64;
                let above = bests.iter().filter(|b| **b > 1.05).count();
                let near = bests.iter().filter(|b| **b >= 0.98 * top).count();
                println!(
                    "| {} | {budget} | {} | {mean:.3} | {:.3} | {above}/{seeds} | {near}/{seeds} | {:.1} | {} |",
                    t.kernel,
                    if surrogate { "screened" } else { "unscreened" },
                    median(bests),
                    f.considered_per_run,
                    f.outside[i]
                );
            }
        }
    }
}

/// The steps of a few searches of the SGEMM sample, printed:
/// `cargo test --test search -- --ignored --nocapture policy_trace` (`KFORECAST_SEEDS=N`;
/// `KFORECAST_KERNELS=transpose` for another table).
#[test]
#[ignore = "prints the searches' steps"]
fn policy_trace() {
    let seeds = std::env::var("KFORECAST_SEEDS").ok().and_then(|s| s.parse().ok()).unwrap_or(3);
    let forecaster = TrainedForecaster::shipped().expect("the shipped model");
    let only = std::env::var("KFORECAST_KERNELS").unwrap_or_default();
    let t = tables().into_iter().find(|t| t.kernel == only).unwrap_or_else(sgemm_table);
    for seed in 0..seeds {
        let mut replay = Replay::new(&t);
        let config = SearchConfig { budget: 8, seed, surrogate: true };
        let o = search_by(&forecaster, &t, &mut replay, &config, &AtomicBool::new(false), &mut |_| {});
        println!("seed {seed}: best {:.3}", o.best_speedup());
        for s in &o.steps {
            let f = |v: Option<f64>| v.map_or("-".to_string(), |v| format!("{v:.2}"));
            let got = s.speedup.map_or(format!("{:?}", s.status), |v| format!("{v:.2}"));
            println!(
                "  gen {:>2} {}: forecast {} corrected {} measured {got}",
                s.generation,
                s.description,
                f(s.forecast),
                f(s.predicted)
            );
        }
    }
}

/// A forecaster wrong about every knob of a table: each recorded variant is forecast as
/// much slower as the GPU measured it faster, and the other way round; a variant it does
/// not know, as no change.
struct Contrary {
    log2: HashMap<String, f64>,
}

fn kernel_key(k: &Kernel) -> String {
    serde_json::to_string(k).expect("json")
}

impl Contrary {
    fn of(t: &Table) -> Self {
        let space = KnobSpace::discover(&t.text, t.language, t.kernel).expect("space");
        let mut log2 = HashMap::new();
        for row in t.rows.values() {
            let Some(s) = row["speedup"].as_f64() else { continue };
            let values: Vec<i64> = space.knobs.iter().map(|k| row["knobs"][&k.name].as_i64().expect("value")).collect();
            let kernel = extract_text(t.language, &space.render(&values)).kernel(t.kernel).cloned().expect("kernel");
            assert!(log2.insert(kernel_key(&kernel), -s.log2()).is_none(), "two variants, one kernel");
        }
        Self { log2 }
    }
}

impl Forecaster for Contrary {
    fn id(&self) -> &str {
        "contrary"
    }

    fn forecast(&self, _base: &Kernel, candidate: &Kernel) -> Forecast {
        let mu = self.log2.get(&kernel_key(candidate)).copied().unwrap_or(0.0);
        Forecast::from_log2_normal(mu, 0.3, "contrary", Vec::new())
    }

    fn weight(&self, _kernel: &Kernel) -> f64 {
        1.0
    }
}

/// The forecaster says that every knob step the GPU finds faster is slower, and the
/// other way round: the correction takes its say away within a few runs, and a search of
/// budget 8 still spends its runs on valid variants and finds the faster knob steps.
#[test]
fn a_forecaster_wrong_about_every_knob_costs_little() {
    let t = sgemm_table();
    let contrary = Contrary::of(&t);
    for seed in 0..10 {
        let mut replay = Replay::new(&t);
        let config = SearchConfig { budget: 8, seed, surrogate: true };
        let o = search_by(&contrary, &t, &mut replay, &config, &AtomicBool::new(false), &mut |_| {});
        let valid = o.steps.iter().filter(|s| s.status == Status::Ok).count();
        let what = format!("seed {seed}: {o:?}");
        assert_eq!(o.runs, 8, "{what}");
        assert!(valid >= 6, "most runs on valid variants: {valid} of 8, {} outside the sample; {what}", replay.outside);
        assert!(o.best_speedup() > 1.2, "{what}");
        // It was measured faster although forecast slower.
        let best = o.steps.iter().find(|s| s.speedup == Some(o.best_speedup())).expect("the best step");
        assert!(best.forecast.is_some_and(|f| f < 1.0), "{best:?}");
    }
}
