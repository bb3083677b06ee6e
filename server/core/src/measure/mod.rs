//! Measuring kernels on a GPU: the job format, the declarations that describe how to
//! run a kernel, timing statistics, and the CUDA engine (cudarc, loaded at run time).

pub mod cuda;
pub mod inputs;
pub mod nvcc;
pub mod protocol;
pub mod spec;
pub mod stats;
pub mod template;

pub use protocol::{Job, MeasureRequest, Measurement, Protocol, Status};
