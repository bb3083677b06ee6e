//! The worker protocol without a GPU: a real `kforecast worker --listen` on loopback,
//! its auth, limits and time limits, and a client that survives a worker dying mid-job.

mod common;

use common::worker::{absurd_cuda_job, http, triton_job, worker, TOKEN};
use common::{binary, repo_root};
use serde_json::Value;
use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

#[test]
fn auth_limits_and_routes() {
    let w = worker(&["--max-request-bytes", "100000"], None);
    assert_eq!(http(&w.addr, "GET", "/v1/health", None, b"").0, 401);
    assert_eq!(http(&w.addr, "GET", "/v1/health", Some("wrong"), b"").0, 401);
    let (status, body) = http(&w.addr, "GET", "/v1/health", Some(TOKEN), b"");
    assert_eq!(status, 200, "{body}");
    let health: Value = serde_json::from_str(&body).expect("json");
    assert!(health.get("ok").is_some() && health.get("version").is_some(), "{health}");
    if health["ok"] == false {
        assert!(!health["message"].as_str().unwrap_or("").is_empty(), "says why there is no GPU: {health}");
    } else {
        assert!(health["device"]["name"].is_string() && health["device"]["compute_capability"].is_string());
    }
    let big = vec![b' '; 200_000];
    assert_eq!(http(&w.addr, "POST", "/v1/measure", Some(TOKEN), &big).0, 413);
    assert_eq!(http(&w.addr, "POST", "/v1/measure", None, b"{}").0, 401);
    let (status, body) = http(&w.addr, "POST", "/v1/measure", Some(TOKEN), b"{not json");
    assert_eq!(status, 400, "{body}");
    assert_eq!(http(&w.addr, "GET", "/v1/nothing", Some(TOKEN), b"").0, 404);
    assert_eq!(http(&w.addr, "GET", "/v1/measure", Some(TOKEN), b"").0, 405);
}

#[test]
fn a_job_answers_with_a_status_even_without_a_gpu() {
    let w = worker(&[], None);
    let (status, body) = http(&w.addr, "POST", "/v1/measure", Some(TOKEN), triton_job().as_bytes());
    assert_eq!(status, 200, "{body}");
    let m: Value = serde_json::from_str(&body).expect("json");
    let s = m["status"].as_str().expect("status");
    assert!(["ok", "no_gpu", "error"].contains(&s), "{m}");
    if s != "ok" {
        assert!(m["speedup"].is_null());
    }
}

fn script(dir: &Path, name: &str, body: &str) -> std::path::PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).expect("write");
    let mut perms = std::fs::metadata(&path).expect("meta").permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut perms, 0o755);
    std::fs::set_permissions(&path, perms).expect("chmod");
    path
}

#[test]
fn a_hanging_job_is_killed_at_its_time_limit_and_the_worker_keeps_serving() {
    let dir = tempfile::tempdir().expect("tempdir");
    // A stand-in interpreter that never answers, like a kernel that never ends.
    let hang = script(dir.path(), "python3", "exec sleep 600");
    let w = worker(&["--job-timeout", "2"], Some(&hang));
    let start = Instant::now();
    let (status, body) = http(&w.addr, "POST", "/v1/measure", Some(TOKEN), triton_job().as_bytes());
    assert_eq!(status, 200, "{body}");
    let m: Value = serde_json::from_str(&body).expect("json");
    assert_eq!(m["status"], "timeout", "{m}");
    assert!(start.elapsed() < Duration::from_secs(20));
    // The worker was restarted: it still answers.
    let (status, _) = http(&w.addr, "GET", "/v1/health", Some(TOKEN), b"");
    assert_eq!(status, 200);
    let (status, body) = http(&w.addr, "POST", "/v1/measure", Some(TOKEN), triton_job().as_bytes());
    assert_eq!(status, 200);
    assert_eq!(serde_json::from_str::<Value>(&body).expect("json")["status"], "timeout");
}

#[test]
fn a_runner_that_dies_mid_job_is_reported_and_replaced() {
    let dir = tempfile::tempdir().expect("tempdir");
    let die = script(dir.path(), "python3", "read line; exit 7");
    let w = worker(&[], Some(&die));
    for _ in 0..2 {
        let (status, body) = http(&w.addr, "POST", "/v1/measure", Some(TOKEN), triton_job().as_bytes());
        assert_eq!(status, 200, "{body}");
        let m: Value = serde_json::from_str(&body).expect("json");
        assert_eq!(m["status"], "error", "{m}");
        assert!(m["message"].as_str().unwrap_or("").contains("exited"), "{m}");
    }
}

