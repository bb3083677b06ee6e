//! A `kforecast worker` child process, supervised: each job has a time limit; a hang
//! kills the child (its whole process group, Triton runner included) and a crash or a
//! GPU fault restarts it for the next job.

use super::{Health, Request};
use kforecast_core::measure::protocol::{MeasureRequest, Measurement, Status};
use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::Duration;

struct Proc {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

pub struct LocalWorker {
    exe: PathBuf,
    proc: Option<Proc>,
    /// How many times the child had to be restarted.
    pub restarts: u32,
}

enum CallError {
    Timeout,
    Died(String),
    Spawn(String),
}

impl LocalWorker {
    /// A worker running this same executable.
    pub fn new() -> Self {
        let exe = std::env::current_exe().unwrap_or_else(|_| PathBuf::from("kforecast"));
        Self { exe, proc: None, restarts: 0 }
    }

    fn spawn(&mut self) -> Result<&mut Proc, String> {
        if let Some(p) = &mut self.proc {
            if !matches!(p.child.try_wait(), Ok(None)) {
                self.proc = None;
                self.restarts += 1;
            }
        }
        if self.proc.is_none() {
            let mut cmd = Command::new(&self.exe);
            cmd.arg("worker").stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::inherit());
            if let Some(path) = library_path() {
                cmd.env("LD_LIBRARY_PATH", path);
            }
            #[cfg(unix)]
            {
                use std::os::unix::process::CommandExt;
                cmd.process_group(0);
            }
            let mut child = cmd.spawn().map_err(|e| format!("cannot start `{} worker`: {e}", self.exe.display()))?;
            let stdin = child.stdin.take().ok_or("the worker has no stdin")?;
            let stdout = child.stdout.take().ok_or("the worker has no stdout")?;
            let (tx, rx) = mpsc::channel();
            std::thread::spawn(move || {
                for line in BufReader::new(stdout).lines() {
                    let Ok(line) = line else { break };
                    if tx.send(line).is_err() {
                        break;
                    }
                }
            });
            self.proc = Some(Proc { child, stdin, lines: rx });
        }
        self.proc.as_mut().ok_or_else(|| "no worker".to_string())
    }

    /// Kills the child and everything it started.
    fn kill(&mut self) {
        if let Some(mut p) = self.proc.take() {
            #[cfg(unix)]
            unsafe {
                libc::killpg(p.child.id() as libc::pid_t, libc::SIGKILL);
            }
            let _ = p.child.kill();
            let _ = p.child.wait();
            self.restarts += 1;
        }
    }

    fn call(&mut self, request: &Request, timeout: Duration) -> Result<String, CallError> {
        let line = serde_json::to_string(request).map_err(|e| CallError::Spawn(e.to_string()))?;
        let p = self.spawn().map_err(CallError::Spawn)?;
        if writeln!(p.stdin, "{line}").and_then(|_| p.stdin.flush()).is_err() {
            let status = p.child.wait().map(|s| s.to_string()).unwrap_or_default();
            self.proc = None;
            self.restarts += 1;
            return Err(CallError::Died(status));
        }
        match p.lines.recv_timeout(timeout) {
            Ok(reply) => Ok(reply),
            Err(RecvTimeoutError::Timeout) => {
                self.kill();
                Err(CallError::Timeout)
            }
            Err(RecvTimeoutError::Disconnected) => {
                let status = p.child.wait().map(|s| s.to_string()).unwrap_or_default();
                self.proc = None;
                self.restarts += 1;
                Err(CallError::Died(status))
            }
        }
    }

    /// Runs one job with a time limit. Never fails: problems come back as a status.
    pub fn measure(&mut self, req: &MeasureRequest, timeout: Duration) -> Measurement {
        match self.call(&Request::Measure(Box::new(req.clone())), timeout) {
            Ok(line) => serde_json::from_str(&line)
                .unwrap_or_else(|e| Measurement::failure(Status::Error, format!("the worker answered garbage: {e}"))),
            Err(CallError::Timeout) => Measurement::failure(
                Status::Timeout,
                format!(
                    "the job ran longer than {:.0} s; the worker was killed and will be restarted",
                    timeout.as_secs_f64()
                ),
            ),
            Err(CallError::Died(status)) => Measurement::failure(
                Status::Error,
                format!("the worker process died mid-job ({status}); it will be restarted"),
            ),
            Err(CallError::Spawn(e)) => Measurement::failure(Status::Error, e),
        }
    }

    pub fn health(&mut self, timeout: Duration) -> Health {
        let fail = |m: String| Health {
            ok: false,
            version: env!("CARGO_PKG_VERSION").into(),
            message: m,
            ..Health::default()
        };
        match self.call(&Request::Health, timeout) {
            Ok(line) => serde_json::from_str(&line).unwrap_or_else(|e| fail(format!("bad health answer: {e}"))),
            Err(CallError::Timeout) => fail("the worker did not answer in time".into()),
            Err(CallError::Died(s)) => fail(format!("the worker died ({s})")),
            Err(CallError::Spawn(e)) => fail(e),
        }
    }
}

/// `LD_LIBRARY_PATH` with the CUDA toolkit's lib64 added, so NVRTC is found where the
/// toolkit is installed but not registered with the loader.
fn library_path() -> Option<String> {
    let current = std::env::var("LD_LIBRARY_PATH").unwrap_or_default();
    let mut dirs: Vec<String> = Vec::new();
    for home in [std::env::var("CUDA_HOME").ok(), std::env::var("CUDA_PATH").ok(), Some("/usr/local/cuda".to_string())]
        .into_iter()
        .flatten()
    {
        let lib = format!("{home}/lib64");
        if std::path::Path::new(&lib).is_dir() && !current.split(':').any(|d| d == lib) && !dirs.contains(&lib) {
            dirs.push(lib);
        }
    }
    if dirs.is_empty() {
        return None;
    }
    if !current.is_empty() {
        dirs.push(current);
    }
    Some(dirs.join(":"))
}

impl Default for LocalWorker {
    fn default() -> Self {
        Self::new()
    }
}

impl Drop for LocalWorker {
    fn drop(&mut self) {
        if let Some(mut p) = self.proc.take() {
            // Closing stdin ends the worker's loop; kill it if it does not go.
            drop(p.stdin);
            for _ in 0..50 {
                if !matches!(p.child.try_wait(), Ok(None)) {
                    return;
                }
                std::thread::sleep(Duration::from_millis(10));
            }
            let _ = p.child.kill();
            let _ = p.child.wait();
        }
    }
}

/// On Linux, a child started through `cmd` is killed when the thread that started it
/// ends (the kernel ties the signal to the thread): use it only from a thread that lives
/// as long as the process, such as the worker's main loop.
pub fn die_with_parent(cmd: &mut Command) {
    #[cfg(target_os = "linux")]
    {
        use std::os::unix::process::CommandExt;
        // Safety: prctl is async-signal-safe; nothing else runs between fork and exec.
        unsafe {
            cmd.pre_exec(|| {
                libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
                Ok(())
            });
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = cmd;
}
