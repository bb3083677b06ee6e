//! Budgeted evolutionary search for faster variants of one kernel, with the forecaster
//! as a surrogate: many variants are screened, few are timed on the GPU.
//!
//! - [`knobs`]: the tunable knobs of a kernel and its launch, and the file text for a
//!   choice of their values.
//! - [`validate`]: whether a variant may go to the GPU at all; `assumptions` is what a
//!   CUDA kernel assumes of its constants (`static_assert`s, exact divisions).
//! - [`evolve`]: the loop, its [`Measurer`] and [`Operator`] seams and its outcome.
//! - [`surrogate`]: the forecaster corrected from the measurements of this search.
//! - [`rewrite`]: the LLM rewrite operator's prompt and the reading of its answer (pure;
//!   the operator itself, with its chat client and cache, is the server's).
//! - [`diff`]: line hunks (the edit to apply) and unified diffs.
//! - [`rng`]: the seeded generator that makes a search reproducible.

mod assumptions;
pub mod diff;
pub mod evolve;
pub mod knobs;
pub mod rewrite;
pub mod surrogate;
pub mod validate;

pub use evolve::{
    Best, KnobMutation, Measured, Measurer, Operator, Outcome, Parent, Progress, Proposal, SearchConfig, Searcher,
    Step, Stop,
};
pub use knobs::KnobSpace;
pub use validate::Original;

use crate::hash::{ContentHash, Hasher};

/// Key of a search's outcome: the file, the kernel, the configuration, the forecaster and
/// where it measures (a different GPU is a different search).
pub fn outcome_key(text: &str, kernel: &str, config: &SearchConfig, forecaster: &str, workers: &str) -> ContentHash {
    Hasher::new()
        .str("search/1")
        .str(text)
        .str(kernel)
        .str(&serde_json::to_string(config).unwrap_or_default())
        .str(forecaster)
        .str(workers)
        .finish()
}
