//! Measured programs of other styles as training pairs: a set in the layout of
//! `eval --set` (whole programs, kernels renamed between versions, sizes known only at
//! run time) read as the forecaster reads programs
//! ([`kforecast_core::forecast::EmbeddedForecaster::program_pair_profiles`]), or the
//! pairs of such a set stored as profiles (`.jsonl.gz`, see [`save`]): public code stays
//! out of the repository, what the forecaster read of it and what it measured can be kept.

use super::evalset::{load_set, load_versions};
use anyhow::Context;
use flate2::read::GzDecoder;
use flate2::write::GzEncoder;
use kforecast_core::features::Profile;
use kforecast_core::forecast::train::TrainPair;
use kforecast_core::forecast::{undeclared, EmbeddedForecaster};
use serde::{Deserialize, Serialize};
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::sync::Arc;

/// What reading a set gave.
pub struct ProgramPairs {
    pub pairs: Vec<TrainPair>,
    /// The set, its size, and how many measured pairs were not learned from (a version
    /// without kernels, or the same kernel twice).
    pub describe: String,
}

/// Whether `path` names stored pairs rather than a set folder.
pub fn is_stored(path: &Path) -> bool {
    path.to_string_lossy().ends_with(".jsonl.gz")
}

/// Every measured pair of the set at `root` (each family's pairs carry its name prefixed
/// by the set's, so they are held out together; the batch is the set's), or of the pairs
/// stored at `root` by [`save`].
pub fn load(root: &Path, profiles: &EmbeddedForecaster) -> anyhow::Result<ProgramPairs> {
    if is_stored(root) {
        return load_stored(root);
    }
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
        let (b, c) = super::compared(b, c);
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

/// One stored pair: the set's names, the measured speedup and both versions' profiles.
#[derive(Serialize, Deserialize)]
struct Stored {
    family: String,
    batch: String,
    base: String,
    candidate: String,
    speedup: f64,
    undeclared: bool,
    base_profile: Profile,
    candidate_profile: Profile,
}

/// Writes `pairs` as gzipped JSON lines, one pair a line, in their order (training is
/// deterministic in it).
pub fn save(pairs: &[TrainPair], path: &Path) -> anyhow::Result<()> {
    let file = std::fs::File::create(path).with_context(|| format!("cannot write {}", path.display()))?;
    let mut gz = GzEncoder::new(std::io::BufWriter::new(file), flate2::Compression::best());
    for p in pairs {
        let row = Stored {
            family: p.family.clone(),
            batch: p.batch.clone(),
            base: p.names.0.clone(),
            candidate: p.names.1.clone(),
            speedup: p.speedup,
            undeclared: p.undeclared,
            base_profile: Profile::clone(&p.base),
            candidate_profile: Profile::clone(&p.candidate),
        };
        serde_json::to_writer(&mut gz, &row)?;
        gz.write_all(b"\n")?;
    }
    gz.finish()?.flush().with_context(|| format!("cannot write {}", path.display()))?;
    Ok(())
}

fn load_stored(path: &Path) -> anyhow::Result<ProgramPairs> {
    let file = std::fs::File::open(path).with_context(|| format!("cannot read {}", path.display()))?;
    let mut pairs = Vec::new();
    for (i, line) in BufReader::new(GzDecoder::new(file)).lines().enumerate() {
        let line = line.with_context(|| format!("{}: not gzipped JSON lines", path.display()))?;
        if line.trim().is_empty() {
            continue;
        }
        let s: Stored = serde_json::from_str(&line).with_context(|| {
            format!("{}:{}: not a stored pair (written by an older kforecast? rebuild it)", path.display(), i + 1)
        })?;
        pairs.push(TrainPair {
            family: s.family,
            batch: s.batch,
            names: (s.base, s.candidate),
            base: Arc::new(s.base_profile),
            candidate: Arc::new(s.candidate_profile),
            speedup: s.speedup,
            undeclared: s.undeclared,
        });
    }
    anyhow::ensure!(!pairs.is_empty(), "{}: no stored pairs", path.display());
    let families = pairs.iter().map(|p| &p.family).collect::<std::collections::BTreeSet<_>>().len();
    let describe = format!("{} ({} stored pairs of {families} families)", path.display(), pairs.len());
    Ok(ProgramPairs { pairs, describe })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn repo_file(path: &str) -> std::path::PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").join(path)
    }

    #[test]
    fn stored_pairs_read_back_as_they_were_written() {
        let shipped = repo_file("corpus/public-train/public16.jsonl.gz");
        let read = load(&shipped, &EmbeddedForecaster::new()).expect("the shipped pairs read");
        assert!(read.pairs.len() > 10 && read.describe.contains("stored pairs"), "{}", read.describe);
        let dir = tempfile::tempdir().expect("tempdir");
        let copy = dir.path().join("copy.jsonl.gz");
        save(&read.pairs, &copy).expect("written");
        let again = load(&copy, &EmbeddedForecaster::new()).expect("read back");
        assert_eq!(again.pairs.len(), read.pairs.len());
        for (a, b) in again.pairs.iter().zip(&read.pairs) {
            assert_eq!((&a.family, &a.batch, &a.names, a.undeclared), (&b.family, &b.batch, &b.names, b.undeclared));
            assert!(a.speedup == b.speedup && a.base == b.base && a.candidate == b.candidate, "{}", a.family);
        }
    }

    #[test]
    fn a_file_that_is_not_stored_pairs_is_named_in_the_error() {
        let dir = tempfile::tempdir().expect("tempdir");
        let bad = dir.path().join("bad.jsonl.gz");
        std::fs::write(&bad, b"not gzip").expect("written");
        let err = load(&bad, &EmbeddedForecaster::new()).err().expect("refused").to_string();
        assert!(err.contains("bad.jsonl.gz"), "{err}");
    }
}
