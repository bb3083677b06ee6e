//! What a measurement job is and what comes back: the wire format between the
//! server, local workers and remote workers (JSON).

use serde::{Deserialize, Serialize};

/// How to time: shared by the CUDA engine and the Triton runner.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Protocol {
    /// Untimed runs of each version before timing.
    pub warmup: u32,
    /// Timed repetitions of each version at least / at most.
    pub min_reps: u32,
    pub max_reps: u32,
    /// Stop once the 95% interval of the speedup is within ± this fraction.
    pub target_rel_ci: f64,
    /// Stop timing after this long, whatever the interval.
    pub max_time_ms: u64,
    /// Flush L2 before every timed run.
    pub flush_l2: bool,
    /// Output check: |cand − base| ≤ atol + rtol·|base| element-wise.
    pub rtol: f64,
    pub atol: f64,
    /// Seed of the deterministic inputs.
    pub seed: u64,
}

impl Default for Protocol {
    fn default() -> Self {
        Self {
            warmup: 3,
            min_reps: 10,
            max_reps: 200,
            target_rel_ci: 0.01,
            max_time_ms: 2000,
            flush_l2: true,
            rtol: 1e-4,
            atol: 1e-5,
            seed: 0,
        }
    }
}

/// Element types of buffers and scalars.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum DType {
    F16,
    Bf16,
    F32,
    F64,
    I8,
    U8,
    I32,
    U32,
    I64,
    U64,
}

impl DType {
    pub fn size(self) -> usize {
        match self {
            DType::I8 | DType::U8 => 1,
            DType::F16 | DType::Bf16 => 2,
            DType::F32 | DType::I32 | DType::U32 => 4,
            DType::F64 | DType::I64 | DType::U64 => 8,
        }
    }

    pub fn is_float(self) -> bool {
        matches!(self, DType::F16 | DType::Bf16 | DType::F32 | DType::F64)
    }

    /// `f32`, `float32`, `float`, `half`, `int`, …
    pub fn parse(s: &str) -> Option<DType> {
        Some(match s.trim() {
            "f16" | "float16" | "half" | "__half" => DType::F16,
            "bf16" | "bfloat16" | "__nv_bfloat16" => DType::Bf16,
            "f32" | "float32" | "float" => DType::F32,
            "f64" | "float64" | "double" => DType::F64,
            "i8" | "int8" | "int8_t" | "char" | "signed char" => DType::I8,
            "u8" | "uint8" | "uint8_t" | "unsigned char" | "bool" => DType::U8,
            "i32" | "int32" | "int" | "int32_t" => DType::I32,
            "u32" | "uint32" | "unsigned" | "unsigned int" | "uint32_t" => DType::U32,
            "i64" | "int64" | "long long" | "int64_t" | "long" | "ptrdiff_t" => DType::I64,
            "u64" | "uint64" | "unsigned long long" | "uint64_t" | "size_t" | "unsigned long" => DType::U64,
            _ => return None,
        })
    }

    /// Name torch and Triton use.
    pub fn torch_name(self) -> &'static str {
        match self {
            DType::F16 => "float16",
            DType::Bf16 => "bfloat16",
            DType::F32 => "float32",
            DType::F64 => "float64",
            DType::I8 => "int8",
            DType::U8 => "uint8",
            DType::I32 => "int32",
            DType::U32 => "int32",
            DType::I64 => "int64",
            DType::U64 => "int64",
        }
    }
}

/// How a buffer starts.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase", tag = "kind")]
pub enum Init {
    /// Normal(0, 1).
    Randn,
    /// Uniform [0, 1).
    Rand,
    Zeros,
    Ones,
    /// i mod 1024.
    Arange,
    /// Uniform integers in [lo, hi).
    Randint {
        lo: i64,
        hi: i64,
    },
}

impl Init {
    pub fn parse(s: &str) -> Option<Init> {
        let s = s.trim();
        Some(match s {
            "randn" => Init::Randn,
            "rand" => Init::Rand,
            "zeros" => Init::Zeros,
            "ones" => Init::Ones,
            "arange" => Init::Arange,
            _ => {
                let inner = s.strip_prefix("randint(")?.strip_suffix(')')?;
                let (lo, hi) = inner.split_once(',')?;
                let (lo, hi) = (lo.trim().parse().ok()?, hi.trim().parse().ok()?);
                if hi <= lo {
                    return None;
                }
                Init::Randint { lo, hi }
            }
        })
    }

    /// Name for the Triton runner.
    pub fn runner_name(&self) -> String {
        match self {
            Init::Randn => "randn".into(),
            Init::Rand => "rand".into(),
            Init::Zeros => "zeros".into(),
            Init::Ones => "ones".into(),
            Init::Arange => "arange".into(),
            Init::Randint { lo, hi } => format!("randint:{lo}:{hi}"),
        }
    }
}

/// One kernel argument of a CUDA job, in parameter order.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase", tag = "kind")]
pub enum Arg {
    Buffer { name: String, dtype: DType, len: u64, init: Init, output: bool },
    Scalar { name: String, dtype: DType, value: f64 },
}

