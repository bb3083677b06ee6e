//! Compares the kernels of a file with their baseline versions.

use crate::cache::ForecastCache;
use crate::extract::Extraction;
use crate::forecast::{Forecast, Forecaster, PairingDoubt};
use crate::hash::ContentHash;
use crate::kernel::{Kernel, TextRange};
use crate::pairing::{pair_refs, Match};
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// How a kernel compares with its baseline.
#[derive(Clone, Debug, PartialEq)]
pub enum Status {
    /// Byte-for-byte the baseline.
    Unchanged,
    /// No kernel of this name in the baseline.
    New,
    /// Changed: the forecast of S = t_base / t_new.
    Changed(Forecast),
}

/// One kernel of the current version, with its comparison.
#[derive(Clone, Debug, PartialEq)]
pub struct KernelReport {
    pub name: String,
    pub range: TextRange,
    pub name_range: TextRange,
    pub signature_end: usize,
    pub status: Status,
    /// The kernel does not parse right now; this is the forecast of its last good version.
    pub stale: bool,
    /// Identities of (baseline, current), when the baseline has this kernel.
    pub pair: Option<(ContentHash, ContentHash)>,
    /// The baseline kernel it was compared with, and how the two were matched (by name,
    /// or by role when the kernel was renamed).
    pub matched: Option<(String, Match)>,
}

impl KernelReport {
    pub fn forecast(&self) -> Option<&Forecast> {
        match &self.status {
            Status::Changed(f) => Some(f),
            _ => None,
        }
    }
}

/// Forecasts kernels against baselines through a cache.
#[derive(Clone)]
pub struct Analyzer {
    forecaster: Arc<dyn Forecaster>,
    cache: Arc<ForecastCache>,
    device: String,
}

impl Analyzer {
    pub fn new(forecaster: Arc<dyn Forecaster>, cache: Arc<ForecastCache>, device: impl Into<String>) -> Self {
        Self { forecaster, cache, device: device.into() }
    }

    pub fn forecaster(&self) -> &dyn Forecaster {
        self.forecaster.as_ref()
    }

    /// Replaces the forecaster (a new calibration, say); forecasts are cached under the
    /// forecaster's id, so the old ones simply stop being asked for.
    pub fn set_forecaster(&mut self, forecaster: Arc<dyn Forecaster>) {
        self.forecaster = forecaster;
    }

    /// The forecaster, to share with work that outlives a borrow (a search).
    pub fn forecaster_arc(&self) -> Arc<dyn Forecaster> {
        self.forecaster.clone()
    }

    pub fn cache(&self) -> &ForecastCache {
        &self.cache
    }

    pub fn cache_arc(&self) -> Arc<ForecastCache> {
        self.cache.clone()
    }

    pub fn device(&self) -> &str {
        &self.device
    }

    pub fn set_device(&mut self, device: impl Into<String>) {
        self.device = device.into();
    }

    /// Forecast of one pair.
    pub fn forecast(&self, base: &Kernel, candidate: &Kernel) -> Forecast {
        self.cache.forecast(self.forecaster.as_ref(), &self.device, base, candidate)
    }

    /// Compares each current kernel with its baseline kernel: the one of the same name, or
    /// the one it takes the place of (see [`crate::pairing`]), forecast less surely.
    pub fn compare(&self, current: &[(Kernel, bool)], baseline: &[Kernel]) -> Vec<KernelReport> {
        self.compare_unless(current, baseline, &|| false).unwrap_or_default()
    }

