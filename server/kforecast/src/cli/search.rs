//! `kforecast search FILE --kernel NAME --budget N`: a budgeted evolutionary search for
//! faster variants, the forecaster screening and the GPU workers measuring; and
//! `kforecast sweep FILE --kernel NAME --json OUT.jsonl`: every variant of the knob
//! space measured, like an autotuner's sweep.

use super::verify::{build_job, keep, measure_cached, measurement_key, stored, WorkerArgs};
use super::{load_with_kernels, CacheOptions, LoadedFile};
use crate::llm::LlmConfig;
use crate::worker::pool::{WorkerPool, NO_WORKER};
use anyhow::{bail, Context};
use clap::Args;
use kforecast_core::extract::extract_text;
use kforecast_core::hash::ContentHash;
use kforecast_core::measure::protocol::{short_device, MeasureRequest, Measurement, Status};
use kforecast_core::search::{diff, KnobSpace, Measured, Measurer, Original, Outcome, SearchConfig, Searcher, Stop};
use kforecast_core::store::Store;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;

#[derive(Args)]
pub struct SearchArgs {
    /// The file holding the kernel (its `kforecast:` declarations say how to run it).
    file: PathBuf,
    /// The kernel to search (default: the only kernel).
    #[arg(long, value_name = "NAME")]
    kernel: Option<String>,
    /// GPU runs to spend (stored measurements of identical jobs are free).
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u32).range(1..=1000))]
    budget: u32,
    /// Seed of the search (same seed, same search).
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Measure every child in order, without the forecaster screening (the baseline).
    #[arg(long)]
    no_surrogate: bool,
    #[command(flatten)]
    workers: WorkerArgs,
    /// Print the outcome as JSON (steps, counts, best variant) instead of text.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    llm: crate::llm::LlmArgs,
    /// With --llm-endpoint, the LLM also proposes rewrites of the kernel: at most this
    /// many of the best variants a generation (0: none).
    #[arg(long, value_name = "N", default_value_t = crate::llm::rewrite::DEFAULT_REWRITES as u64,
          value_parser = clap::value_parser!(u64).range(0..=crate::llm::rewrite::MAX_REWRITES as u64))]
    llm_rewrites: u64,
}

/// Measures variants of one file against the file itself through the workers and the store.
pub struct PoolMeasurer<'a> {
    pub pool: &'a WorkerPool,
    pub store: Option<&'a Store>,
    pub file: LoadedFile,
    pub kernel: String,
}

impl PoolMeasurer<'_> {
    /// The job that times `candidate` against the file, or why there is none.
    fn job(&self, candidate: &str) -> Result<MeasureRequest, String> {
        let file = &self.file;
        let language = kforecast_core::Language::from_path(&file.path)
            .or(file.kernels.first().map(|k| k.language))
            .unwrap_or(kforecast_core::Language::Cuda);
        let kernels = extract_text(language, candidate).kernels;
        let base = (file.path.as_path(), file.text.as_str(), file.kernels.as_slice());
        build_job(&self.kernel, base, (file.path.as_path(), candidate, &kernels))
            .map_err(|errors| errors.into_iter().map(|e| e.message).collect::<Vec<_>>().join("; "))
    }

    /// Measures variants side by side on every worker, answered in their order; `done`
    /// hears of each job sent as it finishes (its index, in any order). Stored
    /// measurements answer first, and each new one is kept as soon as it is made.
    pub fn measure_all(&self, candidates: &[&str], done: &(dyn Fn(usize, &Measurement) + Sync)) -> Vec<Measured> {
        let unavailable = |m: &Measurement| {
            m.status == Status::NoGpu || (m.status == Status::Error && m.message.starts_with(NO_WORKER))
        };
        let mut out: Vec<Option<Measured>> = vec![None; candidates.len()];
        let mut to_send: Vec<(usize, MeasureRequest)> = Vec::new();
        for (i, candidate) in candidates.iter().enumerate() {
            match self.job(candidate) {
                Ok(req) => match stored(self.pool, self.store, &measurement_key(&req)) {
                    Some(m) => out[i] = Some(Measured { unavailable: unavailable(&m), measurement: m, gpu_run: false }),
                    None => to_send.push((i, req)),
                },
                Err(why) => {
                    let measurement = Measurement::failure(Status::Error, why);
                    out[i] = Some(Measured { measurement, gpu_run: false, unavailable: false })
                }
            }
        }
        let reqs: Vec<MeasureRequest> = to_send.iter().map(|(_, r)| r.clone()).collect();
        let finished = |k: usize, m: &Measurement| {
            let (i, req) = &to_send[k];
            keep(self.pool, self.store, req, (&self.file.text, candidates[*i]), m);
            done(*i, m);
        };
        for ((i, _), m) in to_send.iter().zip(self.pool.measure_many(&reqs, &finished)) {
            let unavailable = unavailable(&m);
            out[*i] = Some(Measured { gpu_run: !unavailable, unavailable, measurement: m });
        }
        let lost = || Measured {
            measurement: Measurement::failure(Status::Error, NO_WORKER),
            gpu_run: false,
            unavailable: true,
        };
        out.into_iter().map(|m| m.unwrap_or_else(lost)).collect()
    }
}

