//! The LLM surrogate in the server. Hints come at once from the embedded forecaster;
//! the LLM's forecast of a changed kernel is fetched in the background and, when it
//! arrives, is ensembled with the embedded forecast (at every analysis, so a refitted
//! embedded forecaster shows through), only while the (baseline, current) pair it was
//! asked about is still current.

use super::document::Document;
use crate::llm::forecaster::combine;
use crate::llm::{LlmConfig, LlmForecaster};
use kforecast_core::analysis::{KernelReport, Status};
use kforecast_core::cache::ForecastCache;
use kforecast_core::forecast::llm_prompt::PairContext;
use kforecast_core::forecast::Forecast;
use kforecast_core::hash::ContentHash;
use std::collections::{HashMap, HashSet};
use std::sync::Arc;

/// Identities of (baseline, current) versions of one kernel.
pub type Pair = (ContentHash, ContentHash);

enum Outcome {
    /// Asked, under the given generation of the surrogate.
    Pending(u64),
    /// The LLM's forecast (or why there is none) and its weight in the ensemble.
    Ready { llm: Result<Forecast, String>, weight: f64 },
}

/// One document's LLM forecasts, by pair.
#[derive(Default)]
pub struct LlmForecasts {
    by_pair: HashMap<Pair, Outcome>,
    /// Counts [`LlmForecasts::clear`]s: an answer asked for before one is dropped.
    generation: u64,
}

/// A pair to ask the LLM about.
pub struct Request {
    pub pair: Pair,
    pub generation: u64,
    pub context: PairContext,
}

impl LlmForecasts {
    /// Ensembles the arrived forecasts with the reports' and forgets pairs that are no
    /// longer current.
    pub fn apply(&mut self, reports: &mut [KernelReport]) {
        if self.by_pair.is_empty() {
            return;
        }
        let current: HashSet<Pair> = reports.iter().filter_map(|r| r.pair).collect();
        self.by_pair.retain(|p, _| current.contains(p));
        for r in reports.iter_mut() {
            if let (Status::Changed(embedded), Some(Outcome::Ready { llm, weight })) =
                (&mut r.status, r.pair.and_then(|p| self.by_pair.get(&p)))
            {
                *embedded = combine(embedded.clone(), llm, *weight);
            }
        }
    }

    /// The LLM has been asked about this pair and has not answered yet.
    pub fn pending(&self, pair: Option<Pair>) -> bool {
        pair.is_some_and(|p| matches!(self.by_pair.get(&p), Some(Outcome::Pending(_))))
    }

    /// Records the answer to `request` and shows it in the reports; `false` (and nothing
    /// kept) if its pair is no longer current or the surrogate changed since it was asked.
    pub fn arrived(
        &mut self,
        request: (Pair, u64),
        llm: Result<Forecast, String>,
        weight: f64,
        reports: &mut [KernelReport],
    ) -> bool {
        let (pair, generation) = request;
        if !matches!(self.by_pair.get(&pair), Some(Outcome::Pending(g)) if *g == generation) {
            return false;
        }
        self.by_pair.insert(pair, Outcome::Ready { llm, weight });
        self.apply(reports);
        true
    }

    /// Forgets everything (the surrogate or its settings changed).
    pub fn clear(&mut self) {
        self.by_pair.clear();
        self.generation += 1;
    }
}

/// The document's changed kernels the LLM has not been asked about, marked as asked.
/// Kernels the embedded forecaster knows to be unchanged (`identical`) are not sent.
pub fn requests(doc: &mut Document, device: &str) -> Vec<Request> {
    let mut text = None;
    let current = doc.current.iter().map(|(k, _)| k);
    let out: Vec<Request> = crate::llm::changed(&doc.reports, &doc.baseline.kernels, current)
        .filter(|c| !c.embedded.identical && !doc.llm.by_pair.contains_key(&c.pair))
        .map(|c| {
            let text = text.get_or_insert_with(|| doc.src.text());
            let context = PairContext::new(c.base, &doc.baseline.text, c.current, text, device);
            Request { pair: c.pair, generation: doc.llm.generation, context }
        })
        .collect();
    for r in &out {
        doc.llm.by_pair.insert(r.pair, Outcome::Pending(r.generation));
    }
    out
}

/// The surrogate for the settings (`None` when off), or a message naming the setting.
pub fn build(config: &LlmConfig, cache: Arc<ForecastCache>) -> Result<Option<Arc<LlmForecaster>>, String> {
    if !config.enabled() {
        return Ok(None);
    }
    LlmForecaster::new(config, cache).map(|l| Some(Arc::new(l))).map_err(|e| format!("setting `kforecast.llm`: {e}"))
}