    /// [`Self::compare`], given up (`None`) once `cancelled` says so: it is asked before
    /// each changed kernel's forecast (an editor's later edit makes this text's analysis
    /// useless; the forecasts made so far stay in the cache for the next one). Many
    /// kernels (an edit storm over a large file) are forecast on several threads.
    pub fn compare_unless(
        &self,
        current: &[(Kernel, bool)],
        baseline: &[Kernel],
        cancelled: &(dyn Fn() -> bool + Sync),
    ) -> Option<Vec<KernelReport>> {
        let kernels: Vec<&Kernel> = current.iter().map(|(k, _)| k).collect();
        let bases: Vec<&Kernel> = baseline.iter().collect();
        let pairing = pair_refs(&bases, &kernels);
        let doubt = PairingDoubt::shipped();
        let given_up = AtomicBool::new(false);
        let report = |i: usize| {
            let (kernel, stale) = &current[i];
            let matched = pairing.of_candidate(i).map(|p| (&baseline[p.base], p.how.clone()));
            let base = matched.as_ref().map(|(b, _)| *b);
            let status = match &matched {
                None => Status::New,
                Some((base, _)) if base.raw_hash == kernel.raw_hash && base.identity == kernel.identity => {
                    Status::Unchanged
                }
                Some(_) if given_up.load(Ordering::Relaxed) || cancelled() => {
                    given_up.store(true, Ordering::Relaxed);
                    return None;
                }
                Some((base, how)) if how.guessed() => {
                    let note = format!("compared with `{}`: {}", base.name, how.describe());
                    Status::Changed(self.forecast(base, kernel).widened(doubt.for_match(how), Some(note)))
                }
                Some((base, _)) => Status::Changed(self.forecast(base, kernel)),
            };
            Some(KernelReport {
                name: kernel.name.clone(),
                range: kernel.range,
                name_range: kernel.name_range,
                signature_end: kernel.signature_end,
                status,
                stale: *stale,
                pair: base.map(|b| (b.identity, kernel.identity)),
                matched: matched.map(|(b, how)| (b.name.clone(), how)),
            })
        };
        // Most comparisons (one kernel edited, the others cached or unchanged) are done
        // here in a millisecond; what is left after SEQUENTIAL goes to several threads.
        let start = std::time::Instant::now();
        let mut out: Vec<Option<KernelReport>> = Vec::with_capacity(current.len());
        while out.len() < current.len() && start.elapsed() < SEQUENTIAL {
            out.push(Some(report(out.len())?));
        }
        let done = out.len();
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get()).min(MAX_THREADS);
        if threads <= 1 || current.len() - done < PARALLEL_FROM {
            for i in done..current.len() {
                out.push(Some(report(i)?));
            }
            return out.into_iter().collect();
        }
        out.resize(current.len(), None);
        // Interleaved shares: the kernels an edit changed tend to sit together.
        let share = |t: usize| (done + t..current.len()).step_by(threads).map(|i| report(i).map(|r| (i, r))).collect();
        std::thread::scope(|s| {
            let others: Vec<_> = (1..threads).map(|t| s.spawn(move || share(t))).collect();
            let mine: Option<Vec<_>> = share(0);
            // A share whose thread failed is done again below, on this thread.
            let theirs = others.into_iter().filter_map(|h| h.join().ok());
            for (i, r) in std::iter::once(mine).chain(theirs).flatten().flatten() {
                out[i] = Some(r);
            }
        });
        if given_up.load(Ordering::Relaxed) {
            return None;
        }
        out.into_iter().enumerate().map(|(i, r)| r.or_else(|| report(i))).collect()
    }
}

/// How long a comparison runs on one thread before the rest is shared out.
const SEQUENTIAL: std::time::Duration = std::time::Duration::from_millis(3);
/// From this many kernels left on, a comparison uses several threads.
const PARALLEL_FROM: usize = 8;
/// At most this many threads forecast one document.
const MAX_THREADS: usize = 4;

/// Keeps each kernel's last version that parsed, so that half-typed code shows the
/// last good forecast instead of noise.
#[derive(Default)]
pub struct LastGood {
    kernels: HashMap<String, Kernel>,
}

impl LastGood {
    /// The kernels to forecast for this extraction (taken, not copied), each flagged
    /// `true` if it is a last-good stand-in for a kernel that does not parse now.
    pub fn resolve(&mut self, extraction: Extraction) -> Vec<(Kernel, bool)> {
        // A text not all read (or with errors) cannot say which kernels are gone.
        let whole = extraction.syntax_errors.is_empty() && extraction.unread == 0;
        let names: std::collections::HashSet<String> =
            if whole { extraction.kernels.iter().map(|k| k.name.clone()).collect() } else { Default::default() };
        let mut out = Vec::with_capacity(extraction.kernels.len());
        for kernel in extraction.kernels {
            if kernel.has_errors {
                if let Some(good) = self.kernels.get(&kernel.name) {
                    let mut stand_in = good.clone();
                    stand_in.range = kernel.range;
                    stand_in.name_range = kernel.name_range;
                    stand_in.signature_end = kernel.signature_end;
                    out.push((stand_in, true));
                    continue;
                }
            } else if self
                .kernels
                .get(&kernel.name)
                .is_none_or(|k| k.raw_hash != kernel.raw_hash || k.identity != kernel.identity)
            {
                // Only a new version is stored: a stand-in takes its ranges from the current parse.
                self.kernels.insert(kernel.name.clone(), kernel.clone());
            }
            let errors = kernel.has_errors;
            out.push((kernel, errors));
        }
        if whole {
            // The file parses: forget kernels that are gone.
            self.kernels.retain(|name, _| names.contains(name.as_str()));
        }
        out
    }
}
