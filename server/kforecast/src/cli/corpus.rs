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
    /// The measurements file it came from (each holds one batch of families).
    pub batch: String,
    pub split: String,
    pub base: String,
    pub candidate: String,
    pub speedup: f64,
    /// The two versions are the same kernel once comments, layout and names go.
    pub identical: bool,
    pub profiles: (Arc<Profile>, Arc<Profile>),
}

pub struct Corpus {
    /// The measurements files read, in order.
    pub files: Vec<PathBuf>,
    pub device: String,
    pub pairs: Vec<Pair>,
    /// Pairs whose measurement failed, per split.
    pub unmeasured: HashMap<String, usize>,
}

impl Corpus {
    /// The files read, for messages: "a.jsonl + b.jsonl".
    pub fn describe(&self) -> String {
        self.files.iter().map(|f| f.display().to_string()).collect::<Vec<_>>().join(" + ")
    }

    /// The files' names without their folder, for a model's provenance.
    pub fn names(&self) -> String {
        let name = |f: &PathBuf| f.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        self.files.iter().map(name).collect::<Vec<_>>().join("+")
    }

    pub fn unmeasured_in(&self, split: &str) -> usize {
        if split == "all" {
            self.unmeasured.values().sum()
        } else {
            self.unmeasured.get(split).copied().unwrap_or(0)
        }
    }
}

/// Each family's split ("language/family" → "train" | "heldout") from `families.json`.
fn splits(corpus: &Path) -> anyhow::Result<HashMap<String, String>> {
    let path = corpus.join("families.json");
    let text = std::fs::read_to_string(&path).with_context(|| format!("cannot read {}", path.display()))?;
    let families: Vec<Value> =
        serde_json::from_str(&text).with_context(|| format!("{} is not a JSON list", path.display()))?;
    Ok(families
        .iter()
        .filter_map(|f| {
            let key = format!("{}/{}", f["language"].as_str()?, f["family"].as_str()?);
            Some((key, f["split"].as_str()?.to_string()))
        })
        .collect())
}

/// Every `*.jsonl` in a folder, by name (names start with the device and date, so the
/// oldest measurements come first).
fn all_jsonl(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "jsonl"))
        .collect();
    files.sort();
    files
}

/// Reads the corpus's measurements: `measurements`, or every `*.jsonl` in
/// `corpus/measurements/` (each measuring session adds one file).
pub fn load(corpus: &Path, measurements: Option<&Path>, profiles: &EmbeddedForecaster) -> anyhow::Result<Corpus> {
    let files = match measurements {
        Some(f) => vec![f.to_path_buf()],
        None => all_jsonl(&corpus.join("measurements")),
    };
    if files.is_empty() {
        bail!("no measurements/*.jsonl in {}", corpus.display());
    }
    // Paths in the measurements are relative to the corpus's parent (the repository).
    let root = corpus.parent().unwrap_or(Path::new(".")).to_path_buf();
    let splits = splits(corpus)?;
    // Each version's kernels, extracted once.
    let mut kernels: HashMap<String, Vec<Kernel>> = HashMap::new();
    let mut corpus = Corpus { files: Vec::new(), device: String::new(), pairs: Vec::new(), unmeasured: HashMap::new() };
    let mut texts = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).with_context(|| format!("cannot read {}", file.display()))?;
        texts.push((file, text));
    }
    let lines = texts.iter().flat_map(|(file, text)| text.lines().enumerate().map(move |(i, l)| (*file, i, l)));
    for (file, i, line) in lines {
        let Ok(row) = serde_json::from_str::<Value>(line) else {
            eprintln!("warning: {}:{}: not JSON", file.display(), i + 1);
            continue;
        };
        // families.json decides the split (a row keeps the split it was measured under).
        let family = format!("{}/{}", row["language"].as_str().unwrap_or(""), row["family"].as_str().unwrap_or(""));
        let split =
            splits.get(&family).cloned().unwrap_or_else(|| row["split"].as_str().unwrap_or("train").to_string());
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
            family,
            batch: file.file_stem().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default(),
            split,
            base: base.to_string(),
            candidate: cand.to_string(),
            speedup: s,
            identical: b.identity() == c.identity(),
            profiles: (profiles.profile(b), profiles.profile(c)),
        });
    }
    corpus.files = files;
    Ok(corpus)
}
