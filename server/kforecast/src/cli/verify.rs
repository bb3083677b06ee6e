//! `kforecast verify BASE CANDIDATE --kernel NAME`: a real measurement on a GPU worker,
//! correctness-checked, stored as a training example; and `kforecast export`.

use super::{line_col, load_with_kernels, CacheOptions};
use crate::worker::pool::{WorkerPool, WorkerSetting};
use anyhow::{bail, Context};
use clap::Args;
use kforecast_core::hash::{ContentHash, Hasher};
use kforecast_core::kernel::{Kernel, Language, TextRange};
use kforecast_core::measure::protocol::{Job, MeasureRequest, Measurement, Protocol, Status};
use kforecast_core::measure::spec::{self, SpecError};
use kforecast_core::store::{self, Store, Table};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

/// Where measurements go (`verify`, `search`, `sweep`).
#[derive(Args, Clone)]
pub struct WorkerArgs {
    /// A remote worker (repeatable): http(s)://host:port. Default: a local worker.
    #[arg(long = "worker", value_name = "URL")]
    workers: Vec<String>,
    /// Environment variable with the workers' bearer token.
    #[arg(long, default_value = "KFORECAST_WORKER_TOKEN", value_name = "VAR")]
    token_env: String,
    /// Time limit of one job, in seconds.
    #[arg(long, default_value_t = 120)]
    timeout: u64,
}

impl WorkerArgs {
    pub fn pool(&self) -> anyhow::Result<WorkerPool> {
        let settings: Vec<WorkerSetting> = self
            .workers
            .iter()
            .map(|u| WorkerSetting { url: u.clone(), token: None, token_env: Some(self.token_env.clone()) })
            .collect();
        WorkerPool::new(&settings, Duration::from_secs(self.timeout)).map_err(|e| anyhow::anyhow!(e))
    }
}

#[derive(Args)]
pub struct VerifyArgs {
    /// The reference version.
    #[arg(required_unless_present = "health")]
    base: Option<PathBuf>,
    /// The candidate version (its `kforecast:` declarations say how to run the kernel).
    #[arg(required_unless_present = "health")]
    candidate: Option<PathBuf>,
    /// Only report the workers' health (device, compute capability, memory, driver).
    #[arg(long)]
    health: bool,
    /// The kernel to measure (default: the only kernel, or the only changed one).
    #[arg(long, value_name = "NAME")]
    kernel: Option<String>,
    #[command(flatten)]
    workers: WorkerArgs,
    /// Measure again even if this exact pair was measured before.
    #[arg(long)]
    fresh: bool,
    /// Print JSON.
    #[arg(long)]
    json: bool,
    /// Write the job (the measure request) to this file and also measure.
    #[arg(long, value_name = "FILE", hide = true)]
    emit_job: Option<PathBuf>,
}

/// A measurement as a training example: (base, candidate, device, speedup).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Example {
    pub kernel: String,
    pub language: Language,
    pub base_source: String,
    pub candidate_source: String,
    pub request: MeasureRequest,
    pub measurement: Measurement,
    pub measured_at: u64,
}

/// Key of a measurement: the job and the protocol (the device is in the record).
pub fn measurement_key(req: &MeasureRequest) -> ContentHash {
    Hasher::new().str("measure/1").str(&serde_json::to_string(req).unwrap_or_default()).finish()
}

