//! nvcc, when NVRTC cannot compile a kernel's device-only translation unit (code that
//! needs host headers: `uint`, `assert`, local headers, `<cooperative_groups.h>` helpers):
//! the user's whole file is built to PTX for the device's architecture, with the file's
//! folder on the include path and one line added that instantiates the kernel's template
//! at the launch's arguments. The kernel is then found among the PTX's `.entry` names
//! (demangled with `cu++filt`, which ships beside nvcc) and loaded through the same driver
//! call as NVRTC's output. Errors name the user's file at its own lines.

use super::protocol::SourceFile;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// nvcc gets this long per version (a templated kernel with host code takes seconds).
const NVCC_TIMEOUT: Duration = Duration::from_secs(180);

/// nvcc on this machine: `$CUDA_HOME/bin`, `$CUDA_PATH/bin`, the usual install folders,
/// then `PATH`.
pub fn find() -> Option<PathBuf> {
    let mut dirs: Vec<PathBuf> =
        ["CUDA_HOME", "CUDA_PATH"].iter().filter_map(std::env::var_os).map(|p| PathBuf::from(p).join("bin")).collect();
    dirs.push("/usr/local/cuda/bin".into());
    dirs.push("/opt/cuda/bin".into());
    if let Some(path) = std::env::var_os("PATH") {
        dirs.extend(std::env::split_paths(&path));
    }
    dirs.into_iter().map(|d| d.join("nvcc")).find(|p| p.is_file())
}

/// The kernel's name and template arguments in a name expression: `&k<128, 8>` →
/// (`k`, [`128`, `8`]); `&k` → (`k`, []). Also how a cupy `get_function('k<256>')` name is
/// read.
pub fn name_expression_parts(name_expression: &str) -> (String, Vec<String>) {
    let e = name_expression.trim().trim_start_matches('&').trim();
    match e.split_once('<') {
        Some((name, rest)) => {
            let inner = rest.trim_end().strip_suffix('>').unwrap_or(rest);
            (name.trim().to_string(), split_top(inner).iter().map(|a| normal_arg(a)).collect())
        }
        None => (e.to_string(), Vec::new()),
    }
}

/// Splits at top-level commas.
fn split_top(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut depth = 0i32;
    let mut cur = String::new();
    for c in text.chars() {
        match c {
            '<' | '(' | '[' => depth += 1,
            '>' | ')' | ']' => depth -= 1,
            ',' if depth == 0 => {
                out.push(std::mem::take(&mut cur));
                continue;
            }
            _ => {}
        }
        cur.push(c);
    }
    if !cur.trim().is_empty() {
        out.push(cur);
    }
    out
}

/// A template argument as written or demangled, compared by value: `128u`, `(unsigned
/// int)128`, ` 128` → `128`.
fn normal_arg(a: &str) -> String {
    let mut t: String = a.chars().filter(|c| !c.is_whitespace()).collect();
    if t.starts_with('(') {
        if let Some(close) = t.find(')') {
            let rest = &t[close + 1..];
            if rest.chars().next().is_some_and(|c| c.is_ascii_digit() || c == '-') {
                t = rest.to_string();
            }
        }
    }
    if t.chars().next().is_some_and(|c| c.is_ascii_digit() || c == '-') {
        t = t.trim_end_matches(['u', 'U', 'l', 'L']).to_string();
    }
    t
}

/// A demangled entry (`void k<128u, 8u>(int, float*)`) as (name, template arguments).
fn demangled_parts(d: &str) -> Option<(String, Vec<String>)> {
    // The signature's own parenthesis: the first `(` outside template brackets.
    let mut depth = 0i32;
    let mut open = None;
    for (i, c) in d.char_indices() {
        match c {
            '<' => depth += 1,
            '>' => depth -= 1,
            '(' if depth == 0 => {
                open = Some(i);
                break;
            }
            _ => {}
        }
    }
    let head = d[..open.unwrap_or(d.len())].trim();
    // `void k<128u, 8u>`: the name is the last word before the template's `<`.
    let (name_part, args) = match head.find('<') {
        Some(lt) => {
            let inner = head[lt + 1..].strip_suffix('>').unwrap_or(&head[lt + 1..]);
            (&head[..lt], split_top(inner).iter().map(|a| normal_arg(a)).collect())
        }
        None => (head, Vec::new()),
    };
    let name = name_part.split_whitespace().last().unwrap_or("");
    let name = name.rsplit("::").next().unwrap_or(name).trim().to_string();
    Some((name, args))
}

/// The `.entry` names of a PTX module.
fn entries(ptx: &str) -> Vec<String> {
    ptx.lines()
        .filter_map(|l| {
            let l = l.trim_start();
            let rest = l.strip_prefix(".visible .entry ").or_else(|| l.strip_prefix(".entry "))?;
            let name = rest.split(['(', ' ']).next()?.trim();
            (!name.is_empty()).then(|| name.to_string())
        })
        .collect()
}

/// The entry that is `name_expression`'s kernel, given each entry's demangled form.
fn pick(entries: &[String], demangled: &[String], name_expression: &str) -> Option<String> {
    let (name, args) = name_expression_parts(name_expression);
    for (e, d) in entries.iter().zip(demangled) {
        if e == &name && args.is_empty() {
            return Some(e.clone());
        }
        if let Some((n, a)) = demangled_parts(d) {
            if n == name && a == args {
                return Some(e.clone());
            }
        }
    }
    None
}

