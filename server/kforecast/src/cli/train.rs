//! `kforecast train CORPUS`: trains the embedded model on the corpus's train split and
//! writes its weights (by default over the shipped ones, `server/core/model/h100.json`).

use super::corpus;
use anyhow::Context;
use clap::Args;
use kforecast_core::eval::{per_family, Metrics};
use kforecast_core::forecast::train::{cross_validate, train, TrainOptions, TrainPair, NEWEST_BATCHES};
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
    /// Only cross-validate (out of family) and print the metrics; write nothing.
    #[arg(long)]
    cv_only: bool,
    /// With --cv-only: write each pair's out-of-family forecast here (JSON lines).
    #[arg(long, value_name = "FILE", requires = "cv_only")]
    dump: Option<PathBuf>,
    /// Boosting rounds of each booster.
    #[arg(long, value_name = "N")]
    rounds: Option<usize>,
    /// Depth of each tree.
    #[arg(long, value_name = "N")]
    depth: Option<usize>,
    /// Learning rate.
    #[arg(long, value_name = "X")]
    rate: Option<f64>,
    /// Boosters averaged.
    #[arg(long, value_name = "N")]
    bags: Option<usize>,
    /// Fewest samples in a leaf.
    #[arg(long, value_name = "N")]
    min_leaf: Option<usize>,
    /// Only write the training range of each pair feature (its 1st–99th percentile over
    /// the train split) here, keeping the doubt per feature of the file already there;
    /// train nothing. The forecaster ships it as `server/core/model/h100-coverage.json`.
    #[arg(long, value_name = "FILE", conflicts_with = "cv_only")]
    coverage: Option<PathBuf>,
    /// Measured programs of other styles to learn from as well: a set in the layout of
    /// `eval --set`, or its pairs stored by `--write-programs` (`.jsonl.gz`); repeat for
    /// several. Default: `CORPUS/foreign-train` when it exists, then every
    /// `CORPUS/public-train/*.jsonl.gz` by name.
    #[arg(long = "programs", value_name = "SET")]
    programs: Vec<PathBuf>,
    /// Only read the sets of `--programs` as training reads them and store their pairs
    /// here (gzipped JSON lines of profiles and measured speedups, no code); train nothing.
    #[arg(long, value_name = "FILE.jsonl.gz", requires = "programs", conflicts_with_all = ["cv_only", "coverage"])]
    write_programs: Option<PathBuf>,
    /// Learn from the corpus alone, not from `CORPUS/foreign-train`.
    #[arg(long, conflicts_with = "programs")]
    no_programs: bool,
    /// How many times each program pair counts (its rows repeated): a few hundred
    /// programs against thousands of corpus pairs.
    #[arg(long, value_name = "N", default_value_t = PROGRAM_WEIGHT)]
    program_weight: usize,
}

/// The default weight of a program pair.
const PROGRAM_WEIGHT: usize = 3;

/// The sets of programs to learn from beside the corpus.
fn program_sets(args: &TrainArgs) -> Vec<PathBuf> {
    if args.no_programs {
        return Vec::new();
    }
    if !args.programs.is_empty() {
        return args.programs.clone();
    }
    let mut sets = Vec::new();
    let default = args.corpus.join("foreign-train");
    if default.join("families.json").is_file() {
        sets.push(default);
    }
    if let Ok(entries) = std::fs::read_dir(args.corpus.join("public-train")) {
        let mut stored: Vec<PathBuf> =
            entries.filter_map(Result::ok).map(|e| e.path()).filter(|p| super::train_programs::is_stored(p)).collect();
        stored.sort();
        sets.extend(stored);
    }
    sets
}

/// `--write-programs`: the pairs of every `--programs` set, in order, to one file.
fn write_programs(args: &TrainArgs, path: &std::path::Path, profiles: &EmbeddedForecaster) -> anyhow::Result<ExitCode> {
    anyhow::ensure!(
        super::train_programs::is_stored(path),
        "--write-programs writes gzipped JSON lines: name a `.jsonl.gz` file, not {}",
        path.display()
    );
    let mut pairs = Vec::new();
    for set in &args.programs {
        let programs = super::train_programs::load(set, profiles)?;
        eprintln!("kforecast train: programs from {}", programs.describe);
        pairs.extend(programs.pairs);
    }
    super::train_programs::save(&pairs, path)?;
    super::out(format!("stored {} pairs in {}", pairs.len(), path.display()));
    Ok(ExitCode::SUCCESS)
}

