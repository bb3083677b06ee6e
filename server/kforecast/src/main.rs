//! `kforecast`: the language server and the command line, on one core library.

mod cli;
mod http;
mod llm;
mod logging;
mod lsp;
mod worker;

use clap::{Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "kforecast",
    version,
    about = "Forecasts whether an edit made a CUDA or Triton kernel faster or slower."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
    /// Write logs to this file instead of stderr.
    #[arg(long, global = true, value_name = "PATH")]
    log_file: Option<PathBuf>,
    /// Cache directory (default: $KFORECAST_CACHE_DIR or the user's cache directory).
    #[arg(long, global = true, value_name = "DIR")]
    cache_dir: Option<PathBuf>,
    /// Keep forecasts in memory only.
    #[arg(long, global = true)]
    no_cache: bool,
}

#[derive(Subcommand)]
enum Command {
    /// Run the language server on stdin/stdout.
    Lsp {
        /// Accepted for editors that pass it (stdio is the only transport).
        #[arg(long, hide = true)]
        stdio: bool,
    },
    /// Print each changed kernel's forecast against its baseline, like compiler warnings.
    Check(cli::check::CheckArgs),
    /// Forecast a candidate file against a base file.
    Forecast(cli::forecast::ForecastArgs),
    /// Show what the forecaster reads from each kernel: memory traffic, launch shape and
    /// modelled time, with units (--json for the raw features).
    Profile(cli::profile::ProfileArgs),
    /// Measure a candidate against a base on a GPU worker (correctness-checked).
    Verify(cli::verify::VerifyArgs),
    /// Score the forecaster on a measured corpus (direction, bins, Brier, CRPS, ECE, AURC, top-10%).
    Eval(cli::eval::EvalArgs),
    /// Train the embedded forecaster on a measured corpus and write its weights.
    Train(cli::train::TrainArgs),
    /// Refit (or roll back, or reset) the forecaster's calibration for a device from the
    /// measurements in the store.
    Calibrate(cli::calibrate::CalibrateArgs),
    /// Search for faster variants of a kernel within a GPU budget, the forecaster screening.
    Search(cli::search::SearchArgs),
    /// Measure every variant of a kernel's knobs (block sizes, tiles, unrolls, …) as JSON lines.
    Sweep(cli::search::SweepArgs),
    /// Write every stored measurement as JSON lines (training examples).
    Export(cli::verify::ExportArgs),
    /// Measure kernels on this machine's GPU: JSON lines on stdin (used by the server),
    /// or an HTTP service with --listen.
    Worker(WorkerArgs),
}

#[derive(clap::Args)]
struct WorkerArgs {
    /// Serve HTTP on this address (e.g. 0.0.0.0:7878) instead of stdin/stdout.
    #[arg(long, value_name = "ADDR")]
    listen: Option<String>,
    /// Environment variable holding the bearer token clients must send.
    #[arg(long, default_value = "KFORECAST_WORKER_TOKEN", value_name = "VAR")]
    token_env: String,
    /// Largest request body accepted, in bytes.
    #[arg(long, default_value_t = 8 << 20)]
    max_request_bytes: usize,
    /// Time limit of one job, in seconds.
    #[arg(long, default_value_t = 120)]
    job_timeout: u64,
    /// With --listen: keep the team's shared store of measurements in this directory
    /// (`GET`/`PUT /v1/store/<key>`), so a job one client measured is free for the next.
    #[arg(long, value_name = "DIR", requires = "listen")]
    store: Option<std::path::PathBuf>,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let lsp_mode = matches!(cli.command, Command::Lsp { .. });
    if let Err(e) = logging::init(cli.log_file.as_deref(), lsp_mode) {
        eprintln!("kforecast: cannot set up logging: {e:#}");
        return ExitCode::from(2);
    }
    let options = cli::CacheOptions { dir: cli.cache_dir, disabled: cli.no_cache };
    let result = match cli.command {
        Command::Lsp { .. } => lsp::run(options),
        Command::Check(args) => cli::check::run(args, &options),
        Command::Forecast(args) => cli::forecast::run(args, &options),
        Command::Profile(args) => cli::profile::run(args),
        Command::Worker(args) => run_worker(args),
        Command::Verify(args) => cli::verify::run(args, &options),
        Command::Export(args) => cli::verify::export(args, &options),
        Command::Search(args) => cli::search::run(args, &options),
        Command::Sweep(args) => cli::search::sweep(args, &options),
        Command::Eval(args) => cli::eval::run(args, &options),
        Command::Train(args) => cli::train::run(args),
        Command::Calibrate(args) => cli::calibrate::run(args, &options),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            // A list of reasons (`a; b; c`) is printed one a line.
            eprintln!("error: {}", cli::output::multiline(&format!("{e:#}")));
            ExitCode::from(2)
        }
    }
}

fn run_worker(args: WorkerArgs) -> anyhow::Result<ExitCode> {
    let Some(addr) = args.listen else {
        return worker::stdio::run();
    };
    let token = std::env::var(&args.token_env).ok().filter(|t| !t.trim().is_empty()).ok_or_else(|| {
        anyhow::anyhow!("set the bearer token in ${} (or name another variable with --token-env)", args.token_env)
    })?;
    let store = match &args.store {
        Some(dir) => {
            let (store, warning) = kforecast_core::store::Store::open_in(dir)
                .map_err(|e| anyhow::anyhow!("--store {}: {e}", dir.display()))?;
            if let Some(w) = warning {
                eprintln!("{w}");
            }
            Some(store)
        }
        None => None,
    };
    worker::http::serve(worker::http::ServeOptions {
        store,
        addr,
        token,
        max_request_bytes: args.max_request_bytes,
        job_timeout: std::time::Duration::from_secs(args.job_timeout),
    })?;
    Ok(ExitCode::SUCCESS)
}