impl Measurer for PoolMeasurer<'_> {
    fn measure(&mut self, candidate: &str) -> Measured {
        match self.job(candidate) {
            Ok(req) => {
                let (measurement, cached) =
                    measure_cached(self.pool, self.store, &req, &self.file.text, candidate, false);
                let unavailable = measurement.status == Status::NoGpu
                    || (measurement.status == Status::Error && measurement.message.starts_with(NO_WORKER));
                Measured { gpu_run: !cached && !unavailable, unavailable, measurement }
            }
            Err(why) => {
                Measured { measurement: Measurement::failure(Status::Error, why), gpu_run: false, unavailable: false }
            }
        }
    }

    fn measure_many(&mut self, candidates: &[&str]) -> Vec<Measured> {
        self.measure_all(candidates, &|_, _| {})
    }
}

/// The file and its kernel (named, or the file's only one) as a search starts from it.
fn open(path: &Path, named: Option<&str>) -> anyhow::Result<(LoadedFile, Original)> {
    let file = load_with_kernels(path)?;
    let kernels = &file.kernels;
    let kernel = match named {
        Some(k) => k,
        None if kernels.len() == 1 => &kernels[0].name,
        None => {
            let names: Vec<&str> = kernels.iter().map(|k| k.name.as_str()).collect();
            bail!("{} has several kernels ({}): name one with --kernel", path.display(), names.join(", "))
        }
    };
    let language = kforecast_core::Language::from_path(path).unwrap_or(kernels[0].language);
    let original =
        Original::new(&file.text, language, kernel).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
    Ok((file, original))
}

pub fn run(args: SearchArgs, cache: &CacheOptions) -> anyhow::Result<ExitCode> {
    let (file, original) = open(&args.file, args.kernel.as_deref())?;
    let kernel = original.kernel.name.clone();
    let pool = args.workers.pool()?;
    let analyzer = super::analyzer(cache);
    let store = analyzer.cache().store_arc();
    let mut measurer = PoolMeasurer { pool: &pool, store: store.as_deref(), file, kernel: kernel.clone() };
    let config = SearchConfig { budget: args.budget, seed: args.seed, surrogate: !args.no_surrogate };
    let cancel = AtomicBool::new(false);
    // The LLM's rewrites join the knob mutations when an endpoint is given.
    let llm = args.llm.config().map(|c| LlmConfig { rewrites: args.llm_rewrites as usize, ..c });
    let operators = crate::llm::rewrite::operators(llm.as_ref(), analyzer.device(), store.clone(), &cancel)
        .map_err(|e| anyhow::anyhow!("--llm-endpoint: {e}"))?;
    let rewriting = match (&llm, operators.is_empty()) {
        (Some(c), false) => format!(", up to {} LLM rewrite(s) a generation by {}", c.rewrites, c.model),
        _ => String::new(),
    };
    let text_mode = !args.json;
    let mut progress = |p: &kforecast_core::search::Progress| {
        if text_mode && p.message == "starting" {
            eprintln!(
                "kforecast: searching `{kernel}` (budget {} GPU runs, seed {}, {}{rewriting})",
                p.budget,
                args.seed,
                if args.no_surrogate { "every child measured" } else { "forecaster screening" }
            );
        }
    };
    let outcome = Searcher {
        forecaster: analyzer.forecaster(),
        measurer: &mut measurer,
        operators,
        cancel: &cancel,
        progress: &mut progress,
    }
    .run(&original, &config)
    .map_err(|e| anyhow::anyhow!("{}: {e}", args.file.display()))?;
    analyzer.cache().flush();
    if args.json {
        let mut v = serde_json::to_value(&outcome)?;
        v["considered_per_run"] = outcome.considered_per_run().into();
        v["best_speedup"] = outcome.best_speedup().into();
        super::out(v.to_string());
    } else {
        print_outcome(&args.file, &original.text, &outcome);
    }
    Ok(if outcome.best.is_some() { ExitCode::SUCCESS } else { ExitCode::from(1) })
}