pub fn run(args: TrainArgs) -> anyhow::Result<ExitCode> {
    let profiles = EmbeddedForecaster::new();
    if let Some(path) = &args.write_programs {
        return write_programs(&args, path, &profiles);
    }
    let corpus = corpus::load(&args.corpus, args.measurements.as_deref(), &profiles)?;
    let mut pairs: Vec<TrainPair> = corpus
        .pairs
        .iter()
        .filter(|p| p.split == "train" && !p.identical)
        .map(|p| TrainPair {
            family: p.family.clone(),
            batch: p.batch.clone(),
            names: (p.base.clone(), p.candidate.clone()),
            base: p.profiles.0.clone(),
            candidate: p.profiles.1.clone(),
            speedup: p.speedup,
            // The corpus declares every kernel's sizes (corpus/README.md).
            undeclared: false,
        })
        .collect();
    if pairs.is_empty() {
        anyhow::bail!("{}: no measured pairs in the train split", corpus.describe());
    }
    let mut measurements = corpus.names();
    for set in program_sets(&args) {
        let programs = super::train_programs::load(&set, &profiles)?;
        eprintln!("kforecast train: programs from {}", programs.describe);
        for _ in 0..args.program_weight.max(1) {
            pairs.extend(programs.pairs.iter().cloned());
        }
        measurements.push_str(&format!(" + {} (×{})", set.display(), args.program_weight.max(1)));
    }
    if let Some(path) = &args.coverage {
        return write_coverage(&pairs, path);
    }
    let provenance = Provenance { device: corpus.device.clone(), measurements, ..Provenance::default() };
    let mut options = TrainOptions { seed: args.seed, ..TrainOptions::default() };
    let p = &mut options.params;
    p.rounds = args.rounds.unwrap_or(p.rounds);
    p.depth = args.depth.unwrap_or(p.depth);
    p.rate = args.rate.unwrap_or(p.rate);
    p.min_leaf = args.min_leaf.unwrap_or(p.min_leaf);
    options.bags = args.bags.unwrap_or(options.bags);
    if !(options.params.rate > 0.0 && options.params.rate <= 1.0) {
        anyhow::bail!("--rate must be in (0, 1], got {}", options.params.rate);
    }
    if args.cv_only {
        let cv = cross_validate(&pairs, &options, true, &mut |line| eprintln!("{line}"));
        print_cross_validation(&cv.metrics, &options);
        if let Some(b) = &cv.batch_metrics {
            super::out(format!(
                "  each batch held out: direction |log2 S| > 0.2 {:.1}%, ECE bin {:.4}, ECE claim {:.4}, log score {:.3}, top-10% {:.3}",
                b.direction_accuracy_clear * 100.0,
                b.ece_bin,
                b.ece_claim,
                b.log_score,
                b.top10_recovery
            ));
        }
        if let Some(n) = &cv.novel_metrics {
            super::out(format!(
                "  newest {NEWEST_BATCHES} batches forecast from the earlier ones ({} pairs, {} families): direction |log2 S| > 0.2 {:.1}%, ECE bin {:.4}, log score {:.3}",
                n.pairs,
                n.families,
                n.direction_accuracy_clear * 100.0,
                n.ece_bin,
                n.log_score
            ));
        }
        super::out(format!("  spread {:?}", cv.spread));
        if let Some(path) = &args.dump {
            let mut text = String::new();
            for (s, e) in cv.samples.iter().zip(&cv.estimates) {
                let mut row = super::eval::sample_row(s);
                row["disagreement"] = serde_json::json!(e.disagreement);
                text.push_str(&row.to_string());
                text.push('\n');
            }
            std::fs::write(path, text).with_context(|| format!("cannot write {}", path.display()))?;
        }
        super::eval::print_families(&per_family(&cv.samples));
        return Ok(ExitCode::SUCCESS);
    }
    let model = train(&pairs, &options, provenance, &mut |line| eprintln!("{line}"));
    let mut text = serde_json::to_string(&model)?;
    text.push('\n');
    std::fs::write(&args.out, text).with_context(|| format!("cannot write {}", args.out.display()))?;
    super::out(format!(
        "trained on {} pairs of {} families ({}): spread {:?}; out-of-family: {}; newest batches: {}",
        model.provenance.pairs,
        model.provenance.families,
        model.provenance.device,
        model.spread,
        model.provenance.cross_validation,
        model.provenance.novel_batches
    ));
    super::out(format!("wrote {}", args.out.display()));
    Ok(ExitCode::SUCCESS)
}

fn print_cross_validation(m: &Metrics, options: &TrainOptions) {
    super::out(format!(
        "out-of-family cross-validation, {} pairs of {} families, {:?}, bags {}:",
        m.pairs, m.families, options.params, options.bags
    ));
    super::out(format!(
        "  direction |log2 S| > 0.2 {:.1}%, all {:.1}%, ECE bin {:.4}, ECE claim {:.4}, log score {:.3}, CRPS {:.3}, AURC {:.3}",
        m.direction_accuracy_clear * 100.0,
        m.direction_accuracy * 100.0,
        m.ece_bin,
        m.ece_claim,
        m.log_score,
        m.crps,
        m.aurc
    ));
    super::out(format!(
        "  top-10% recovery {:.3} ({:.0}% of families within 10%), ranked by tournament {:.3}",
        m.top10_recovery,
        m.top10_within_10pct * 100.0,
        m.top10_tournament
    ));
}

/// Writes the train split's pair-feature ranges, keeping the fitted doubt of an existing file.
fn write_coverage(pairs: &[TrainPair], path: &std::path::Path) -> anyhow::Result<ExitCode> {
    use kforecast_core::forecast::novelty::Coverage;
    use kforecast_core::forecast::trained::{feature_names, pair_vector};
    // Both orders of every pair, as the model sees them.
    let rows: Vec<Vec<f64>> =
        pairs.iter().flat_map(|p| [pair_vector(&p.base, &p.candidate), pair_vector(&p.candidate, &p.base)]).collect();
    let mut coverage = Coverage::of(feature_names(), &rows);
    if let Some(old) = std::fs::read_to_string(path).ok().and_then(|t| serde_json::from_str::<Coverage>(&t).ok()) {
        coverage.sigma_per_feature = old.sigma_per_feature;
        coverage.lost_per_feature = old.lost_per_feature;
    }
    std::fs::write(path, serde_json::to_string_pretty(&coverage)? + "\n")
        .with_context(|| format!("cannot write {}", path.display()))?;
    super::out(format!(
        "kforecast train: the ranges of {} features over {} pairs written to {}",
        coverage.features.len(),
        rows.len(),
        path.display()
    ));
    Ok(ExitCode::SUCCESS)
}
