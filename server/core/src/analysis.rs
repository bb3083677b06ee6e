//! Compares the kernels of a file with their baseline versions.

use crate::cache::ForecastCache;
use crate::extract::Extraction;
use crate::forecast::{Forecast, Forecaster};
use crate::hash::ContentHash;
use crate::kernel::{Kernel, TextRange};
use std::collections::HashMap;
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

    /// Compares each current kernel with the baseline kernel of the same name.
    pub fn compare(&self, current: &[(Kernel, bool)], baseline: &[Kernel]) -> Vec<KernelReport> {
        let by_name: HashMap<&str, &Kernel> = baseline.iter().map(|k| (k.name.as_str(), k)).collect();
        current
            .iter()
            .map(|(kernel, stale)| {
                let base = by_name.get(kernel.name.as_str());
                let status = match base {
                    None => Status::New,
                    Some(base) if base.raw_hash == kernel.raw_hash && base.identity == kernel.identity => {
                        Status::Unchanged
                    }
                    Some(base) => Status::Changed(self.forecast(base, kernel)),
                };
                KernelReport {
                    name: kernel.name.clone(),
                    range: kernel.range,
                    name_range: kernel.name_range,
                    signature_end: kernel.signature_end,
                    status,
                    stale: *stale,
                    pair: base.map(|b| (b.identity, kernel.identity)),
                }
            })
            .collect()
    }
}

/// Keeps each kernel's last version that parsed, so that half-typed code shows the
/// last good forecast instead of noise.
#[derive(Default)]
pub struct LastGood {
    kernels: HashMap<String, Kernel>,
}

impl LastGood {
    /// The kernels to forecast for this extraction, each flagged `true` if it is a
    /// last-good stand-in for a kernel that does not parse now.
    pub fn resolve(&mut self, extraction: &Extraction) -> Vec<(Kernel, bool)> {
        let mut out = Vec::with_capacity(extraction.kernels.len());
        for kernel in &extraction.kernels {
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
            out.push((kernel.clone(), kernel.has_errors));
        }
        if extraction.syntax_errors.is_empty() {
            // The file parses: forget kernels that are gone.
            let names: std::collections::HashSet<&str> = extraction.kernels.iter().map(|k| k.name.as_str()).collect();
            self.kernels.retain(|name, _| names.contains(name.as_str()));
        }
        out
    }
}
