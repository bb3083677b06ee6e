//! `kforecast worker`: jobs as JSON lines on stdin, results as JSON lines on stdout.

use super::{triton::TritonRunner, Health, Request};
use kforecast_core::measure::cuda::CudaEngine;
use kforecast_core::measure::protocol::{Job, Measurement, Status};
use std::io::{BufRead, Write};
use std::process::ExitCode;

/// Exit status after a GPU fault: the supervisor restarts the worker.
pub const EXIT_FAULTED: u8 = 3;

pub fn run() -> anyhow::Result<ExitCode> {
    exit_with_parent();
    let stdin = std::io::stdin();
    let mut stdout = std::io::stdout().lock();
    let mut engine: Option<Result<CudaEngine, Box<Measurement>>> = None;
    let mut triton = TritonRunner::default();
    for line in stdin.lock().lines() {
        let line = line?;
        if line.trim().is_empty() {
            continue;
        }
        let (reply, faulted) = match serde_json::from_str::<Request>(&line) {
            Err(e) => {
                (serde_json::to_string(&Measurement::failure(Status::Error, format!("bad request: {e}")))?, false)
            }
            Ok(Request::Health) => {
                let engine = engine.get_or_insert_with(CudaEngine::open);
                let health = match engine {
                    Ok(e) => Health {
                        ok: true,
                        version: env!("CARGO_PKG_VERSION").into(),
                        device: Some(e.info().clone()),
                        message: String::new(),
                        python: triton.python_version(),
                        slots: None,
                    },
                    Err(m) => Health {
                        ok: false,
                        version: env!("CARGO_PKG_VERSION").into(),
                        device: None,
                        message: m.message.clone(),
                        python: triton.python_version(),
                        slots: None,
                    },
                };
                (serde_json::to_string(&health)?, false)
            }
            Ok(Request::Measure(req)) if super::refusal(&req).is_some() => {
                let why = super::refusal(&req).unwrap_or_default();
                (serde_json::to_string(&Measurement::failure(Status::Error, why))?, false)
            }
            Ok(Request::Measure(req)) => {
                let m = match &req.job {
                    Job::Cuda(job) => match engine.get_or_insert_with(CudaEngine::open) {
                        Ok(e) => e.measure(job, &req.protocol),
                        Err(m) => (**m).clone(),
                    },
                    Job::Triton(job) => triton.measure(job, &req.protocol),
                };
                let faulted = matches!(&engine, Some(Ok(e)) if e.poisoned()) || m.status == Status::Fault;
                (serde_json::to_string(&m)?, faulted)
            }
        };
        writeln!(stdout, "{reply}")?;
        stdout.flush()?;
        if faulted {
            return Ok(ExitCode::from(EXIT_FAULTED));
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// A worker whose supervisor is gone exits at once (even in the middle of a job), so
/// nothing keeps running on the GPU for nobody.
fn exit_with_parent() {
    #[cfg(unix)]
    {
        let parent = unsafe { libc::getppid() };
        let _ = std::thread::Builder::new().name("parent-watch".into()).spawn(move || loop {
            std::thread::sleep(std::time::Duration::from_millis(250));
            if unsafe { libc::getppid() } != parent {
                std::process::exit(0);
            }
        });
    }
}
