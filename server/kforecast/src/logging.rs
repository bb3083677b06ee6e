//! Logs go to stderr or a file, never to stdout (stdout carries LSP messages).

use anyhow::Context;
use std::path::Path;
use tracing_subscriber::EnvFilter;

/// Sets up tracing. The level comes from `KFORECAST_LOG` (e.g. `debug`,
/// `kforecast_core=trace`); the default is `info` for the server and `warn` for the CLI.
pub fn init(file: Option<&Path>, lsp: bool) -> anyhow::Result<()> {
    let default = if lsp { "info" } else { "warn" };
    let filter = EnvFilter::try_from_env("KFORECAST_LOG").unwrap_or_else(|_| EnvFilter::new(default));
    let builder = tracing_subscriber::fmt().with_env_filter(filter).with_ansi(false).with_target(false);
    match file {
        Some(path) => {
            let file = std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
                .with_context(|| format!("cannot open log file {}", path.display()))?;
            builder.with_writer(std::sync::Mutex::new(file)).init();
        }
        None => builder.with_writer(std::io::stderr).init(),
    }
    Ok(())
}