fn print_outcome(path: &Path, text: &str, o: &Outcome) {
    super::out(format!("knobs: {}", if o.knobs.is_empty() { "none".to_string() } else { o.knobs.join(", ") }));
    for s in &o.steps {
        let run = match s.run {
            Some(r) => format!("run {r:>2}/{}", o.config.budget),
            None => "stored   ".to_string(),
        };
        let forecast = match (s.forecast, s.predicted) {
            (Some(f), Some(p)) => format!(" (forecast {f:.2}×, corrected {p:.2}×)"),
            (Some(f), None) => format!(" (forecast {f:.2}×)"),
            _ => String::new(),
        };
        super::out(format!(
            "{run}  gen {:>3}  {}: {}{forecast}  [{} considered, best {:.2}×]",
            s.generation, s.description, s.headline, s.considered, s.best
        ));
    }
    // An unavailable GPU is said below, with the reason.
    let why = if matches!(o.stop, Stop::Unavailable | Stop::BaseFailed) { "stopped" } else { o.stop.reason() };
    super::out(format!(
        "{why}: {} GPU run(s), {} answered from the store; {} candidates considered ({:.1} per GPU run), {} discarded before the GPU as invalid, {} rejected by the forecast",
        o.runs,
        o.cache_hits,
        o.considered,
        o.considered_per_run(),
        o.invalid,
        o.rejected
    ));
    if o.stop == Stop::Unavailable {
        super::out(format!("no GPU could measure: {}", o.note));
    }
    if o.stop == Stop::BaseFailed {
        super::out(format!("the search stopped: {}", o.note));
    }
    match &o.best {
        Some(b) => {
            super::out(format!("best: {}: {}", b.description, b.headline));
            let name = path.display().to_string();
            print!("{}", diff::unified(text, &b.text, &name, &format!("{name} (best variant)"), 3));
        }
        None => super::out(format!("no correct variant measured faster than `{}` as it is", o.kernel)),
    }
}

#[derive(Args)]
pub struct SweepArgs {
    /// The file holding the kernel.
    file: PathBuf,
    /// The kernel to sweep (default: the only kernel).
    #[arg(long, value_name = "NAME")]
    kernel: Option<String>,
    /// Measure at most this many variants (in a fixed order, the original's first).
    #[arg(long, default_value_t = 256)]
    max: usize,
    /// Take the variants nearest the original first (fewest steps of the knobs' domains
    /// away): a sample of a space too big to sweep whole.
    #[arg(long)]
    nearest: bool,
    /// Write one JSON line per measured variant here.
    #[arg(long, value_name = "OUT.jsonl", required_unless_present = "list")]
    json: Option<PathBuf>,
    /// Only list the knobs and the valid variants; measure nothing.
    #[arg(long)]
    list: bool,
    #[command(flatten)]
    workers: WorkerArgs,
}

