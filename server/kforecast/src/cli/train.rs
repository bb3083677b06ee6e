//! `kforecast train CORPUS`: trains the embedded model on the corpus's train split and
//! writes its weights (by default over the shipped ones, `server/core/model/h100.json`).

use super::corpus;
use anyhow::Context;
use clap::Args;
use kforecast_core::forecast::train::{train, TrainOptions, TrainPair};
use kforecast_core::forecast::trained::Provenance;
use kforecast_core::forecast::EmbeddedForecaster;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Args)]
pub struct TrainArgs {
    /// The corpus folder (with families.json and measurements/).
    corpus: PathBuf,
    /// Measurements to train on (default: every measurements/*.jsonl).
    #[arg(long, value_name = "FILE")]
    measurements: Option<PathBuf>,
    /// Where to write the weights.
    #[arg(long, value_name = "FILE", default_value = "server/core/model/h100.json")]
    out: PathBuf,
    /// Seed of the subsamples (training is deterministic under it).
    #[arg(long, default_value_t = 2026)]
    seed: u64,
}

pub fn run(args: TrainArgs) -> anyhow::Result<ExitCode> {
    let profiles = EmbeddedForecaster::new();
    let corpus = corpus::load(&args.corpus, args.measurements.as_deref(), &profiles)?;
    let pairs: Vec<TrainPair> = corpus
        .pairs
        .iter()
        .filter(|p| p.split == "train" && !p.identical)
        .map(|p| TrainPair {
            family: p.family.clone(),
            base: p.profiles.0.clone(),
            candidate: p.profiles.1.clone(),
            speedup: p.speedup,
        })
        .collect();
    if pairs.is_empty() {
        anyhow::bail!("{}: no measured pairs in the train split", corpus.describe());
    }
    let measurements = corpus.names();
    let provenance = Provenance { device: corpus.device.clone(), measurements, ..Provenance::default() };
    let options = TrainOptions { seed: args.seed, ..TrainOptions::default() };
    let model = train(&pairs, &options, provenance, &mut |line| eprintln!("{line}"));
    let mut text = serde_json::to_string(&model)?;
    text.push('\n');
    std::fs::write(&args.out, text).with_context(|| format!("cannot write {}", args.out.display()))?;
    super::out(format!(
        "trained on {} pairs of {} families ({}): spread {:?}; out-of-family: {}",
        model.provenance.pairs,
        model.provenance.families,
        model.provenance.device,
        model.spread,
        model.provenance.cross_validation
    ));
    super::out(format!("wrote {}", args.out.display()));
    Ok(ExitCode::SUCCESS)
}
