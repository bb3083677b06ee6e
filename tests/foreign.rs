//! Kernels written the way other people write them (`test-workspaces/foreign/`): a ladder
//! that renames its kernel at every step and ends with cuBLAS, a multi-kernel Triton program
//! against its fused rewrite, a kernel launched from another file. Each is found, paired and forecast, and the
//! forecast says what it matched by guess and which sizes it had to assume.

mod common;

use common::{binary, end_position, position_of, repo_root, uri_of, Client};
use serde_json::json;
use serde_json::Value;
use std::process::Command;

fn forecast(base: &str, candidate: &str) -> Value {
    let cache = tempfile::tempdir().expect("tempdir");
    let dir = "test-workspaces/foreign/";
    let o = Command::new(binary())
        .args(["forecast", "--json", &format!("{dir}{base}"), &format!("{dir}{candidate}")])
        .env("KFORECAST_CACHE_DIR", cache.path())
        .current_dir(repo_root())
        .output()
        .expect("run");
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{out}\n{}", String::from_utf8_lossy(&o.stderr));
    serde_json::from_str(&out).expect("JSON")
}

/// The most confidence a guessed pairing may claim (the shipped doubt's cap).
fn pairing_cap() -> f64 {
    let text = std::fs::read_to_string(repo_root().join("server/core/model/doubt.json")).expect("doubt.json");
    serde_json::from_str::<Value>(&text).expect("JSON")["cap"].as_f64().expect("a cap")
}

fn reasons(v: &Value) -> String {
    v["reasons"]
        .as_array()
        .map(|r| r.iter().filter_map(Value::as_str).collect::<Vec<_>>().join("\n"))
        .unwrap_or_default()
}

#[test]
fn a_ladder_that_renames_its_kernel_is_paired_by_role_and_sized_from_the_driver() {
    let v = forecast("ladder_sgemm/v1_naive.cu", "ladder_sgemm/v3_smem_tiled.cu");
    let why = reasons(&v);
    assert!(why.contains("sgemm_naive → sgemm_shared_mem_block: paired by role"), "{why}");
    // The sizes come from main.cpp's call of run_sgemm, so none is assumed.
    assert!(!why.contains("assumed sizes"), "{why}");
    assert_eq!(v["claim"], "faster", "{v}");
    // A guessed pairing never claims more than the pairing cap.
    assert!(v["confidence"].as_f64().unwrap_or(1.0) <= pairing_cap(), "{v}");
}

#[test]
fn a_kernel_is_forecast_against_the_cublas_call_that_replaces_it() {
    // The ladder's last step hands the work to cuBLAS: no kernel of its own, yet a forecast,
    // with the GEMM's sizes from main.cpp's call of run_sgemm.
    let v = forecast("ladder_sgemm/v3_smem_tiled.cu", "ladder_sgemm/v4_cublas.cu");
    let why = reasons(&v);
    assert!(why.contains("sgemm_shared_mem_block against cublasSgemm"), "{why}");
    assert!(!why.contains("assumed sizes"), "{why}");
    assert_eq!(v["claim"], "faster", "{v}");
    let v = forecast("ladder_sgemm/v4_cublas.cu", "ladder_sgemm/v1_naive.cu");
    assert_eq!(v["claim"], "slower", "a naive kernel against cuBLAS: {v}");
}

#[test]
fn a_fused_triton_program_is_forecast_against_the_two_kernels_it_replaces() {
    let v = forecast("gpumode_rmsnorm/v1_two_pass.py", "gpumode_rmsnorm/v2_fused.py");
    let why = reasons(&v);
    assert!(why.contains("forecast as whole programs"), "{why}");
    assert!(why.contains("_sumsq_kernel + _scale_kernel against rmsnorm_fwd"), "{why}");
    assert!(v["confidence"].as_f64().unwrap_or(1.0) <= pairing_cap(), "{v}");
}

