//! Where a kernel's previous version comes from: the file's content at git HEAD.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Why a git baseline is unavailable.
#[derive(Debug, thiserror::Error)]
pub enum BaselineError {
    #[error("{0} is not in a git repository")]
    NotInRepo(String),
    #[error("{path} is not in git revision {rev} (the revision exists, but the file is not in it: not committed yet, or added or moved since)")]
    NotInRevision { path: String, rev: String },
    #[error("git revision {rev} does not exist in the repository of {path} (`git log --oneline` lists the revisions)")]
    NoSuchRevision { path: String, rev: String },
    #[error("git could not be run: {0}")]
    Git(String),
    #[error("git took longer than {0:?}")]
    Timeout(Duration),
}

const GIT_TIMEOUT: Duration = Duration::from_secs(5);

/// The file's content at `rev` (e.g. `HEAD`) of the git repository that holds it.
/// Invalid UTF-8 is replaced, never rejected.
pub fn git_show(path: &Path, rev: &str) -> Result<String, BaselineError> {
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let output = run_git(dir, &["show", &format!("{rev}:./{name}")])?;
    if output.0 {
        return Ok(String::from_utf8_lossy(&output.1).into_owned());
    }
    let stderr = String::from_utf8_lossy(&output.2);
    if stderr.contains("not a git repository") {
        Err(BaselineError::NotInRepo(path.display().to_string()))
    } else if stderr.contains("invalid object name") || stderr.contains("unknown revision") {
        Err(BaselineError::NoSuchRevision { path: path.display().to_string(), rev: rev.to_string() })
    } else if stderr.contains("does not exist") || stderr.contains("exists on disk, but not in") {
        Err(BaselineError::NotInRevision { path: path.display().to_string(), rev: rev.to_string() })
    } else {
        Err(BaselineError::Git(stderr.trim().to_string()))
    }
}

/// Runs git with a time limit: (success, stdout, stderr).
fn run_git(dir: &Path, args: &[&str]) -> Result<(bool, Vec<u8>, Vec<u8>), BaselineError> {
    let mut child = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(args)
        .env("GIT_OPTIONAL_LOCKS", "0")
        .env("GIT_TERMINAL_PROMPT", "0")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| BaselineError::Git(e.to_string()))?;
    let mut stdout = child.stdout.take();
    let mut stderr = child.stderr.take();
    let out_reader = std::thread::spawn(move || {
        let mut buf = Vec::new();
        if let Some(s) = stdout.as_mut() {
            let _ = std::io::Read::read_to_end(s, &mut buf);
        }
        buf
    });
    let err_reader = std::thread::spawn(move || {
        let mut buf = Vec::new();
        if let Some(s) = stderr.as_mut() {
            let _ = std::io::Read::read_to_end(s, &mut buf);
        }
        buf
    });
    let start = Instant::now();
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) if start.elapsed() > GIT_TIMEOUT => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(BaselineError::Timeout(GIT_TIMEOUT));
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(2)),
            Err(e) => return Err(BaselineError::Git(e.to_string())),
        }
    };
    let out = out_reader.join().unwrap_or_default();
    let err = err_reader.join().unwrap_or_default();
    Ok((status.success(), out, err))
}
