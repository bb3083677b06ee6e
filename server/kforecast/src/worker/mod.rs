//! Measuring happens in worker processes, never inside the language server.
//!
//! - `kforecast worker` (stdio): reads one JSON [`Request`] per line, answers one JSON
//!   line each; owns the CUDA context and the Triton runner. It exits after a GPU fault
//!   (the context is unusable) and is restarted by whoever supervises it.
//! - [`supervisor`]: runs such a child with a time limit per job; kills and restarts it
//!   on a hang or a crash.
//! - [`http`]: `kforecast worker --listen ADDR`, the same over HTTP with a bearer token.
//! - [`pool`]: the client side: jobs spread over local and remote workers.

pub mod http;
pub mod pool;
pub mod stdio;
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
}
