//! Triton jobs run in the user's Python (torch + triton) through the runner script kept
//! in the repository (`server/kforecast/runners/triton_runner.py` and the
//! `kforecast_runner_*.py` modules it imports, embedded here and run as one `python -c`
//! script). One runner process stays warm across jobs; it is restarted after a fatal GPU
//! error.

use kforecast_core::measure::protocol::{
    Check, DeviceInfo, Measurement, Protocol, Status, TimeStats, TritonInput, TritonJob,
};
use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

const RUNNER: &str = include_str!("../../runners/triton_runner.py");

/// The modules `triton_runner.py` imports, by file name, each after those it imports.
const RUNNER_MODULES: [(&str, &str); 4] = [
    ("kforecast_runner_common.py", include_str!("../../runners/kforecast_runner_common.py")),
    ("kforecast_runner_stats.py", include_str!("../../runners/kforecast_runner_stats.py")),
    ("kforecast_runner_request.py", include_str!("../../runners/kforecast_runner_request.py")),
    ("kforecast_runner_torch.py", include_str!("../../runners/kforecast_runner_torch.py")),
];

/// The runner as one `python -c` script (no files to write): each module made from its
/// embedded text and put in `sys.modules`, then `triton_runner.py` run as `__main__`.
/// JSON strings are Python string literals. About 50 KB, one argument (Linux takes 128 KB).
fn runner_script() -> String {
    let literal = |s: &str| serde_json::to_string(s).unwrap_or_default();
    let mut script = String::from("import sys as _sys, types as _types\n");
    for (file, text) in RUNNER_MODULES {
        let (name, file, text) = (literal(file.trim_end_matches(".py")), literal(file), literal(text));
        script += &format!(
            "_m = _types.ModuleType({name})\n_m.__file__ = {file}\n_sys.modules[{name}] = _m\n\
             exec(compile({text}, {file}, 'exec'), _m.__dict__)\n"
        );
    }
    script + &format!("exec(compile({}, 'triton_runner.py', 'exec'), {{'__name__': '__main__'}})\n", literal(RUNNER))
}

struct Process {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

#[derive(Default)]
pub struct TritonRunner {
    process: Option<Process>,
    next_id: u64,
}

fn python() -> String {
    std::env::var("KFORECAST_PYTHON").ok().filter(|p| !p.is_empty()).unwrap_or_else(|| "python3".to_string())
}

impl TritonRunner {
    pub fn python_version(&self) -> Option<String> {
        let out = Command::new(python()).arg("--version").output().ok()?;
        Some(String::from_utf8_lossy(if out.stdout.is_empty() { &out.stderr } else { &out.stdout }).trim().to_string())
    }

    fn start(&mut self) -> Result<&mut Process, String> {
        if let Some(p) = &mut self.process {
            if matches!(p.child.try_wait(), Ok(None)) {
                // Still running.
            } else {
                self.process = None;
            }
        }
        if self.process.is_none() {
            let mut cmd = Command::new(python());
            cmd.arg("-c").arg(runner_script()).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::inherit());
            super::supervisor::die_with_parent(&mut cmd);
            let mut child = cmd.spawn().map_err(|e| {
                format!("cannot start `{}` for the Triton runner: {e} (set KFORECAST_PYTHON)", python())
            })?;
            let stdin = child.stdin.take().ok_or("no stdin")?;
            let stdout = BufReader::new(child.stdout.take().ok_or("no stdout")?);
            self.process = Some(Process { child, stdin, stdout });
        }
        self.process.as_mut().ok_or_else(|| "runner not started".to_string())
    }

    pub fn measure(&mut self, job: &TritonJob, p: &Protocol) -> Measurement {
        for name in [&job.base.file_name, &job.candidate.file_name] {
            if let Err(why) = super::plain_file_name(name) {
                return Measurement::failure(Status::Error, format!("refused: {why}"));
            }
        }
        let dir = match tempfile::tempdir() {
            Ok(d) => d,
            Err(e) => return Measurement::failure(Status::Error, format!("no temporary directory: {e}")),
        };
        let write = |role: &str, name: &str, source: &str| -> std::io::Result<String> {
            let d = dir.path().join(role);
            std::fs::create_dir_all(&d)?;
            let path = d.join(name);
            std::fs::write(&path, source)?;
            Ok(path.display().to_string())
        };
        let (base_path, cand_path) = match (
            write("base", &job.base.file_name, &job.base.source),
            write("candidate", &job.candidate.file_name, &job.candidate.source),
        ) {
            (Ok(a), Ok(b)) => (a, b),
            (Err(e), _) | (_, Err(e)) => {
                return Measurement::failure(Status::Error, format!("cannot write the sources: {e}"))
            }
        };
        self.next_id += 1;
        let inputs: Vec<Value> = job
            .inputs
            .iter()
            .map(|i| match i {
                TritonInput::Tensor { name, dtype, shape, init } => {
                    json!({"name": name, "kind": "tensor", "dtype": dtype.torch_name(), "shape": shape, "init": init.runner_name()})
                }
                TritonInput::Scalar { name, value } => json!({"name": name, "kind": "scalar", "value": value}),
            })
            .collect();
        let request = json!({
            "id": self.next_id, "op": "measure",
            "base": {"path": base_path, "wrapper": job.base.wrapper},
            "candidate": {"path": cand_path, "wrapper": job.candidate.wrapper},
            "inputs": inputs, "args": job.args, "kwargs": {},
            "outputs": if job.outputs.is_empty() { json!("return") } else { json!(job.outputs) },
            "seed": p.seed, "rtol": p.rtol, "atol": p.atol, "warmup": p.warmup, "min_reps": p.min_reps,
            "max_reps": p.max_reps, "target_rel_ci": p.target_rel_ci, "max_time_ms": p.max_time_ms, "flush_l2": p.flush_l2,
        });
        let reply = self.exchange(&request);
        drop(dir);
        match reply {
            Ok(v) => from_runner(&v),
            Err(e) => Measurement::failure(Status::Error, e),
        }
    }

