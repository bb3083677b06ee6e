//! A measured corpus (`corpus/`): families of kernel versions, their split, and the
//! measured pairs, loaded with both versions' profiles for `eval` and `train`.

use super::load_with_kernels;
use anyhow::{bail, Context};
use kforecast_core::features::Profile;
use kforecast_core::forecast::EmbeddedForecaster;
use kforecast_core::kernel::Kernel;
use serde_json::Value;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// A measured pair with both versions' profiles.
pub struct Pair {
    pub family: String,
    pub split: String,
    pub base: String,
    pub candidate: String,
    pub speedup: f64,
    /// The two versions are the same kernel once comments, layout and names go.
    pub identical: bool,
    pub profiles: (Arc<Profile>, Arc<Profile>),
}

pub struct Corpus {
    /// The measurements file read.
    pub file: PathBuf,
    pub device: String,
    pub pairs: Vec<Pair>,
    /// Pairs whose measurement failed, per split.
    pub unmeasured: HashMap<String, usize>,
}

impl Corpus {
    pub fn unmeasured_in(&self, split: &str) -> usize {
        if split == "all" {
            self.unmeasured.values().sum()
        } else {
            self.unmeasured.get(split).copied().unwrap_or(0)
        }
    }
}

/// The newest `*.jsonl` in a folder (names start with the device and date).
fn newest(dir: &Path) -> Option<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .ok()?
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "jsonl"))
        .collect();
    files.sort();
    files.pop()
}

/// Reads the corpus's measurements (`measurements`, or the newest in `corpus/measurements/`).
pub fn load(corpus: &Path, measurements: Option<&Path>, profiles: &EmbeddedForecaster) -> anyhow::Result<Corpus> {
    let file = match measurements {
        Some(f) => f.to_path_buf(),
        None => newest(&corpus.join("measurements"))
            .with_context(|| format!("no measurements/*.jsonl in {}", corpus.display()))?,
    };
    // Paths in the measurements are relative to the corpus's parent (the repository).
    let root = corpus.parent().unwrap_or(Path::new(".")).to_path_buf();
    let text = std::fs::read_to_string(&file).with_context(|| format!("cannot read {}", file.display()))?;
    // Each version's kernels, extracted once.
    let mut kernels: HashMap<String, Vec<Kernel>> = HashMap::new();
    let mut corpus =
        Corpus { file: file.clone(), device: String::new(), pairs: Vec::new(), unmeasured: HashMap::new() };
    for (i, line) in text.lines().enumerate() {
        let Ok(row) = serde_json::from_str::<Value>(line) else {
            eprintln!("warning: {}:{}: not JSON", file.display(), i + 1);
            continue;
        };
        let split = row["split"].as_str().unwrap_or("train").to_string();
        let r = &row["result"];
        let (Some("ok"), Some(s)) = (r["status"].as_str(), r["speedup"].as_f64()) else {
            *corpus.unmeasured.entry(split).or_default() += 1;
            continue;
        };
        if corpus.device.is_empty() {
            corpus.device = r["device"]["name"].as_str().unwrap_or("").to_string();
        }
        let (Some(base), Some(cand), Some(kernel)) =
            (row["base"].as_str(), row["candidate"].as_str(), row["kernel"].as_str())
        else {
            continue;
        };
        for p in [base, cand] {
            if !kernels.contains_key(p) {
                kernels.insert(p.to_string(), load_with_kernels(&root.join(p))?.kernels);
            }
        }
        let find = |p: &str| kernels.get(p).and_then(|ks| ks.iter().find(|k| k.name == kernel));
        let (Some(b), Some(c)) = (find(base), find(cand)) else {
            continue;
        };
        if !(s.is_finite() && s > 0.0) {
            bail!("{}:{}: speedup {s} is not a positive number", file.display(), i + 1);
        }
        corpus.pairs.push(Pair {
            family: format!("{}/{}", row["language"].as_str().unwrap_or(""), row["family"].as_str().unwrap_or("")),
            split,
            base: base.to_string(),
            candidate: cand.to_string(),
            speedup: s,
            identical: b.identity() == c.identity(),
            profiles: (profiles.profile(b), profiles.profile(c)),
        });
    }
    Ok(corpus)
}