/// One version of a CUDA kernel, ready for NVRTC.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CudaVersion {
    /// A device-only translation unit: the kernel with its helpers and defines.
    pub source: String,
    /// What NVRTC looks up: `&name` or `&name<256>`.
    pub name_expression: String,
    /// This version's launch shape (each version is launched as its own code says).
    pub grid: [u32; 3],
    pub block: [u32; 3],
    pub shared_mem: u32,
    /// The whole file, for nvcc when NVRTC cannot compile `source` (host headers, `uint`,
    /// `assert`, local headers): built for the device's architecture, the kernel's
    /// template instance added.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file: Option<SourceFile>,
}

/// A user's CUDA file as nvcc compiles it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SourceFile {
    /// Its name (compile errors are reported against it, at its own lines).
    pub name: String,
    pub text: String,
    /// Its folder, searched for its local headers (`#include "common.h"`) on a worker that
    /// shares the file system.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub include_dir: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CudaJob {
    pub kernel: String,
    pub base: CudaVersion,
    pub candidate: CudaVersion,
    pub args: Vec<Arg>,
}

/// One version of a Triton file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TritonVersion {
    pub file_name: String,
    pub source: String,
    pub wrapper: String,
}

/// An input of a Triton wrapper.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase", tag = "kind")]
pub enum TritonInput {
    Tensor { name: String, dtype: DType, shape: Vec<u64>, init: Init },
    Scalar { name: String, value: f64 },
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TritonJob {
    pub kernel: String,
    pub base: TritonVersion,
    pub candidate: TritonVersion,
    pub inputs: Vec<TritonInput>,
    /// Names of inputs passed positionally to the wrapper.
    pub args: Vec<String>,
    /// Compare the return value (empty) or these inputs after the call.
    pub outputs: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase", tag = "language")]
pub enum Job {
    Cuda(CudaJob),
    Triton(TritonJob),
}

/// The most one job's buffers may hold together (each version gets its own copy of the
/// outputs, and inputs are made on the host first): 16 GiB, a fifth of an H100.
pub const MAX_JOB_BYTES: u64 = 16 << 30;

impl Job {
    pub fn kernel(&self) -> &str {
        match self {
            Job::Cuda(j) => &j.kernel,
            Job::Triton(j) => &j.kernel,
        }
    }

    /// Why this job's buffers are too large to make (see [`buffers_refusal`]).
    pub fn size_refusal(&self) -> Option<String> {
        match self {
            Job::Cuda(j) => j.size_refusal(),
            Job::Triton(j) => j.size_refusal(),
        }
    }
}

impl CudaJob {
    /// Why this job's buffers are too large to make (see [`buffers_refusal`]).
    pub fn size_refusal(&self) -> Option<String> {
        buffers_refusal(self.args.iter().filter_map(|a| match a {
            Arg::Buffer { name, dtype, len, .. } => Some((name.as_str(), *dtype, Some(*len))),
            Arg::Scalar { .. } => None,
        }))
    }
}

impl TritonJob {
    /// Why this job's tensors are too large to make (see [`buffers_refusal`]).
    pub fn size_refusal(&self) -> Option<String> {
        buffers_refusal(self.inputs.iter().filter_map(|i| match i {
            TritonInput::Tensor { name, dtype, shape, .. } => {
                Some((name.as_str(), *dtype, shape.iter().try_fold(1u64, |n, d| n.checked_mul(*d))))
            }
            TritonInput::Scalar { .. } => None,
        }))
    }
}

/// Why buffers (name, type, elements; `None`: past 2^64) are too large to make: more than
/// [`MAX_JOB_BYTES`] together. Checked before anything is allocated.
pub fn buffers_refusal<'a>(buffers: impl Iterator<Item = (&'a str, DType, Option<u64>)>) -> Option<String> {
    let mut total: u64 = 0;
    for (name, dtype, elements) in buffers {
        let bytes = elements.and_then(|n| n.checked_mul(dtype.size() as u64));
        let Some(sum) = bytes.and_then(|b| total.checked_add(b)) else {
            return Some(format!("refused: buffer `{name}` takes the job's buffers past 2^64 bytes"));
        };
        total = sum;
        if total > MAX_JOB_BYTES {
            return Some(format!(
                "refused: buffer `{name}` has {} elements ({} of {}); a job's buffers may hold at most {} together",
                elements.unwrap_or(u64::MAX),
                gib(bytes.unwrap_or(u64::MAX)),
                dtype.torch_name(),
                gib(MAX_JOB_BYTES)
            ));
        }
    }
    None
}

fn gib(bytes: u64) -> String {
    format!("{:.1} GiB", bytes as f64 / (1u64 << 30) as f64)
}

/// A request to a worker.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MeasureRequest {
    pub job: Job,
    #[serde(default)]
    pub protocol: Protocol,
}

/// The GPU a worker measures on.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct DeviceInfo {
    pub name: String,
    pub compute_capability: String,
    pub memory_bytes: u64,
    pub driver: String,
    #[serde(default)]
    pub sm_count: u32,
}

