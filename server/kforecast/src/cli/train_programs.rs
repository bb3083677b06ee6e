//! Measured programs of other styles as training pairs: a set in the layout of
//! `eval --set` (whole programs, kernels renamed between versions, sizes known only at
//! run time) read as the forecaster reads programs
//! ([`kforecast_core::forecast::EmbeddedForecaster::program_pair_profiles`]).

use super::evalset::{load_set, load_versions};
use kforecast_core::forecast::train::TrainPair;
use kforecast_core::forecast::{undeclared, EmbeddedForecaster};
use std::path::Path;
use std::sync::Arc;

/// What reading a set gave.
pub struct ProgramPairs {
    pub pairs: Vec<TrainPair>,
    /// The set, its size, and how many measured pairs were not learned from (a version
    /// without kernels, or the same kernel twice).
    pub describe: String,
}

/// Every measured pair of the set at `root` (each family's pairs carry its name prefixed
/// by the set's, so they are held out together; the batch is the set's).
pub fn load(root: &Path, profiles: &EmbeddedForecaster) -> anyhow::Result<ProgramPairs> {
    let set = load_set(root, None)?;
    let name = root.file_name().map_or_else(|| "programs".to_string(), |n| n.to_string_lossy().into_owned());
    let batch = set
        .files
        .last()
        .and_then(|f| f.file_stem())
        .map_or_else(|| name.clone(), |s| format!("{}-{name}", s.to_string_lossy()));
    let loaded = load_versions(&set.root, &set.pairs);
    let mut pairs = Vec::new();
    let mut skipped = 0;
    for p in &set.pairs {
        let (Some(Ok(b)), Some(Ok(c))) = (loaded.get(&p.base), loaded.get(&p.candidate)) else {
            skipped += 1;
            continue;
        };
        let Some((pb, pc)) = profiles.program_pair_profiles(&b.kernels, &c.kernels) else {
            skipped += 1;
            continue;
        };
        pairs.push(TrainPair {
            family: format!("{name}/{}", p.family),
            batch: batch.clone(),
            names: (p.base.clone(), p.candidate.clone()),
            base: Arc::new(pb),
            candidate: Arc::new(pc),
            speedup: p.speedup,
            undeclared: undeclared(b.kernels.iter().chain(&c.kernels)),
        });
    }
    let describe = format!(
        "{} ({} measured pairs of {} families; {} not learned from)",
        root.display(),
        set.pairs.len(),
        set.pairs.iter().map(|p| &p.family).collect::<std::collections::BTreeSet<_>>().len(),
        skipped
    );
    Ok(ProgramPairs { pairs, describe })
}