fn verify(args: &[&str]) -> Output {
    let cache = tempfile::tempdir().expect("tempdir");
    Command::new(binary())
        .arg("verify")
        .args(args)
        .env("KFORECAST_CACHE_DIR", cache.path())
        .env("KFORECAST_WORKER_TOKEN", TOKEN)
        .current_dir(repo_root())
        .output()
        .expect("run")
}

#[test]
fn the_client_skips_a_worker_that_dies_mid_job() {
    let dir = tempfile::tempdir().expect("tempdir");
    let slow = script(dir.path(), "python3", "exec sleep 600");
    let mut dying = worker(&[], Some(&slow));
    let alive = worker(&[], None);
    let dying_addr = dying.addr.clone();
    // Kill the first worker while it holds the job.
    let killer = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(1500));
        let _ = dying.child.kill();
        let _ = dying.child.wait();
    });
    let out = verify(&[
        "--json",
        "--worker",
        &format!("http://{dying_addr}"),
        "--worker",
        &format!("http://{}", alive.addr),
        "test-workspaces/triton/previous/kernels/vector_add.py",
        "test-workspaces/triton/kernels/vector_add.py",
    ]);
    killer.join().expect("join");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let m: Value = serde_json::from_str(stdout.trim())
        .unwrap_or_else(|e| panic!("{e}: {stdout} {}", String::from_utf8_lossy(&out.stderr)));
    assert_eq!(m["worker"], format!("http://{}", alive.addr), "{m}");
    // A worker that is not there at all, and a wrong token.
    let out = verify(&[
        "--json",
        "--worker",
        "http://127.0.0.1:1",
        "test-workspaces/triton/previous/kernels/vector_add.py",
        "test-workspaces/triton/kernels/vector_add.py",
    ]);
    let m: Value = serde_json::from_str(String::from_utf8_lossy(&out.stdout).trim()).expect("json");
    assert_eq!(m["status"], "error");
    assert!(m["message"].as_str().unwrap_or("").contains("no GPU worker could take the job"), "{m}");
}

#[test]
fn declaration_mistakes_are_errors_on_the_offending_line() {
    let dir = tempfile::tempdir().expect("tempdir");
    let src = std::fs::read_to_string(repo_root().join("test-workspaces/cuda/src/transpose.cu")).expect("read");
    let bad = src.replace("in: f32[rows, cols]", "in: f33[rows, cols]");
    let path = dir.path().join("transpose.cu");
    std::fs::write(&path, &bad).expect("write");
    let out = verify(&["test-workspaces/cuda/previous/src/transpose.cu", &path.display().to_string()]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    let line = bad.lines().position(|l| l.contains("f33")).expect("line") + 1;
    assert!(err.contains(&format!("transpose.cu:{line}:")) && err.contains("unknown dtype `f33`"), "{err}");
}

/// A stand-in Triton runner that measures every job as 1.25× faster after `secs`
/// seconds, and logs `start`/`end` with the time and its pid to `log`.
fn fake_runner(dir: &Path, name: &str, secs: &str, log: &Path) -> std::path::PathBuf {
    let log = log.display();
    script(
        dir,
        name,
        &format!(
            "while read line; do echo \"start $(date +%s.%N) $$\" >> {log}; sleep {secs}; \
             echo \"end $(date +%s.%N) $$\" >> {log}; \
             echo '{{\"status\": \"ok\", \"speedup\": 1.25, \"ci_low\": 1.2, \"ci_high\": 1.3, \"reps\": 10}}'; done"
        ),
    )
}

fn sweep(out: &Path, workers: &[&str]) -> Output {
    let cache = tempfile::tempdir().expect("tempdir");
    let mut cmd = Command::new(binary());
    cmd.args(["sweep", "test-workspaces/triton/kernels/vector_add.py", "--max", "4", "--json"]).arg(out);
    for w in workers {
        cmd.args(["--worker", &format!("http://{w}")]);
    }
    cmd.env("KFORECAST_CACHE_DIR", cache.path()).env("KFORECAST_WORKER_TOKEN", TOKEN).current_dir(repo_root());
    cmd.output().expect("run")
}

fn lines(path: &Path) -> Vec<Value> {
    let text = std::fs::read_to_string(path).expect("read");
    text.lines().map(|l| serde_json::from_str(l).expect("json")).collect()
}

#[test]
fn a_sweep_measures_on_every_worker_at_once() {
    let dir = tempfile::tempdir().expect("tempdir");
    let log = dir.path().join("jobs.log");
    let runner = fake_runner(dir.path(), "python3", "1", &log);
    let (a, b) = (worker(&[], Some(&runner)), worker(&[], Some(&runner)));
    let out = dir.path().join("sweep.jsonl");
    let run = sweep(&out, &[&a.addr, &b.addr]);
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    let lines = lines(&out);
    assert_eq!(lines.len(), 4);
    assert!(lines.iter().all(|l| l["status"] == "ok" && l["speedup"] == 1.25), "{lines:?}");
    for w in [&a.addr, &b.addr] {
        assert!(lines.iter().any(|l| l["worker"] == format!("http://{w}")), "{w} measured: {lines:?}");
    }
    // Jobs overlapped in time: one started on a worker before another's ended.
    let events: Vec<(String, f64)> = std::fs::read_to_string(&log)
        .expect("log")
        .lines()
        .filter_map(|l| {
            let mut f = l.split_whitespace();
            Some((f.next()?.to_string(), f.next()?.parse().ok()?))
        })
        .collect();
    let (mut running, mut most) = (0, 0);
    let mut sorted = events.clone();
    sorted.sort_by(|x, y| x.1.total_cmp(&y.1));
    for (what, _) in &sorted {
        running += if what == "start" { 1 } else { -1 };
        most = most.max(running);
    }
    assert_eq!(most, 2, "two jobs at once: {events:?}");
}

#[test]
fn a_worker_killed_mid_sweep_loses_no_job() {
    let dir = tempfile::tempdir().expect("tempdir");
    let hang = script(dir.path(), "hang", "exec sleep 600");
    let runner = fake_runner(dir.path(), "python3", "0.2", &dir.path().join("jobs.log"));
    let mut dying = worker(&[], Some(&hang));
    let alive = worker(&[], Some(&runner));
    let dying_addr = dying.addr.clone();
    let killer = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(1500));
        let _ = dying.child.kill();
        let _ = dying.child.wait();
    });
    let out = dir.path().join("sweep.jsonl");
    let run = sweep(&out, &[&dying_addr, &alive.addr]);
    killer.join().expect("join");
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    let lines = lines(&out);
    assert_eq!(lines.len(), 4, "every variant answered");
    assert!(lines.iter().all(|l| l["status"] == "ok" && l["worker"] == format!("http://{}", alive.addr)), "{lines:?}");
}

