//! `kforecast calibrate`: the trained model's calibration for a device, refitted from
//! the measurements in the user's store (also done by the server after each
//! verification), shown, rolled back or reset.

use super::verify::open_store;
use super::CacheOptions;
use anyhow::bail;
use clap::Args;
use kforecast_core::cache::ForecastCache;
use kforecast_core::extract;
use kforecast_core::forecast::adapt::{self, History, Observation};
use kforecast_core::forecast::{Adjustment, EmbeddedForecaster, Forecaster, Model, TrainedForecaster};
use kforecast_core::kernel::Language;
use kforecast_core::measure::protocol::{short_device, Status};
use kforecast_core::store::{Store, Table};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

#[derive(Args)]
pub struct CalibrateArgs {
    /// The device (as the GPU reports it, or short: H100).
    #[arg(long, default_value = super::DEFAULT_DEVICE)]
    device: String,
    /// Go back to the previous calibration.
    #[arg(long, conflicts_with = "reset")]
    rollback: bool,
    /// Go back to the shipped calibration (the history is kept).
    #[arg(long)]
    reset: bool,
}

/// The parts of a stored measurement ([`super::verify::Example`]) calibration reads.
#[derive(serde::Deserialize)]
struct Stored {
    kernel: String,
    language: kforecast_core::kernel::Language,
    base_source: String,
    candidate_source: String,
    measurement: kforecast_core::measure::Measurement,
    #[serde(default)]
    measured_at: u64,
}

/// The folder of the store, where the calibration histories are kept.
fn calibration_dir(store: &Store) -> PathBuf {
    store.path().parent().unwrap_or(Path::new(".")).to_path_buf()
}

/// The model's forecasts against what was measured on `device`, from the store: the
/// newest [`adapt::WINDOW`] (only those are ever fitted, so only those are read).
pub fn observations(store: &Store, model: &Arc<Model>, device: &str) -> Vec<Observation> {
    let key = short_device(device);
    let forecaster = TrainedForecaster::new(model.clone());
    let Ok(rows) = store.all(Table::Measurements) else { return Vec::new() };
    let mut measured: Vec<(Stored, f64)> = rows
        .iter()
        .filter_map(|(_, bytes)| serde_json::from_slice::<Stored>(bytes).ok())
        .filter_map(|ex| {
            let m = &ex.measurement;
            let (Status::Ok, Some(s), Some(d)) = (m.status, m.speedup, m.device.as_ref()) else { return None };
            (short_device(&d.name) == key && s.is_finite() && s > 0.0).then_some((ex, s))
        })
        .collect();
    measured.sort_by_key(|(ex, _)| std::cmp::Reverse(ex.measured_at));
    let mut out = Vec::new();
    for (ex, s) in measured {
        if out.len() == adapt::WINDOW {
            break;
        }
        // A CUDA kernel may have been measured from a Python file's CUDA string.
        let find = |text: &str| {
            let found =
                |language| extract::extract_text(language, text).kernels.into_iter().find(|k| k.name == ex.kernel);
            found(ex.language).or_else(|| (ex.language == Language::Cuda).then(|| found(Language::Triton)).flatten())
        };
        let (Some(b), Some(c)) = (find(&ex.base_source), find(&ex.candidate_source)) else { continue };
        if b.identity() == c.identity() {
            continue;
        }
        let raw = forecaster.raw_estimate(&forecaster.profile(&b), &forecaster.profile(&c));
        out.push(Observation { raw, measured: s.log2(), at: ex.measured_at });
    }
    out
}

/// Refits the device's calibration from the store; the new adjustment if it changed.
pub fn refit(store: &Store, model: &Arc<Model>, device: &str) -> Result<Option<Adjustment>, String> {
    let dir = calibration_dir(store);
    let mut history = History::load(&dir, &short_device(device), model)?;
    let observations = observations(store, model, device);
    let changed = history.refit(model, &observations);
    if changed.is_some() {
        history.save(&dir)?;
    }
    Ok(changed)
}

/// The forecaster the CLI and the server use: the shipped trained model with the
/// device's active calibration from the store's folder, or the analytic model if the
/// shipped weights cannot be read (never expected; logged).
pub fn forecaster(cache: &ForecastCache, device: &str) -> Arc<dyn Forecaster> {
    let model = match Model::shipped() {
        Ok(m) => m,
        Err(e) => {
            tracing::error!("the shipped model does not load ({e}); using the analytic forecaster");
            return Arc::new(EmbeddedForecaster::new());
        }
    };
    let adjustment = cache
        .store()
        .and_then(|store| match History::load(&calibration_dir(store), &short_device(device), &model) {
            Ok(h) => h.current(),
            Err(e) => {
                tracing::warn!("{e}; using the shipped calibration");
                None
            }
        })
        .unwrap_or_default();
    Arc::new(TrainedForecaster::with_adjustment(model, adjustment))
}

pub fn run(args: CalibrateArgs, cache: &CacheOptions) -> anyhow::Result<ExitCode> {
    let Some(store) = open_store(cache) else { bail!("no store: calibration learns from stored measurements") };
    let model = Model::shipped().map_err(anyhow::Error::msg)?;
    let dir = calibration_dir(&store);
    let device = short_device(&args.device);
    let mut history = History::load(&dir, &device, &model).map_err(anyhow::Error::msg)?;
    let describe = |a: Option<Adjustment>| match a {
        Some(a) => format!(
            "version {}: forecast changes ×{:.2}, spread ×{:.2}, from {} measurement(s)",
            a.version, a.mu_scale, a.sigma_scale, a.measurements
        ),
        None => "the shipped calibration".to_string(),
    };
    if args.rollback || args.reset {
        if args.reset {
            history.reset();
        } else {
            history.rollback();
        }
        history.save(&dir).map_err(anyhow::Error::msg)?;
        super::out(format!("{device}: now using {}", describe(history.current())));
        return Ok(ExitCode::SUCCESS);
    }
    let observations = observations(&store, &model, &device);
    if observations.is_empty() {
        super::out(format!(
            "{device}: no stored measurements yet (verify kernels on this GPU first); using {}",
            describe(history.current())
        ));
        return Ok(ExitCode::SUCCESS);
    }
    let before = history.current();
    let changed = history.refit(&model, &observations);
    if changed.is_some() {
        history.save(&dir).map_err(anyhow::Error::msg)?;
    }
    super::out(format!("{device}: {} measured pair(s) in the store", observations.len()));
    super::out(format!("  before: {}", describe(before)));
    super::out(format!("  now:    {}", describe(history.current())));
    Ok(ExitCode::SUCCESS)
}
