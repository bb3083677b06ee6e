//! kforecast-core: everything kforecast knows about kernels, with no LSP in it.
//!
//! - [`source`]: a document's text (a rope) and its incremental tree-sitter parse.
//! - [`extract`]: finds CUDA and Triton kernels, their helpers and launch sites.
//! - [`declaration`]: the `kforecast:` lines above a kernel (sizes, buffers, settings).
//! - [`features`]: turns one kernel version into a cost profile the forecaster reads.
//! - [`forecast`]: the [`forecast::Forecaster`] trait, speedup bins and the embedded model.
//! - [`analysis`]: compares a file's kernels with their baseline versions.
//! - [`baseline`]: where a kernel's previous version comes from (git HEAD).
//! - [`cache`] and [`store`]: content-hash caching in memory and on disk.
//! - [`measure`]: running kernels on a GPU: job format, declarations, the CUDA engine.
//! - [`search`]: budgeted evolutionary search for faster variants, the forecaster screening.

pub mod analysis;
pub mod baseline;
pub mod bins;
pub mod cache;
pub mod declaration;
pub mod eval;
pub mod extract;
pub mod features;
pub mod forecast;
pub mod hash;
pub mod kernel;
pub mod measure;
pub mod pairing;
pub mod rng;
pub mod search;
pub mod source;
pub mod store;

pub use kernel::{Kernel, Language};
