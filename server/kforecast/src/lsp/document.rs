//! One open document: its text and parse, its kernels, its baseline and the reports.

use super::position::{to_offset, Encoding};
use super::settings::BaselineMode;
use kforecast_core::analysis::{Analyzer, KernelReport, LastGood};
use kforecast_core::baseline;
use kforecast_core::extract::{self, Extractor};
use kforecast_core::hash::ContentHash;
use kforecast_core::kernel::{Kernel, Language};
use kforecast_core::measure::protocol::Measurement;
use kforecast_core::measure::spec::SpecError;
use kforecast_core::source::SourceText;
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;
use tower_lsp::lsp_types::{TextDocumentContentChangeEvent, Url};

/// The previous version kernels are compared with.
pub struct Baseline {
    /// Shared with analyses running off the lock.
    pub kernels: Arc<Vec<Kernel>>,
    /// Shown to the user: `HEAD`, `the version when opened`, `the baseline you set`.
    pub label: String,
    /// The whole file as it was (a Triton measurement runs the baseline's wrapper).
    pub text: String,
}

/// An analysis whose forecasts are being made off the lock.
pub struct Pending {
    generation: u64,
    pub version: i32,
    /// The kernels being forecast (last good stand-ins flagged).
    pub current: Vec<(Kernel, bool)>,
    pub baseline: Arc<Vec<Kernel>>,
    linked: Vec<String>,
}

/// One version of a file: its path, text and kernels.
pub type Side = (PathBuf, String, Vec<Kernel>);

/// A GPU measurement of one kernel, valid while the pair it measured is current.
#[derive(Clone, Debug)]
pub struct Verified {
    /// Identities of the (baseline, candidate) versions measured.
    pub pair: (ContentHash, ContentHash),
    pub measurement: Measurement,
}

/// Where a kernel's verification stands.
#[derive(Clone, Debug)]
pub enum Verification {
    Running { pair: (ContentHash, ContentHash) },
    Done(Box<Verified>),
}

pub struct Document {
    pub version: i32,
    pub language: Language,
    pub src: SourceText,
    extractor: Extractor,
    last_good: LastGood,
    /// Kernels and text as of opening (the `open` baseline).
    opened: Vec<Kernel>,
    opened_text: String,
    /// GPU measurements by kernel name.
    pub verifications: HashMap<String, Verification>,
    /// Declaration mistakes found when verifying, by kernel name.
    pub spec_errors: HashMap<String, Vec<SpecError>>,
    pub baseline: Baseline,
    /// The kernels being forecast (last good stand-ins flagged).
    pub current: Vec<(Kernel, bool)>,
    pub reports: Vec<KernelReport>,
    /// Why the document is not analysed (too large), if it is not.
    pub disabled: Option<String>,
    /// Edits not analysed yet (a burst of edits is analysed once, when next needed).
    pub stale: bool,
    /// Counts changes of the text or the baseline: an analysis made off the lock is kept
    /// only if none came meanwhile.
    generation: u64,
    /// Why the current text is not analysed (its parse ran out of time): the kernels
    /// and reports are those of the last text that parsed.
    pub too_complex: Option<String>,
    /// The LLM surrogate's forecasts of this document's pairs.
    pub llm: super::llm::LlmForecasts,
    path: Option<PathBuf>,
    /// Other files of the document's folder that may launch its kernels or call their
    /// launchers (label, text), read when opened and saved.
    siblings: Vec<(String, String)>,
    /// What the siblings told about the kernels (for the hover).
    pub linked: Vec<String>,
}

/// The language of a document from its languageId, falling back to its extension.
pub fn language_of(uri: &Url, language_id: &str) -> Option<Language> {
    match language_id {
        "cuda" | "cuda-cpp" | "cu" | "cuh" => Some(Language::Cuda),
        "python" | "triton" => Some(Language::Triton),
        _ => {
            let path = uri.to_file_path().ok().unwrap_or_else(|| PathBuf::from(uri.path()));
            Language::from_path(&path)
        }
    }
}