/// Time statistics of one version, in milliseconds.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct TimeStats {
    pub median_ms: f64,
    pub p10_ms: f64,
    pub p90_ms: f64,
    pub min_ms: f64,
    pub n: u32,
}

/// Result of comparing the candidate's outputs with the base's.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Check {
    pub ok: bool,
    pub max_abs_err: f64,
    pub max_rel_err: f64,
    #[serde(default)]
    pub message: String,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// Both ran, outputs agree, timed.
    Ok,
    /// The candidate's outputs differ from the base's: no speed is reported.
    WrongResult,
    CompileError,
    /// A version faulted (illegal address, trap, launch failure).
    Fault,
    /// The job ran past its time limit and was killed.
    Timeout,
    /// The worker has no usable GPU (or no torch/Triton for Triton jobs).
    NoGpu,
    /// Anything else (bad request, worker failure).
    Error,
}

/// What a worker answers.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Measurement {
    pub status: Status,
    #[serde(default)]
    pub message: String,
    /// Which version a failure belongs to (`base`, `candidate`), if one.
    #[serde(default)]
    pub which: Option<String>,
    #[serde(default)]
    pub device: Option<DeviceInfo>,
    #[serde(default)]
    pub base: Option<TimeStats>,
    #[serde(default)]
    pub candidate: Option<TimeStats>,
    /// S = t_base / t_candidate (median over medians).
    #[serde(default)]
    pub speedup: Option<f64>,
    #[serde(default)]
    pub ci_low: Option<f64>,
    #[serde(default)]
    pub ci_high: Option<f64>,
    /// Half-width of the interval relative to the speedup.
    #[serde(default)]
    pub spread: Option<f64>,
    #[serde(default)]
    pub reps: u32,
    #[serde(default)]
    pub check: Option<Check>,
    #[serde(default)]
    pub compile_ms: f64,
    #[serde(default)]
    pub total_ms: f64,
    /// `events` (our protocol) or `do_bench`.
    #[serde(default)]
    pub harness: String,
    /// Which worker answered.
    #[serde(default)]
    pub worker: String,
}

impl Measurement {
    pub fn failure(status: Status, message: impl Into<String>) -> Self {
        Self {
            status,
            message: message.into(),
            which: None,
            device: None,
            base: None,
            candidate: None,
            speedup: None,
            ci_low: None,
            ci_high: None,
            spread: None,
            reps: 0,
            check: None,
            compile_ms: 0.0,
            total_ms: 0.0,
            harness: String::new(),
            worker: String::new(),
        }
    }

    /// `base 0.2892 ms, candidate 0.0515 ms (medians of 29 interleaved runs); 95% interval
    /// 5.570–5.678`, when both versions were timed.
    pub fn timing(&self) -> Option<String> {
        let (b, c) = (self.base.as_ref()?, self.candidate.as_ref()?);
        Some(format!(
            "base {:.4} ms, candidate {:.4} ms (medians of {} interleaved runs); 95% interval {:.3}–{:.3}",
            b.median_ms,
            c.median_ms,
            self.reps,
            self.ci_low.unwrap_or(f64::NAN),
            self.ci_high.unwrap_or(f64::NAN)
        ))
    }

    /// `measured 1.74× faster ±2% · H100`, or why there is no speed.
    pub fn headline(&self) -> String {
        let device = self.device.as_ref().map(|d| short_device(&d.name)).unwrap_or_default();
        match (self.status, self.speedup) {
            (Status::Ok, Some(s)) => {
                let pm = self.spread.map(|x| format!(" ±{:.0}%", (x * 100.0).max(1.0))).unwrap_or_default();
                let dir =
                    if s >= 1.0 { format!("{s:.2}× faster") } else { format!("{:.2}× slower", 1.0 / s.max(1e-9)) };
                if device.is_empty() {
                    format!("measured {dir}{pm}")
                } else {
                    format!("measured {dir}{pm} · {device}")
                }
            }
            (Status::WrongResult, _) => "measured: WRONG RESULT (outputs differ from the baseline)".to_string(),
            (Status::CompileError, _) => {
                format!("measure failed: {} does not compile", self.which.as_deref().unwrap_or("a version"))
            }
            (Status::Fault, _) => {
                format!("measure failed: {} faulted on the GPU", self.which.as_deref().unwrap_or("a version"))
            }
            (Status::Timeout, _) => "measure failed: time limit exceeded".to_string(),
            (Status::NoGpu, _) => "measure failed: no GPU on the worker".to_string(),
            _ => format!("measure failed: {}", self.message.lines().next().unwrap_or("error")),
        }
    }
}

/// `NVIDIA H100 80GB HBM3` → `H100`.
pub fn short_device(name: &str) -> String {
    name.split_whitespace()
        .find(|w| w.chars().next().is_some_and(|c| c.is_ascii_uppercase()) && w.chars().any(|c| c.is_ascii_digit()))
        .unwrap_or(name)
        .to_string()
}