/// The job `verify` sends for the Triton workspace's pair, as the worker reads it.
fn emitted_job(dir: &Path) -> Value {
    let job = dir.join("job.json");
    verify(&[
        "--emit-job",
        &job.display().to_string(),
        "--worker",
        "http://127.0.0.1:1",
        "test-workspaces/triton/previous/kernels/vector_add.py",
        "test-workspaces/triton/kernels/vector_add.py",
    ]);
    serde_json::from_str(&std::fs::read_to_string(job).expect("job written")).expect("json")
}

#[test]
fn the_shared_store_routes() {
    let dir = tempfile::tempdir().expect("tempdir");
    let store = dir.path().join("store");
    let w = worker(&["--store", &store.display().to_string()], None);
    let key = "ab".repeat(32);
    assert_eq!(http(&w.addr, "GET", &format!("/v1/store/{key}"), None, b"").0, 401);
    assert_eq!(http(&w.addr, "GET", &format!("/v1/store/{key}"), Some(TOKEN), b"").0, 404);
    assert_eq!(http(&w.addr, "GET", "/v1/store/xyz", Some(TOKEN), b"").0, 400);
    assert_eq!(http(&w.addr, "PUT", &format!("/v1/store/{key}"), Some(TOKEN), b"{}").0, 400);
    // A record under a key that is not its job's is refused; under its own key it is kept.
    let request = emitted_job(dir.path());
    let req: kforecast_core::measure::protocol::MeasureRequest =
        serde_json::from_value(request.clone()).expect("a measure request");
    let own = kforecast_core::hash::Hasher::new()
        .str("measure/1")
        .str(&serde_json::to_string(&req).expect("json"))
        .finish()
        .to_string();
    let record = serde_json::json!({
        "kernel": "add_kernel", "language": "triton", "base_source": "", "candidate_source": "",
        "request": request, "measurement": {"status": "ok", "speedup": 1.5}, "measured_at": 0,
    })
    .to_string();
    let (status, body) = http(&w.addr, "PUT", &format!("/v1/store/{key}"), Some(TOKEN), record.as_bytes());
    assert_eq!(status, 400, "{body}");
    let (status, body) = http(&w.addr, "PUT", &format!("/v1/store/{own}"), Some(TOKEN), record.as_bytes());
    assert_eq!(status, 200, "{body}");
    let (status, body) = http(&w.addr, "GET", &format!("/v1/store/{own}"), Some(TOKEN), b"");
    assert_eq!(status, 200, "{body}");
    assert_eq!(serde_json::from_str::<Value>(&body).expect("json")["measurement"]["speedup"], 1.5);
    // A worker without --store says so.
    let plain = worker(&[], None);
    assert_eq!(http(&plain.addr, "GET", &format!("/v1/store/{own}"), Some(TOKEN), b"").0, 501);
}