/// Entry names demangled by `cu++filt` beside nvcc (the names themselves where it is
/// missing or fails).
fn demangle(nvcc: &Path, names: &[String]) -> Vec<String> {
    let filt = nvcc.with_file_name("cu++filt");
    let out = Command::new(&filt).args(names).stdin(Stdio::null()).stderr(Stdio::null()).output();
    match out {
        Ok(o) if o.status.success() => {
            let lines: Vec<String> = String::from_utf8_lossy(&o.stdout).lines().map(str::to_string).collect();
            if lines.len() == names.len() {
                lines
            } else {
                names.to_vec()
            }
        }
        _ => names.to_vec(),
    }
}

static NEXT_DIR: AtomicU64 = AtomicU64::new(0);

/// A scratch folder, removed when dropped.
struct Scratch(PathBuf);

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Builds `file` to PTX for `sm_<arch>` and finds the kernel of `name_expression` in it:
/// (PTX, entry name). The error is nvcc's message, the scratch folder cut out of it.
pub fn compile(nvcc: &Path, file: &SourceFile, name_expression: &str, arch: &str) -> Result<(String, String), String> {
    let dir = std::env::temp_dir().join(format!(
        "kforecast-nvcc-{}-{}",
        std::process::id(),
        NEXT_DIR.fetch_add(1, Ordering::Relaxed)
    ));
    std::fs::create_dir_all(&dir).map_err(|e| format!("nvcc: cannot make a scratch folder: {e}"))?;
    let scratch = Scratch(dir);
    let mut text = file.text.clone();
    if name_expression.contains('<') {
        // The launch's template instance, whatever the host code instantiates.
        text += &format!(
            "\n#line 1 \"kforecast-instance\"\n[[maybe_unused]] static const auto kforecast_instance = {name_expression};\n"
        );
    }
    let src = scratch.0.join(&file.name);
    std::fs::write(&src, &text).map_err(|e| format!("nvcc: cannot write the source: {e}"))?;
    let ptx_path = scratch.0.join("kernel.ptx");
    let log_path = scratch.0.join("nvcc.log");
    let log = std::fs::File::create(&log_path).map_err(|e| format!("nvcc: {e}"))?;
    let mut cmd = Command::new(nvcc);
    cmd.arg("-ptx")
        .arg(format!("-arch=sm_{arch}"))
        .arg("-std=c++17")
        .arg("-Wno-deprecated-gpu-targets")
        .arg("-o")
        .arg(&ptx_path);
    if let Some(inc) = &file.include_dir {
        cmd.arg(format!("-I{inc}"));
    }
    cmd.arg(&file.name).current_dir(&scratch.0).stdin(Stdio::null()).stdout(Stdio::null());
    let err_log = log.try_clone().map_err(|e| format!("nvcc: {e}"))?;
    cmd.stdout(log).stderr(err_log);
    let mut child = cmd.spawn().map_err(|e| format!("nvcc could not be started: {e}"))?;
    let start = Instant::now();
    let status = loop {
        match child.try_wait() {
            Ok(Some(s)) => break s,
            Ok(None) if start.elapsed() > NVCC_TIMEOUT => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(format!("nvcc ran past {} s", NVCC_TIMEOUT.as_secs()));
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(20)),
            Err(e) => return Err(format!("nvcc: {e}")),
        }
    };
    let log = std::fs::read_to_string(&log_path).unwrap_or_default();
    let prefix = format!("{}/", scratch.0.display());
    let log = log.replace(&prefix, "");
    if !status.success() {
        return Err(format!("nvcc -arch=sm_{arch}:\n{}", log.trim()));
    }
    let ptx = std::fs::read_to_string(&ptx_path).map_err(|e| format!("nvcc wrote no PTX: {e}"))?;
    let names = entries(&ptx);
    let demangled = demangle(nvcc, &names);
    let entry = pick(&names, &demangled, name_expression)
        .or_else(|| (names.len() == 1).then(|| names[0].clone()))
        .ok_or_else(|| {
            format!("nvcc built the file, but `{name_expression}` is none of its kernels ({})", demangled.join(", "))
        })?;
    Ok((ptx, entry))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_launched_instance_is_picked_from_the_entries() {
        let ptx = ".visible .entry _Z1kILj64ELj8EEviPf(\n.param .u32 a\n)\n.visible .entry _Z1kILj128ELj8EEviPf(\n)\n.entry plain(\n)";
        let names = entries(ptx);
        assert_eq!(names.len(), 3);
        let demangled = vec![
            "void k<64u, 8u>(int, float*)".to_string(),
            "void k<128u, 8u>(int, float*)".to_string(),
            "plain".to_string(),
        ];
        assert_eq!(pick(&names, &demangled, "&k<128, 8>").as_deref(), Some("_Z1kILj128ELj8EEviPf"));
        assert_eq!(pick(&names, &demangled, "&plain").as_deref(), Some("plain"));
        assert_eq!(pick(&names, &demangled, "&k<32, 8>"), None);
        assert_eq!(
            demangled_parts("void ns::gemm<(unsigned int)128, 8>(int)"),
            Some(("gemm".to_string(), vec!["128".to_string(), "8".to_string()]))
        );
    }
}