#[test]
fn a_kernel_launched_from_another_file_is_sized_by_that_launch() {
    let v = forecast("launch_elsewhere/previous/kernels.cu", "launch_elsewhere/kernels.cu");
    let why = reasons(&v);
    assert!(!why.contains("assumed sizes"), "{why}");
    assert_eq!(v["claim"], "faster", "a warp per row reads A coalesced: {v}");
    let cache = tempfile::tempdir().expect("tempdir");
    let o = Command::new(binary())
        .args(["profile", "--json", "test-workspaces/foreign/launch_elsewhere/kernels.cu"])
        .env("KFORECAST_CACHE_DIR", cache.path())
        .current_dir(repo_root())
        .output()
        .expect("run");
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("\"blocks\":1024.0") || out.contains("\"blocks\": 1024.0"), "a warp per row of 8192: {out}");
}

/// `kforecast verify --json BASE CANDIDATE`: the job was built (no declaration is asked
/// for) and went to a worker, which measured it or, without a GPU here, said so.
fn verify_builds_a_job(base: &std::path::Path, candidate: &std::path::Path, kernel: &str) {
    let cache = tempfile::tempdir().expect("tempdir");
    let o = Command::new(binary())
        .args(["verify", "--json"])
        .arg(base)
        .arg(candidate)
        .env("KFORECAST_CACHE_DIR", cache.path())
        .current_dir(repo_root())
        .output()
        .expect("run");
    let (out, err) = (String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr));
    assert_ne!(o.status.code(), Some(2), "the job could not be built:\n{err}");
    assert!(!err.contains("declare it") && !err.contains("needs a value"), "{err}");
    let v: Value = serde_json::from_str(out.trim()).unwrap_or_else(|e| panic!("{e}: {out}\n{err}"));
    assert_eq!(v["kernel"], kernel, "{v}");
    assert!(["ok", "no_gpu"].contains(&v["status"].as_str().unwrap_or("")), "{v}");
}

#[test]
fn verify_sizes_a_kernel_from_the_launch_and_allocations_in_another_file() {
    // kernels.cu declares nothing; main.cu has `const int M = 8192, N = 8192`, the
    // cudaMallocs and the launch.
    let dir = repo_root().join("test-workspaces/foreign/launch_elsewhere");
    verify_builds_a_job(&dir.join("previous/kernels.cu"), &dir.join("kernels.cu"), "matvec");
}

#[test]
fn verify_calls_a_gpu_mode_program_with_the_tuple_generate_input_makes() {
    // `custom_kernel(data)` unpacks `x, w = data`; `generate_input(M=8192, N=4096, seed=0)`
    // gives the shapes. No declaration.
    let dir = tempfile::tempdir().expect("tempdir");
    let generator = "\n\ndef generate_input(M: int, N: int, seed: int):\n    gen = torch.Generator(device=\"cuda\")\n    \
                     gen.manual_seed(seed)\n    x = torch.randn(M, N, device=\"cuda\", dtype=torch.float32, generator=gen)\n    \
                     w = torch.randn(N, device=\"cuda\", dtype=torch.float32, generator=gen)\n    return x, w\n\n\n\
                     if __name__ == \"__main__\":\n    print(custom_kernel(generate_input(M=8192, N=4096, seed=0)).sum())\n";
    let mut paths = Vec::new();
    for f in ["v1_two_pass.py", "v2_fused.py"] {
        let text =
            std::fs::read_to_string(repo_root().join("test-workspaces/foreign/gpumode_rmsnorm").join(f)).expect("read");
        let path = dir.path().join(f);
        std::fs::write(&path, text + generator).expect("write");
        paths.push(path);
    }
    verify_builds_a_job(&paths[0], &paths[1], "rmsnorm_fwd");
}