/// The job for `kernel`, or the declaration errors with their places.
pub fn build_job(
    kernel: &str,
    base: (&Path, &str, &[Kernel]),
    cand: (&Path, &str, &[Kernel]),
) -> Result<MeasureRequest, Vec<SpecError>> {
    let whole = |m: String| vec![SpecError::new(TextRange::default(), m)];
    let ck = cand
        .2
        .iter()
        .find(|k| k.name == kernel)
        .ok_or_else(|| whole(format!("no kernel `{kernel}` in the candidate")))?;
    // The baseline kernel of that name, or the one it took the place of (renamed).
    // A Triton job runs the whole wrapper: a kernel the same wrapper launches will do.
    let paired = || {
        let at = cand.2.iter().position(|k| k.name == kernel)?;
        let by_role = kforecast_core::pairing::pair(base.2, cand.2).of_candidate(at).map(|p| &base.2[p.base]);
        by_role.or_else(|| {
            let host = ck.launches.first().map(|l| l.host_name.as_str()).filter(|h| !h.is_empty())?;
            (ck.language == kforecast_core::kernel::Language::Triton)
                .then(|| base.2.iter().find(|k| k.launches.first().is_some_and(|l| l.host_name == host)))
                .flatten()
        })
    };
    let bk = base
        .2
        .iter()
        .find(|k| k.name == kernel)
        .or_else(paired)
        .ok_or_else(|| whole(format!("no kernel `{kernel}` in the baseline, nor one it takes the place of")))?;
    let name =
        |p: &Path| p.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_else(|| "kernels.py".into());
    let (mut job, items) = spec::job((&name(base.0), bk, base.1), (&name(cand.0), ck, cand.1))?;
    // nvcc finds a file's local headers in its folder (a worker on this machine). A file
    // without them makes the same job wherever it is (and the store's key with it).
    if let Job::Cuda(j) = &mut job {
        for (v, path) in [(&mut j.base, base.0), (&mut j.candidate, cand.0)] {
            if let Some(f) = v.file.as_mut().filter(|f| f.text.contains("#include \"")) {
                let dir = std::path::absolute(path).ok().and_then(|p| p.parent().map(Path::to_path_buf));
                f.include_dir = dir.map(|d| d.display().to_string());
            }
        }
    }
    let mut protocol = Protocol::default();
    for it in &items {
        match it.key.as_str() {
            "rtol" => protocol.rtol = it.value.parse().unwrap_or(protocol.rtol),
            "atol" => protocol.atol = it.value.parse().unwrap_or(protocol.atol),
            _ => {}
        }
    }
    Ok(MeasureRequest { job, protocol })
}

/// Runs a job through the store: an identical job measured before answers at once.
pub fn measure_cached(
    pool: &WorkerPool,
    store: Option<&Store>,
    req: &MeasureRequest,
    base_src: &str,
    cand_src: &str,
    fresh: bool,
) -> (Measurement, bool) {
    let key = measurement_key(req);
    if !fresh {
        if let Some(m) = stored(pool, store, &key) {
            return (m, true);
        }
    }
    let m = pool.measure(req);
    keep(pool, store, req, (base_src, cand_src), &m);
    (m, false)
}

/// A measurement of this job kept before: in the local store, else in the team's shared
/// store of a remote worker (then kept locally too).
pub fn stored(pool: &WorkerPool, store: Option<&Store>, key: &ContentHash) -> Option<Measurement> {
    let local = store
        .and_then(|s| s.get(Table::Measurements, key).ok().flatten())
        .and_then(|b| serde_json::from_slice::<Example>(&b).ok());
    if let Some(ex) = local {
        return Some(ex.measurement);
    }
    let ex = pool.shared_get(key)?;
    if let (Some(s), Ok(bytes)) = (store, serde_json::to_vec(&ex)) {
        if let Err(e) = s.put_many(Table::Measurements, &[(*key, bytes)]) {
            tracing::warn!("could not store the measurement: {e}");
        }
    }
    Some(ex.measurement)
}

/// Keeps a measurement of `req` (base and candidate sources) in the local store and the
/// team's shared one; only real measurements and wrong results are examples worth keeping.
pub fn keep(pool: &WorkerPool, store: Option<&Store>, req: &MeasureRequest, sources: (&str, &str), m: &Measurement) {
    if !matches!(m.status, Status::Ok | Status::WrongResult) {
        return;
    }
    let key = measurement_key(req);
    let ex = Example {
        kernel: req.job.kernel().to_string(),
        language: match req.job {
            Job::Cuda(_) => Language::Cuda,
            Job::Triton(_) => Language::Triton,
        },
        base_source: sources.0.to_string(),
        candidate_source: sources.1.to_string(),
        request: req.clone(),
        measurement: m.clone(),
        measured_at: std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_secs())
            .unwrap_or(0),
    };
    if let Some(s) = store {
        match serde_json::to_vec(&ex) {
            Ok(bytes) => {
                if let Err(e) = s.put_many(Table::Measurements, &[(key, bytes)]) {
                    tracing::warn!("could not store the measurement: {e}");
                }
            }
            Err(e) => tracing::warn!("could not store the measurement: {e}"),
        }
    }
    pool.shared_put(&key, &ex);
}

pub fn open_store(cache: &CacheOptions) -> Option<Store> {
    if cache.disabled {
        return None;
    }
    let dir = cache.dir.clone().or_else(store::default_dir)?;
    match Store::open_in(&dir) {
        Ok((s, warning)) => {
            if let Some(w) = warning {
                eprintln!("warning: {w}");
            }
            Some(s)
        }
        Err(e) => {
            eprintln!("warning: measurements will not be stored: {e}");
            None
        }
    }
}