impl Document {
    pub fn open(uri: &Url, language: Language, text: &str, version: i32, mode: BaselineMode, max_size: usize) -> Self {
        let path = uri.to_file_path().ok();
        let disabled = (text.len() > max_size).then(|| {
            format!(
                "kforecast: {} is {:.1} MB, over the {:.1} MB limit (setting `kforecast.maxFileSize`); no forecasts for it",
                uri,
                text.len() as f64 / 1e6,
                max_size as f64 / 1e6
            )
        });
        let src = SourceText::new(language, if disabled.is_some() { "" } else { text });
        let mut extractor = Extractor::new(language);
        let opened = extractor.extract(&src).kernels;
        let mut doc = Self {
            version,
            language,
            src,
            extractor,
            last_good: LastGood::default(),
            opened,
            opened_text: if max_size >= text.len() { text.to_string() } else { String::new() },
            verifications: HashMap::new(),
            spec_errors: HashMap::new(),
            baseline: Baseline { kernels: Arc::default(), label: String::new(), text: String::new() },
            generation: 0,
            current: Vec::new(),
            reports: Vec::new(),
            disabled,
            stale: true,
            too_complex: None,
            llm: Default::default(),
            path,
            siblings: Vec::new(),
            linked: Vec::new(),
        };
        doc.read_siblings();
        doc.load_baseline(mode);
        doc
    }

    /// Reads the other files of the document's folder that may launch its kernels.
    pub fn read_siblings(&mut self) {
        self.siblings = self.path.as_deref().map(extract::workspace::sibling_files).unwrap_or_default();
    }

    /// Completes kernels from the siblings (launches and launcher calls elsewhere).
    fn link(&self, kernels: &mut [Kernel], text: &str) -> Vec<String> {
        if self.siblings.is_empty() || self.language != Language::Cuda {
            return Vec::new();
        }
        let others: Vec<extract::workspace::OtherFile> = self
            .siblings
            .iter()
            .map(|(label, text)| extract::workspace::OtherFile { label: label.clone(), text })
            .collect();
        extract::workspace::link(kernels, text, &others)
    }

    /// Loads the baseline for a mode: git HEAD (falling back to the opened text) or the opened text.
    pub fn load_baseline(&mut self, mode: BaselineMode) {
        self.changed();
        if mode == BaselineMode::Git {
            if let Some(path) = &self.path {
                match baseline::git_show(path, "HEAD") {
                    Ok(text) => {
                        let mut kernels = extract::extract_text(self.language, &text).kernels;
                        self.link(&mut kernels, &text);
                        self.baseline = Baseline { kernels: Arc::new(kernels), label: "HEAD".to_string(), text };
                        return;
                    }
                    Err(e) => tracing::debug!("no git baseline for {}: {e}", path.display()),
                }
            }
        }
        let mut kernels = self.opened.clone();
        let opened_text = self.opened_text.clone();
        self.link(&mut kernels, &opened_text);
        self.baseline = Baseline {
            kernels: Arc::new(kernels),
            label: "the version when opened".to_string(),
            text: self.opened_text.clone(),
        };
    }

    /// Applies `didChange` content changes in order. Ranges are clamped to the text.
    pub fn apply_changes(&mut self, changes: Vec<TextDocumentContentChangeEvent>, enc: Encoding) {
        if self.disabled.is_some() {
            return;
        }
        self.changed();
        for change in changes {
            match change.range {
                Some(range) => {
                    let rope = self.src.rope();
                    let mut start = to_offset(rope, range.start, enc);
                    let mut end = to_offset(rope, range.end, enc);
                    if end < start {
                        std::mem::swap(&mut start, &mut end);
                    }
                    self.src.edit(start, end, &change.text);
                }
                None => self.src.replace_all(&change.text),
            }
        }
    }

    /// The text or the baseline changed: the analysis is out of date.
    fn changed(&mut self) {
        self.stale = true;
        self.generation += 1;
    }

    /// Re-extracts kernels and forecasts them against the baseline, here and now.
    pub fn analyze(&mut self, analyzer: &Analyzer) {
        if let Some(pending) = self.prepare() {
            let reports = analyzer.compare(&pending.current, &pending.baseline);
            self.install(pending, reports);
        }
    }