#[test]
fn a_job_one_client_measured_is_free_for_the_next() {
    let dir = tempfile::tempdir().expect("tempdir");
    let log = dir.path().join("jobs.log");
    let runner = fake_runner(dir.path(), "python3", "0", &log);
    let store = dir.path().join("store");
    let w = worker(&["--store", &store.display().to_string()], Some(&runner));
    let url = format!("http://{}", w.addr);
    let pair =
        ["test-workspaces/triton/previous/kernels/vector_add.py", "test-workspaces/triton/kernels/vector_add.py"];
    // Each `verify` has a cache of its own: two developers.
    let first: Value =
        serde_json::from_slice(&verify(&["--json", "--worker", &url, pair[0], pair[1]]).stdout).expect("json");
    assert_eq!((first["status"].as_str(), first["cached"].as_bool()), (Some("ok"), Some(false)), "{first}");
    let second: Value =
        serde_json::from_slice(&verify(&["--json", "--worker", &url, pair[0], pair[1]]).stdout).expect("json");
    assert_eq!((second["speedup"].as_f64(), second["cached"].as_bool()), (Some(1.25), Some(true)), "{second}");
    let runs = std::fs::read_to_string(&log).expect("log").lines().filter(|l| l.starts_with("start")).count();
    assert_eq!(runs, 1, "measured once");
}

#[test]
fn job_file_names_that_leave_the_job_folder_are_refused_and_nothing_is_written() {
    let w = worker(&[], None);
    let target = tempfile::tempdir().expect("tempdir");
    let escape = target.path().join("escaped.py");
    let names = [escape.display().to_string(), "../../escaped.py".to_string(), "a/b.py".to_string(), "..".to_string()];
    for name in names {
        let mut job: Value = serde_json::from_str(&triton_job()).expect("json");
        job["job"]["candidate"]["file_name"] = name.clone().into();
        let (status, body) = http(&w.addr, "POST", "/v1/measure", Some(TOKEN), job.to_string().as_bytes());
        assert_eq!(status, 400, "{name}: {body}");
        assert!(body.contains("file name"), "{name}: {body}");
    }
    assert!(!escape.exists(), "a job wrote outside its folder");
    // The worker keeps serving.
    let (status, body) = http(&w.addr, "POST", "/v1/measure", Some(TOKEN), triton_job().as_bytes());
    assert_eq!(status, 200, "{body}");
}

#[test]
fn jobs_with_absurd_buffers_are_refused_before_anything_is_allocated() {
    let w = worker(&[], None);
    // 2^40 float32 elements: 4 TiB, refused before the GPU is even looked for.
    let (status, body) = http(&w.addr, "POST", "/v1/measure", Some(TOKEN), absurd_cuda_job().to_string().as_bytes());
    assert_eq!(status, 400, "{body}");
    assert!(body.contains("1099511627776 elements") && body.contains("4096.0 GiB"), "{body}");
    // A Triton tensor whose shape does not even fit in 64 bits.
    let mut job: Value = serde_json::from_str(&triton_job()).expect("json");
    job["job"]["inputs"][1]["shape"] = serde_json::json!([1u64 << 32, 1u64 << 32, 16]);
    let (status, body) = http(&w.addr, "POST", "/v1/measure", Some(TOKEN), job.to_string().as_bytes());
    assert_eq!(status, 400, "{body}");
    assert!(body.contains("buffer `y`") && body.contains("2^64"), "{body}");
    // The worker keeps serving.
    let (status, body) = http(&w.addr, "POST", "/v1/measure", Some(TOKEN), triton_job().as_bytes());
    assert_eq!(status, 200, "{body}");

    // The stdio worker (what `worker --listen` and the editor run) refuses it too and
    // answers the next line.
    let mut child = Command::new(binary())
        .arg("worker")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn worker");
    let mut line = absurd_cuda_job();
    line["op"] = "measure".into();
    let mut stdin = child.stdin.take().expect("stdin");
    writeln!(stdin, "{line}\n{{\"op\":\"health\"}}").expect("write");
    drop(stdin);
    let out = child.wait_with_output().expect("worker output");
    let replies: Vec<Value> =
        String::from_utf8_lossy(&out.stdout).lines().filter_map(|l| serde_json::from_str(l).ok()).collect();
    assert_eq!(replies.len(), 2, "{replies:?}");
    assert_eq!(replies[0]["status"], "error", "{replies:?}");
    assert!(replies[0]["message"].as_str().is_some_and(|m| m.contains("elements")), "{replies:?}");
    assert!(replies[1].get("ok").is_some(), "{replies:?}");
}