/// `kforecast sweep`: measures every valid variant of the knob space.
pub fn sweep(args: SweepArgs, cache: &CacheOptions) -> anyhow::Result<ExitCode> {
    let (file, original) = open(&args.file, args.kernel.as_deref())?;
    let kernel = original.kernel.name.clone();
    let space = KnobSpace::of(&original.text, &original.kernel);
    for k in &space.knobs {
        eprintln!("knob {}: {} in {:?}", k.name, k.value, k.domain);
    }
    let mut variants = Vec::new();
    let mut invalid = 0;
    let mut order: Vec<Vec<i64>> =
        space.combinations().skip(1).take(args.max.saturating_mul(1000).max(100_000)).collect();
    if args.nearest {
        // A stable sort: among variants as near, the fixed order.
        order.sort_by_key(|values| steps_from_original(&space, values));
    }
    for values in order {
        if variants.len() >= args.max {
            break;
        }
        let text = space.render(&values);
        match original.check(&text) {
            Ok(_) => variants.push((values, text)),
            Err(why) => {
                invalid += 1;
                tracing::debug!("{}: {why}", space.describe(&values));
            }
        }
    }
    eprintln!(
        "kforecast: `{kernel}`: {} knobs, {} combinations, {} valid variants to measure ({invalid} invalid skipped)",
        space.knobs.len(),
        space.size(),
        variants.len()
    );
    if args.list {
        for (values, _) in &variants {
            super::out(space.describe(values));
        }
        return Ok(ExitCode::SUCCESS);
    }
    let Some(out_path) = &args.json else { bail!("give --json OUT.jsonl") };
    let pool = args.workers.pool()?;
    let store = super::verify::open_store(cache);
    let measurer = PoolMeasurer { pool: &pool, store: store.as_ref(), file, kernel: kernel.clone() };
    let out = std::fs::File::create(out_path).with_context(|| format!("cannot write {}", out_path.display()))?;
    let out = std::sync::Mutex::new(out);
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0);
    let total = variants.len();
    // Every worker busy at once; each line is written as its variant is measured, so a
    // sweep stopped part way keeps what it measured.
    let texts: Vec<&str> = variants.iter().map(|(_, t)| t.as_str()).collect();
    let finished = std::sync::atomic::AtomicUsize::new(0);
    let failed = std::sync::Mutex::new(None);
    let line = |i: usize, m: &Measurement| {
        let n = finished.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
        let (values, text) = &variants[i];
        eprintln!("[{n}/{total}] {} ({}): {}", space.describe(values), m.worker, m.headline());
        let written = out.lock().map_err(|_| anyhow::anyhow!("lock poisoned")).and_then(|mut f| {
            writeln!(f, "{}", sweep_line(&kernel, &args.file, &space, values, text, m, now))?;
            f.flush()?;
            Ok(())
        });
        if let (Err(e), Ok(mut slot)) = (written, failed.lock()) {
            slot.get_or_insert(e);
        }
    };
    let measured = measurer.measure_all(&texts, &line);
    // Answers found in the store or refused before a GPU (no job ran): written last.
    for (i, Measured { measurement: m, gpu_run, unavailable }) in measured.iter().enumerate() {
        if !gpu_run && !unavailable {
            line(i, m);
        }
    }
    if let Some(e) = failed.into_inner().ok().flatten() {
        return Err(e.context(format!("cannot write {}", out_path.display())));
    }
    Ok(ExitCode::SUCCESS)
}

/// Steps of the knobs' domains between `values` and the original, summed over the knobs.
fn steps_from_original(space: &KnobSpace, values: &[i64]) -> usize {
    let at = |domain: &[i64], v: i64| domain.iter().position(|d| *d == v).unwrap_or(0);
    space.knobs.iter().zip(values).map(|(k, &v)| at(&k.domain, v).abs_diff(at(&k.domain, k.value))).sum()
}

/// One line of a sweep's table.
fn sweep_line(
    kernel: &str,
    file: &Path,
    space: &KnobSpace,
    values: &[i64],
    text: &str,
    m: &Measurement,
    now: u64,
) -> serde_json::Value {
    let knobs: serde_json::Map<String, serde_json::Value> =
        space.knobs.iter().zip(values).map(|(k, v)| (k.name.clone(), (*v).into())).collect();
    serde_json::json!({
        "kernel": kernel,
        "file": file.display().to_string(),
        "text_hash": ContentHash::of(text.as_bytes()).to_string(),
        "knobs": knobs,
        "description": space.describe(values),
        "status": m.status,
        "speedup": m.speedup,
        "ci_low": m.ci_low,
        "ci_high": m.ci_high,
        "base_ms": m.base.as_ref().map(|s| s.median_ms),
        "candidate_ms": m.candidate.as_ref().map(|s| s.median_ms),
        "reps": m.reps,
        "device": m.device.as_ref().map(|d| d.name.clone()),
        "device_short": m.device.as_ref().map(|d| short_device(&d.name)),
        "message": m.message.lines().next().unwrap_or(""),
        "worker": m.worker,
        "measured_at": now,
    })
}
