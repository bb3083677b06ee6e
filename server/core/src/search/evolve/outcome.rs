//! What a search reports: its progress, each measured step, the best variant and why it
//! stopped.

use super::SearchConfig;
use crate::measure::protocol::Status;
use serde::{Deserialize, Serialize};

/// Where a search stands, for progress reports.
#[derive(Clone, Debug, PartialEq)]
pub struct Progress {
    pub runs: u32,
    pub budget: u32,
    pub considered: u32,
    /// Best measured speedup so far (1.0: the original).
    pub best: f64,
    pub message: String,
}

/// One measured variant.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Step {
    /// Which GPU run (1-based); `None` when the store answered.
    pub run: Option<u32>,
    pub generation: u32,
    pub description: String,
    /// Forecast speedup (with the surrogate), and after the in-search correction.
    pub forecast: Option<f64>,
    pub predicted: Option<f64>,
    pub status: Status,
    pub speedup: Option<f64>,
    pub headline: String,
    /// Children screened so far (with the surrogate) or measured so far (without).
    pub considered: u32,
    /// Best measured speedup after this step.
    pub best: f64,
}

/// The best correct, measured variant.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Best {
    pub text: String,
    pub description: String,
    pub speedup: f64,
    pub ci_low: Option<f64>,
    pub ci_high: Option<f64>,
    /// `H100`.
    pub device: Option<String>,
    pub headline: String,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Stop {
    /// The GPU budget is spent.
    Budget,
    Cancelled,
    /// Nothing new was left to try (or everything left was confidently slower).
    Exhausted,
    /// No GPU could measure (see [`Outcome::note`]).
    Unavailable,
    /// The original itself does not compile or run (see [`Outcome::note`]): nothing can
    /// be compared with it.
    BaseFailed,
}

impl Stop {
    /// `budget spent`, `cancelled`, …
    pub fn reason(self) -> &'static str {
        match self {
            Stop::Budget => "budget spent",
            Stop::Cancelled => "cancelled",
            Stop::Exhausted => "nothing new left to try",
            Stop::Unavailable => "no GPU could measure",
            Stop::BaseFailed => "the original does not build or run",
        }
    }
}

/// What a search found.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Outcome {
    pub kernel: String,
    pub config: SearchConfig,
    pub forecaster: String,
    pub knobs: Vec<String>,
    pub steps: Vec<Step>,
    pub runs: u32,
    pub cache_hits: u32,
    /// Children screened by the forecaster (with the surrogate) or measured (without).
    pub considered: u32,
    /// Children discarded before any GPU run: unparsable, outside the limits.
    pub invalid: u32,
    /// Children the forecaster confidently rejected.
    pub rejected: u32,
    pub best: Option<Best>,
    pub stop: Stop,
    /// Why no GPU could measure, or why the original failed, when that stopped the search.
    #[serde(default)]
    pub note: String,
}

impl Outcome {
    /// Candidates considered per GPU run.
    pub fn considered_per_run(&self) -> f64 {
        self.considered as f64 / self.runs.max(1) as f64
    }

    /// Best measured speedup (1.0 when nothing beat the original).
    pub fn best_speedup(&self) -> f64 {
        self.best.as_ref().map(|b| b.speedup).unwrap_or(1.0)
    }
}
