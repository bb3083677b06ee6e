//! `kforecast profile FILE`: what the embedded forecaster sees in each kernel.

use super::load_with_kernels;
use clap::Args;
use kforecast_core::features;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Args)]
pub struct ProfileArgs {
    /// A CUDA or Triton source file.
    file: PathBuf,
    /// Only this kernel.
    #[arg(long, value_name = "NAME")]
    kernel: Option<String>,
}

pub fn run(args: ProfileArgs) -> anyhow::Result<ExitCode> {
    let file = load_with_kernels(&args.file)?;
    let mut found = false;
    for k in &file.kernels {
        if args.kernel.as_ref().is_some_and(|n| n != &k.name) {
            continue;
        }
        found = true;
        let p = features::profile(k);
        let v = serde_json::json!({
            "kernel": k.name,
            "identity": k.identity().to_string(),
            "launches": k.launches,
            "launch_bounds": k.launch_bounds,
            "helpers": k.helpers.iter().map(|h| (h.name.clone(), h.text.clone())).collect::<Vec<_>>(),
            "guesses": p.guesses,
            "cost": p.cost,
            "features": p.features,
        });
        super::out(serde_json::to_string_pretty(&v)?);
    }
    if !found {
        anyhow::bail!("{}: no kernel named `{}`", args.file.display(), args.kernel.unwrap_or_default());
    }
    Ok(ExitCode::SUCCESS)
}