    /// The millisecond half of an analysis, under the lock: the text parsed and its
    /// kernels extracted. `None` when there is nothing to forecast (the analysis is
    /// current, or the text is not analysed: too large, or too complex to parse); the
    /// forecasts are made off the lock ([`Pending`]) and kept by [`Self::install`].
    pub fn prepare(&mut self) -> Option<Pending> {
        if !self.stale {
            return None;
        }
        if self.disabled.is_some() {
            self.stale = false;
            self.reports.clear();
            return None;
        }
        let start = std::time::Instant::now();
        self.src.reparse();
        if self.src.timed_out() {
            self.stale = false;
            self.too_complex = Some(format!(
                "kforecast: this file took over {} ms to parse and is not analysed; the forecasts shown are \
                 those of its last version that parsed",
                self.src.budget().as_millis()
            ));
            return None;
        }
        self.too_complex = None;
        let mut extraction = self.extractor.extract(&self.src);
        let linked = if self.siblings.is_empty() {
            Vec::new()
        } else {
            let text = self.src.text();
            self.link(&mut extraction.kernels, &text)
        };
        let current = self.last_good.resolve(extraction);
        tracing::debug!("version {} parsed and extracted in {:?}", self.version, start.elapsed());
        Some(Pending {
            generation: self.generation,
            version: self.version,
            current,
            baseline: self.baseline.kernels.clone(),
            linked,
        })
    }

    /// Keeps the forecasts of an analysis if the text and baseline are still those it
    /// read; false when they changed meanwhile (the document stays stale).
    pub fn install(&mut self, pending: Pending, mut reports: Vec<KernelReport>) -> bool {
        if pending.generation != self.generation {
            return false;
        }
        self.llm.apply(&mut reports);
        (self.current, self.reports, self.linked) = (pending.current, reports, pending.linked);
        self.stale = false;
        self.recheck_declarations();
        true
    }

    /// What a Verify could not build a job for is asked again of the current text: a
    /// declaration added since (the quick fix's, say) clears its warnings, and the ones
    /// left move with the text. Only building the job, no GPU.
    fn recheck_declarations(&mut self) {
        if self.spec_errors.is_empty() {
            return;
        }
        let ((bp, bt, bk), (cp, ct, ck)) = self.sides();
        let names: Vec<String> = self.spec_errors.keys().cloned().collect();
        for name in names {
            if !ck.iter().any(|k| k.name == name) {
                self.spec_errors.remove(&name);
                continue;
            }
            match crate::cli::verify::build_job(&name, (&bp, &bt, &bk), (&cp, &ct, &ck)) {
                Ok(_) => {
                    self.spec_errors.remove(&name);
                }
                Err(errors) => {
                    self.spec_errors.insert(name, errors);
                }
            }
        }
    }

    /// Makes the current version the baseline (of one kernel, or all).
    pub fn set_baseline(&mut self, kernel: Option<&str>) -> Result<usize, String> {
        match kernel {
            None => {
                self.changed();
                self.baseline = Baseline {
                    kernels: Arc::new(self.current.iter().map(|(k, _)| k.clone()).collect()),
                    label: "the baseline you set".to_string(),
                    text: self.src.text(),
                };
                Ok(self.current.len())
            }
            Some(name) => {
                let Some((k, _)) = self.current.iter().find(|(k, _)| k.name == name) else {
                    return Err(format!("no kernel named `{name}` in this document"));
                };
                let k = k.clone();
                self.changed();
                let kernels = Arc::make_mut(&mut self.baseline.kernels);
                kernels.retain(|b| b.name != name);
                kernels.push(k);
                self.baseline.label = "the baseline you set".to_string();
                self.baseline.text = self.src.text();
                Ok(1)
            }
        }
    }

    /// The measurement of a kernel, if it measured the pair that is current now.
    pub fn verified(&self, report: &KernelReport) -> Option<&Measurement> {
        match self.verifications.get(&report.name)? {
            Verification::Done(v) if Some(v.pair) == report.pair => Some(&v.measurement),
            _ => None,
        }
    }

    /// A verification of the current pair is running.
    pub fn verifying(&self, report: &KernelReport) -> bool {
        matches!(self.verifications.get(&report.name), Some(Verification::Running { pair }) if Some(*pair) == report.pair)
    }

    /// The (path, text, kernels) of the baseline and of the current version.
    pub fn sides(&self) -> (Side, Side) {
        let path = self.path.clone().unwrap_or_else(|| {
            PathBuf::from(match self.language {
                Language::Cuda => "kernels.cu",
                Language::Triton => "kernels.py",
            })
        });
        let current: Vec<Kernel> = self.current.iter().map(|(k, _)| k.clone()).collect();
        ((path.clone(), self.baseline.text.clone(), self.baseline.kernels.to_vec()), (path, self.src.text(), current))
    }
}
