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

use kforecast_core::measure::protocol::{DeviceInfo, Job, MeasureRequest};
use serde::{Deserialize, Serialize};
use std::path::{Component, Path};

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

/// A job's file name must name a file inside the job's own folder: one plain name, no
/// folder, no `..`, nothing absolute.
pub fn plain_file_name(name: &str) -> Result<(), String> {
    let why = if name.is_empty() {
        Some("is empty")
    } else if name.len() > 255 {
        Some("is longer than 255 bytes")
    } else if name.contains(['/', '\\', ':']) || name.chars().any(char::is_control) {
        Some("must be a plain file name, without a folder")
    } else if !matches!(Path::new(name).components().collect::<Vec<_>>()[..], [Component::Normal(_)]) {
        Some("must be a plain file name")
    } else {
        None
    };
    match why {
        Some(why) => Err(format!("the file name {name:?} {why}")),
        None => Ok(()),
    }
}

/// Why a job cannot be run as sent (checked before anything is written, allocated or run):
/// a file name that is not a plain name, buffers too large to make.
pub fn refusal(req: &MeasureRequest) -> Option<String> {
    let names = match &req.job {
        Job::Triton(job) => [("base", &job.base.file_name), ("candidate", &job.candidate.file_name)]
            .into_iter()
            .find_map(|(role, name)| plain_file_name(name).err().map(|e| format!("refused the {role} version: {e}"))),
        Job::Cuda(_) => None,
    };
    names.or_else(|| req.job.size_refusal())
}

#[cfg(test)]
mod tests {
    use super::plain_file_name;

    #[test]
    fn only_plain_file_names_are_accepted() {
        for ok in ["kernels.py", "a b.py", "x", ".hidden.py", "é.py"] {
            assert!(plain_file_name(ok).is_ok(), "{ok}");
        }
        for bad in ["", ".", "..", "/etc/passwd", "../../x.py", "a/b.py", "a\\b.py", "C:x.py", "x\0.py", "a\n.py"] {
            assert!(plain_file_name(bad).is_err(), "{bad:?}");
        }
        assert!(plain_file_name(&"a".repeat(256)).is_err());
    }
}
