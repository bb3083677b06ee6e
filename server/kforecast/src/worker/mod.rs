//! Measuring happens in worker processes, never inside the language server.
//!
//! - `kforecast worker` (stdio): reads one JSON [`Request`] per line, answers one JSON
//!   line each; owns the CUDA context and the Triton runner. It exits after a GPU fault
//!   (the context is unusable) and is restarted by whoever supervises it.
//! - [`supervisor`]: runs such a child with a time limit per job; kills and restarts it
//!   on a hang or a crash.
//! - [`http`]: `kforecast worker --listen ADDR`, the same over HTTP with a bearer token.
//! - [`pool`]: the client side: jobs spread over local and remote workers.
//! - [`store`]: the team's shared store of measurements, kept by a worker (`--store`) or
//!   a farm, asked before a job is sent.

pub mod http;
pub mod pool;
pub mod stdio;
pub mod store;
pub mod supervisor;
mod triton;

use kforecast_core::measure::protocol::{DeviceInfo, MeasureRequest};
use serde::{Deserialize, Serialize};

/// A line to a stdio worker.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(rename_all = "lowercase", tag = "op")]
pub enum Request {
    Health,
    Measure(Box<MeasureRequest>),
}

/// What `health` answers.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Health {
    pub ok: bool,
    pub version: String,
    #[serde(default)]
    pub device: Option<DeviceInfo>,
    #[serde(default)]
    pub message: String,
    #[serde(default)]
    pub python: Option<String>,
    /// Jobs it measures at once: 1 for `worker --listen`, the GPU replicas for a farm
    /// (absent: 1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub slots: Option<usize>,
}