#[test]
fn sizes_known_only_at_run_time_are_forecast_over_a_prior_and_named() {
    // The ladder's kernels without the driver that gives their sizes.
    let dir = tempfile::tempdir().expect("tempdir");
    for f in ["v1_naive.cu", "v2_coalesced.cu"] {
        let text =
            std::fs::read_to_string(repo_root().join("test-workspaces/foreign/ladder_sgemm").join(f)).expect("read");
        std::fs::write(dir.path().join(f), text).expect("write");
    }
    let cache = tempfile::tempdir().expect("tempdir");
    let o = Command::new(binary())
        .args(["forecast", "--json"])
        .arg(dir.path().join("v1_naive.cu"))
        .arg(dir.path().join("v2_coalesced.cu"))
        .env("KFORECAST_CACHE_DIR", cache.path())
        .output()
        .expect("run");
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{out}\n{}", String::from_utf8_lossy(&o.stderr));
    let v: Value = serde_json::from_str(&out).expect("JSON");
    let why = reasons(&v);
    assert!(why.contains("`M`") && why.contains("`N`") && why.contains("`K`"), "{why}");
    assert!(why.contains("assumed sizes") || why.contains("depends on the problem size"), "{why}");
}

#[test]
fn an_edit_that_renames_the_kernel_is_still_forecast_in_the_editor() {
    let dir = tempfile::tempdir().expect("tempdir");
    let read = |f: &str| {
        std::fs::read_to_string(repo_root().join("test-workspaces/foreign/ladder_sgemm").join(f)).expect("read")
    };
    let (before, after) = (read("v1_naive.cu"), read("v3_smem_tiled.cu"));
    let path = dir.path().join("sgemm.cu");
    std::fs::write(&path, &before).expect("write");
    let uri = uri_of(&path);
    let mut c = Client::start();
    c.initialize(serde_json::Value::Null);
    c.open(&uri, "cuda", &before);
    c.change(&uri, 2, (0, 0), end_position(&before), &after);
    let hints = c.inlay_hints(&uri);
    assert_eq!(hints.len(), 1, "the renamed kernel gets a forecast, not silence: {hints:?}");
    let (line, col) = position_of(&after, "sgemm_shared_mem_block(int M");
    let hover = c.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": uri}, "position": {"line": line, "character": col + 2}}),
    );
    let text = hover["result"]["contents"]["value"].as_str().unwrap_or_default().to_string();
    assert!(text.contains("compared with `sgemm_naive`") && text.contains("paired by role"), "{text}");
    // Nothing here gives M, N and K: the hover names them.
    assert!(text.contains("`M`"), "{text}");
    assert!(c.shutdown().success());
}

#[test]
fn a_kernelbench_candidate_is_sized_by_its_problems_get_inputs() {
    // `ModelNew` says nothing of its inputs; the problem's `get_inputs()` does, and the
    // harness runs both on them: the forecast is at those sizes, not over the size prior.
    let run = |base: &std::path::Path| {
        let cache = tempfile::tempdir().expect("tempdir");
        let o = Command::new(binary())
            .args(["forecast", "--json"])
            .arg(base)
            .arg(repo_root().join("tests/data/kernelbench/softmax_new.py"))
            .env("KFORECAST_CACHE_DIR", cache.path())
            .output()
            .expect("run");
        let out = String::from_utf8_lossy(&o.stdout);
        assert!(o.status.success(), "{out}\n{}", String::from_utf8_lossy(&o.stderr));
        reasons(&serde_json::from_str(&out).expect("JSON"))
    };
    let problem = repo_root().join("tests/data/kernelbench/softmax_problem.py");
    let why = run(&problem);
    assert!(!why.contains("assumed sizes") && !why.contains("run time"), "{why}");
    // The same problem without its inputs leaves the sizes to run time, and says so.
    let dir = tempfile::tempdir().expect("tempdir");
    let text = std::fs::read_to_string(&problem).expect("read");
    let blind = text.replace("def get_inputs():", "def inputs():");
    std::fs::write(dir.path().join("problem.py"), blind).expect("write");
    let why = run(&dir.path().join("problem.py"));
    assert!(why.contains("assumed sizes") && why.contains("`x.shape[0]`"), "{why}");
}