    fn exchange(&mut self, request: &Value) -> Result<Value, String> {
        let p = self.start()?;
        writeln!(p.stdin, "{request}")
            .and_then(|_| p.stdin.flush())
            .map_err(|e| format!("the Triton runner is gone: {e}"))?;
        let mut line = String::new();
        match p.stdout.read_line(&mut line) {
            Ok(0) | Err(_) => {
                let status = p.child.wait().map(|s| s.to_string()).unwrap_or_default();
                self.process = None;
                Err(format!("the Triton runner exited ({status}) without answering"))
            }
            Ok(_) => {
                let v: Value =
                    serde_json::from_str(&line).map_err(|e| format!("the Triton runner answered garbage: {e}"))?;
                if v.get("fatal").and_then(Value::as_bool) == Some(true) {
                    let _ = p.child.wait();
                    self.process = None;
                }
                Ok(v)
            }
        }
    }
}

fn stats(v: &Value) -> Option<TimeStats> {
    Some(TimeStats {
        median_ms: v.get("median_ms")?.as_f64()?,
        p10_ms: v.get("p10_ms").and_then(Value::as_f64).unwrap_or(f64::NAN),
        p90_ms: v.get("p90_ms").and_then(Value::as_f64).unwrap_or(f64::NAN),
        min_ms: v.get("min_ms").and_then(Value::as_f64).unwrap_or(f64::NAN),
        n: v.get("n").and_then(Value::as_u64).unwrap_or(0) as u32,
    })
}

/// The runner's answer as a [`Measurement`].
fn from_runner(v: &Value) -> Measurement {
    let fatal = v.get("fatal").and_then(Value::as_bool) == Some(true);
    let status = match v.get("status").and_then(Value::as_str) {
        Some("ok") => Status::Ok,
        Some("wrong_result") => Status::WrongResult,
        Some("no_gpu") => Status::NoGpu,
        _ if fatal => Status::Fault,
        _ => Status::Error,
    };
    let mut m = Measurement::failure(status, v.get("message").and_then(Value::as_str).unwrap_or_default());
    m.which = v.get("version").and_then(Value::as_str).map(str::to_string);
    m.device = v.get("device").map(|d| DeviceInfo {
        name: d.get("name").and_then(Value::as_str).unwrap_or_default().to_string(),
        compute_capability: d.get("compute_capability").and_then(Value::as_str).unwrap_or_default().to_string(),
        memory_bytes: d.get("memory_bytes").and_then(Value::as_u64).unwrap_or(0),
        driver: d.get("driver").and_then(Value::as_str).unwrap_or_default().to_string(),
        sm_count: d.get("sm_count").and_then(Value::as_u64).unwrap_or(0) as u32,
    });
    m.base = v.get("base").and_then(stats);
    m.candidate = v.get("candidate").and_then(stats);
    if status == Status::Ok {
        m.speedup = v.get("speedup").and_then(Value::as_f64);
        m.ci_low = v.get("ci_low").and_then(Value::as_f64);
        m.ci_high = v.get("ci_high").and_then(Value::as_f64);
        m.spread = v.get("spread").and_then(Value::as_f64);
    }
    m.reps = v.get("reps").and_then(Value::as_u64).unwrap_or(0) as u32;
    m.check = v.get("check").map(|c| Check {
        ok: c.get("ok").and_then(Value::as_bool).unwrap_or(false),
        max_abs_err: c.get("max_abs_err").and_then(Value::as_f64).unwrap_or(0.0),
        max_rel_err: c.get("max_rel_err").and_then(Value::as_f64).unwrap_or(0.0),
        message: c.get("message").and_then(Value::as_str).unwrap_or_default().to_string(),
    });
    m.total_ms = v.get("timing_ms").and_then(Value::as_f64).unwrap_or(0.0);
    m.harness = v.get("harness").and_then(Value::as_str).unwrap_or("events").to_string();
    m
}
