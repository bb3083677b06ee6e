//! `kforecast`: the language server and the command line, on one core library.

mod cli;
mod logging;
mod lsp;

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
    /// Show the features and modelled cost the embedded forecaster reads from each kernel.
    Profile(cli::profile::ProfileArgs),
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
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(2)
        }
    }
}
