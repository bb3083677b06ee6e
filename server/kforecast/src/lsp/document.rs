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
use std::ops::Range;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tower_lsp::lsp_types::{TextDocumentContentChangeEvent, Url};

/// The previous version kernels are compared with.
pub struct Baseline {
    /// Shared with analyses running off the lock.
    pub kernels: Arc<Vec<Kernel>>,
    /// Shown to the user: `HEAD`, `the version when opened`, `the baseline you set`.
    pub label: String,
    /// The whole file as it was (a Triton measurement runs the baseline's wrapper);
    /// shared with the opened text when it is that.
    pub text: Arc<str>,
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

/// How long one step of reading a text not read yet runs (see [`Document::read_more`]).
const READ_STEP: Duration = Duration::from_millis(100);

/// What is read around the focus before anything else, each side.
const FOCUS_MARGIN: usize = 32 * 1024;

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
    /// The text as of opening (the `open` baseline).
    opened_text: Arc<str>,
    /// The baseline's text while it is read (its kernels are those read so far).
    baseline_src: Option<SourceText>,
    /// The bytes the user looks at or edits: read first.
    focus: Range<usize>,
    /// Parts of the text or of the baseline are not read yet: the kernels and reports
    /// are those of what is read, and each analysis reads more.
    reading: bool,
    /// A task reads the rest (see `Backend::read_on`).
    pub reader: bool,
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
        let src = extract::source_for(language, if disabled.is_some() { "" } else { text });
        let mut doc = Self {
            version,
            language,
            src,
            extractor: Extractor::new(language),
            last_good: LastGood::default(),
            opened_text: if max_size >= text.len() { text.into() } else { Arc::default() },
            baseline_src: None,
            focus: 0..0,
            reading: false,
            reader: false,
            verifications: HashMap::new(),
            spec_errors: HashMap::new(),
            baseline: Baseline { kernels: Arc::default(), label: String::new(), text: Arc::default() },
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
                        self.read_baseline(text.into(), "HEAD");
                        return;
                    }
                    Err(e) => tracing::debug!("no git baseline for {}: {e}", path.display()),
                }
            }
        }
        self.read_baseline(self.opened_text.clone(), "the version when opened");
    }

    /// Makes `text` the baseline; its kernels are read along with the document's.
    fn read_baseline(&mut self, text: Arc<str>, label: &str) {
        let src = if self.disabled.is_some() { None } else { Some(extract::source_for(self.language, &text)) };
        (self.baseline_src, self.reading) = (src, self.disabled.is_none());
        self.baseline = Baseline { kernels: Arc::default(), label: label.to_string(), text };
    }

    /// The user looks at the bytes `range`: while the text is not all read, the next
    /// analysis reads them (if they are not yet) and forecasts what is read by then.
    pub fn look_at(&mut self, range: Range<usize>) {
        self.focus = range;
        if self.reading {
            self.stale = true;
        }
    }

    /// Parts of the text or of the baseline are still to be read.
    pub fn reading(&self) -> bool {
        self.reading
    }

    /// Reads on for a step (the text, then the baseline), without analysing; false once
    /// all is read (then the next analysis takes all of it).
    pub fn read_more(&mut self) -> bool {
        if !self.reading {
            return false;
        }
        let deadline = Some(Instant::now() + READ_STEP);
        let mut unread = self.extractor.read(&self.src, self.focus.clone(), deadline);
        if let Some(base) = &self.baseline_src {
            unread += self.extractor.read(base, self.focus.clone(), deadline);
        }
        if unread == 0 {
            self.stale = true;
        }
        unread > 0
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
                    self.focus = start..start + change.text.len();
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
        if !self.stale && !self.reading {
            return None;
        }
        if self.disabled.is_some() {
            self.stale = false;
            self.reports.clear();
            return None;
        }
        let start = Instant::now();
        self.src.reparse();
        // What the user looks at or edits (the rest is read by `read_more`).
        let focus = self.focus.start.saturating_sub(FOCUS_MARGIN)..self.focus.end.saturating_add(FOCUS_MARGIN);
        let deadline = Some(start);
        let mut unread = self.extractor.read(&self.src, focus.clone(), deadline);
        if let Some(base) = &self.baseline_src {
            unread += self.extractor.read(base, focus, deadline);
            let mut kernels = self.extractor.assemble(base).kernels;
            if unread == 0 {
                self.link(&mut kernels, &self.baseline.text);
                self.extractor.forget(base);
                self.baseline_src = None;
            }
            self.baseline.kernels = Arc::new(kernels);
        }
        let read = start.elapsed();
        let mut extraction = self.extractor.assemble(&self.src);
        let assembled = start.elapsed();
        self.reading = extraction.unread > 0 || self.baseline_src.is_some();
        if extraction.timed_out {
            self.stale = false;
            self.too_complex = Some(format!(
                "kforecast: {} took over {} ms to parse and is not analysed; the forecasts shown are \
                 those of its last version that parsed",
                if self.language == Language::Cuda { "a part of this file" } else { "this file" },
                kforecast_core::source::PARSE_BUDGET.as_millis()
            ));
            return None;
        }
        self.too_complex = None;
        let linked = if self.siblings.is_empty() {
            Vec::new()
        } else {
            let text = self.src.text();
            self.link(&mut extraction.kernels, &text)
        };
        let current = self.last_good.resolve(extraction);
        tracing::debug!(
            "version {} read and extracted in {:?} (read {read:?}, assembled {assembled:?}){}",
            self.version,
            start.elapsed(),
            if self.reading { " (not all read yet)" } else { "" }
        );
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
        // Borrowed, not copied: this runs after every analysis while a warning is shown.
        let path = self.path_or_default();
        let text = self.src.text();
        let current: Vec<Kernel> = self.current.iter().map(|(k, _)| k.clone()).collect();
        let base = (path.as_path(), &*self.baseline.text, self.baseline.kernels.as_slice());
        let cand = (path.as_path(), text.as_str(), current.as_slice());
        // Each kernel's errors now: none once it builds a job or is gone.
        let rechecked: Vec<(String, Option<Vec<SpecError>>)> = self
            .spec_errors
            .keys()
            .map(|name| {
                let present = current.iter().any(|k| &k.name == name);
                let errors = if present { crate::cli::verify::build_job(name, base, cand).err() } else { None };
                (name.clone(), errors)
            })
            .collect();
        for (name, errors) in rechecked {
            match errors {
                Some(errors) => self.spec_errors.insert(name, errors),
                None => self.spec_errors.remove(&name),
            };
        }
    }

    /// Makes the current version the baseline (of one kernel, or all).
    pub fn set_baseline(&mut self, kernel: Option<&str>) -> Result<usize, String> {
        match kernel {
            None => {
                self.changed();
                let kernels = if self.reading {
                    // Not all read yet: the whole text now.
                    self.extractor.read(&self.src, 0..0, None);
                    self.extractor.assemble(&self.src).kernels
                } else {
                    self.current.iter().map(|(k, _)| k.clone()).collect()
                };
                if let Some(base) = self.baseline_src.take() {
                    self.extractor.forget(&base);
                }
                self.baseline = Baseline {
                    kernels: Arc::new(kernels),
                    label: "the baseline you set".to_string(),
                    text: self.src.text().into(),
                };
                Ok(self.current.len())
            }
            Some(name) => {
                let Some((k, _)) = self.current.iter().find(|(k, _)| k.name == name) else {
                    return Err(format!("no kernel named `{name}` in this document"));
                };
                let k = k.clone();
                self.changed();
                if let Some(base) = self.baseline_src.take() {
                    // The rest of the baseline first, so that reading it cannot undo this.
                    self.extractor.read(&base, 0..0, None);
                    let mut kernels = self.extractor.assemble(&base).kernels;
                    self.extractor.forget(&base);
                    self.link(&mut kernels, &self.baseline.text);
                    self.baseline.kernels = Arc::new(kernels);
                }
                let kernels = Arc::make_mut(&mut self.baseline.kernels);
                kernels.retain(|b| b.name != name);
                kernels.push(k);
                self.baseline.label = "the baseline you set".to_string();
                self.baseline.text = self.src.text().into();
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

    /// The file's path, or a name of its language's kind for a file without one.
    fn path_or_default(&self) -> PathBuf {
        self.path.clone().unwrap_or_else(|| {
            PathBuf::from(match self.language {
                Language::Cuda => "kernels.cu",
                Language::Triton => "kernels.py",
            })
        })
    }

    /// The (path, text, kernels) of the baseline and of the current version.
    pub fn sides(&self) -> (Side, Side) {
        let path = self.path_or_default();
        let current: Vec<Kernel> = self.current.iter().map(|(k, _)| k.clone()).collect();
        (
            (path.clone(), self.baseline.text.to_string(), self.baseline.kernels.to_vec()),
            (path, self.src.text(), current),
        )
    }
}