pub fn run(args: VerifyArgs, cache: &CacheOptions) -> anyhow::Result<ExitCode> {
    let pool = args.workers.pool()?;
    if args.health {
        let mut all_ok = true;
        for (name, h) in pool.health() {
            all_ok &= h.ok;
            super::out(serde_json::json!({"worker": name, "health": h}).to_string());
        }
        return Ok(if all_ok { ExitCode::SUCCESS } else { ExitCode::from(3) });
    }
    let (Some(base_path), Some(cand_path)) = (&args.base, &args.candidate) else { bail!("give BASE and CANDIDATE") };
    let base = load_with_kernels(base_path)?;
    let cand = load_with_kernels(cand_path)?;
    let kernel = match &args.kernel {
        Some(k) => k.clone(),
        None => {
            let changed: Vec<&Kernel> = cand
                .kernels
                .iter()
                .filter(|k| base.kernels.iter().find(|b| b.name == k.name).is_none_or(|b| b.raw_hash != k.raw_hash))
                .collect();
            match (cand.kernels.len(), changed.len()) {
                (1, _) => cand.kernels[0].name.clone(),
                (_, 1) => changed[0].name.clone(),
                _ => bail!("{} has several kernels: name one with --kernel", cand_path.display()),
            }
        }
    };
    let req = match build_job(&kernel, (&base.path, &base.text, &base.kernels), (&cand.path, &cand.text, &cand.kernels))
    {
        Ok(r) => r,
        Err(errors) => {
            for e in &errors {
                let (l, c) = line_col(&cand.text, e.range.start);
                let what = if e.missing { "warning" } else { "error" };
                eprintln!("{}:{l}:{c}: {what}: {}", cand_path.display(), e.message);
            }
            return Ok(ExitCode::from(2));
        }
    };
    if let Some(path) = &args.emit_job {
        std::fs::write(path, serde_json::to_vec_pretty(&req)?)
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    let store = open_store(cache);
    let (m, cached) = measure_cached(&pool, store.as_ref(), &req, &base.text, &cand.text, args.fresh);
    if args.json {
        let mut v = serde_json::to_value(&m)?;
        v["kernel"] = kernel.clone().into();
        v["cached"] = cached.into();
        super::out(v.to_string());
    } else {
        let from = if cached { " (stored measurement)" } else { "" };
        super::out(format!("{}: `{kernel}` {}{from}", cand_path.display(), m.headline()));
        if let Some(t) = m.timing() {
            super::out(format!("    = {t}"));
        }
        if !m.message.is_empty() {
            super::out(format!("    = {}", m.message.lines().take(12).collect::<Vec<_>>().join("\n      ")));
        }
    }
    Ok(match m.status {
        Status::Ok => ExitCode::SUCCESS,
        Status::WrongResult => ExitCode::from(1),
        _ => ExitCode::from(3),
    })
}

#[derive(Args)]
pub struct ExportArgs {
    /// Write here instead of stdout.
    #[arg(long, short, value_name = "FILE")]
    output: Option<PathBuf>,
}

/// `kforecast export`: every stored measurement as one JSON line (a training example).
pub fn export(args: ExportArgs, cache: &CacheOptions) -> anyhow::Result<ExitCode> {
    let Some(store) = open_store(cache) else { bail!("no store to export from") };
    let mut lines = Vec::new();
    for (_, bytes) in store.all(Table::Measurements)? {
        let Ok(ex) = serde_json::from_slice::<Example>(&bytes) else { continue };
        let m = &ex.measurement;
        lines.push(serde_json::json!({
            "kernel": ex.kernel, "language": ex.language,
            "base": ex.base_source, "candidate": ex.candidate_source,
            "device": m.device, "status": m.status, "speedup": m.speedup,
            "ci_low": m.ci_low, "ci_high": m.ci_high,
            "base_ms": m.base.as_ref().map(|s| s.median_ms), "candidate_ms": m.candidate.as_ref().map(|s| s.median_ms),
            "reps": m.reps, "measured_at": ex.measured_at, "request": ex.request,
        }).to_string());
    }
    let text = lines.join("\n") + if lines.is_empty() { "" } else { "\n" };
    match &args.output {
        Some(p) => std::fs::write(p, text).with_context(|| format!("cannot write {}", p.display()))?,
        None => print!("{text}"),
    }
    eprintln!("kforecast: exported {} measurement(s)", lines.len());
    Ok(ExitCode::SUCCESS)
}
