//! The command line: `check`, `forecast` and `forecast --pairs`, as a user runs them.

mod common;

use common::{binary, git, git_repo, repo_root, workspace_file};
use serde_json::Value;
use std::process::{Command, Output};

fn kforecast(args: &[&str]) -> Output {
    let cache = tempfile::tempdir().expect("tempdir");
    kforecast_in(cache.path(), args)
}

/// Runs kforecast with its store in `cache`.
fn kforecast_in(cache: &std::path::Path, args: &[&str]) -> Output {
    Command::new(binary()).args(args).env("KFORECAST_CACHE_DIR", cache).current_dir(repo_root()).output().expect("run")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn check_prints_forecasts_for_the_cuda_workspace() {
    let o = kforecast(&["check", "--base", "test-workspaces/cuda/previous", "test-workspaces/cuda"]);
    let out = stdout(&o);
    assert!(o.status.success(), "{out}\n{}", stderr(&o));
    let line = |kernel: &str| {
        out.lines()
            .find(|l| l.contains(&format!("`{kernel}`")))
            .unwrap_or_else(|| panic!("no line for {kernel}:\n{out}"))
            .to_string()
    };
    assert!(line("transpose").contains("faster"), "{out}");
    assert!(line("reduce_sum").contains("faster"), "{out}");
    assert!(line("sgemm").contains("faster"), "{out}");
    assert!(line("softmax_rows").contains("slower"), "{out}");
    assert!(line("scale").contains("`scale` the same kernel as"), "{out}");
    assert!(!out.contains("`relu`"), "unchanged kernels are not reported:\n{out}");
    // Compiler-style locations: path:line:col.
    assert!(line("transpose").starts_with("test-workspaces/cuda/src/transpose.cu:"), "{out}");
    assert!(stderr(&o).contains("changed kernels"));
}

#[test]
fn deny_regressions_fails_on_a_confident_slowdown() {
    let o =
        kforecast(&["check", "--deny-regressions", "--base", "test-workspaces/cuda/previous", "test-workspaces/cuda"]);
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    assert!(stdout(&o).contains("[confident regression]"));
    let o = kforecast(&[
        "check",
        "--deny-regressions",
        "--base",
        "test-workspaces/triton/previous",
        "test-workspaces/triton",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
}

#[test]
fn check_uses_git_head_by_default() {
    let before = workspace_file("cuda/previous/src/transpose.cu");
    let repo = git_repo(&[("t.cu", &before)]);
    std::fs::write(repo.path().join("t.cu"), workspace_file("cuda/src/transpose.cu")).expect("write");
    let cache = tempfile::tempdir().expect("tempdir");
    let o = Command::new(binary())
        .args(["check", "--json", "t.cu"])
        .env("KFORECAST_CACHE_DIR", cache.path())
        .current_dir(repo.path())
        .output()
        .expect("run");
    assert!(o.status.success(), "{}", stderr(&o));
    let v: Value = serde_json::from_str(stdout(&o).lines().next().expect("a line")).expect("json");
    assert_eq!(v["kernel"], "transpose");
    assert_eq!(v["baseline"], "HEAD");
    assert!(v["speedup"].as_f64().expect("speedup") > 1.0);
    // Committed: nothing changed any more.
    git(repo.path(), &["commit", "-qam", "tiled"]);
    let o = Command::new(binary())
        .args(["check", "t.cu"])
        .env("KFORECAST_CACHE_DIR", cache.path())
        .current_dir(repo.path())
        .output()
        .expect("run");
    assert!(stdout(&o).is_empty(), "{}", stdout(&o));
}

#[test]
fn forecast_json_has_the_documented_fields() {
    let o = kforecast(&[
        "forecast",
        "--json",
        "test-workspaces/triton/previous/kernels/matmul.py",
        "test-workspaces/triton/kernels/matmul.py",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: Value = serde_json::from_str(&stdout(&o)).expect("json");
    for field in ["speedup", "p_faster", "bins", "confidence", "defer", "forecaster", "reasons"] {
        assert!(v.get(field).is_some(), "missing {field}: {v}");
    }
    let bins: Vec<f64> = v["bins"].as_array().expect("bins").iter().filter_map(Value::as_f64).collect();
    assert_eq!(bins.len(), 8);
    assert!((bins.iter().sum::<f64>() - 1.0).abs() < 1e-4);
    assert!(v["speedup"].as_f64().expect("s") > 1.0);
    assert_eq!(v["defer"], false);
    // One kernel only.
    let o = kforecast(&[
        "forecast",
        "--kernel",
        "scale",
        "test-workspaces/cuda/previous/src/elementwise.cu",
        "test-workspaces/cuda/src/elementwise.cu",
    ]);
    assert!(stdout(&o).contains("`scale` the same kernel as"), "{}", stdout(&o));
}

#[test]
fn forecast_pairs_reads_jsonl_and_reports_bad_lines() {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = repo_root().join("test-workspaces");
    let pairs = format!(
        "{{\"base\": \"{0}/cuda/previous/src/transpose.cu\", \"candidate\": \"{0}/cuda/src/transpose.cu\"}}\n\
         {{\"base\": \"{0}/triton/previous/kernels/vector_add.py\", \"candidate\": \"{0}/triton/kernels/vector_add.py\"}}\n\
         {{\"base\": \"missing.cu\", \"candidate\": \"{0}/cuda/src/transpose.cu\"}}\n\
         not json\n",
        root.display()
    );
    let file = dir.path().join("pairs.jsonl");
    std::fs::write(&file, pairs).expect("write");
    let o = kforecast(&["forecast", "--pairs", &file.display().to_string()]);
    assert_eq!(o.status.code(), Some(2));
    let lines: Vec<Value> = stdout(&o).lines().map(|l| serde_json::from_str(l).expect("json line")).collect();
    assert_eq!(lines.len(), 4);
    assert!(lines[0]["speedup"].as_f64().expect("s") > 1.0);
    assert!(lines[1]["bins"].is_array());
    assert!(lines[2]["error"].as_str().expect("error").contains("missing.cu"));
    assert_eq!(lines[3]["line"], 4);
    assert!(stderr(&o).contains("pairs.jsonl:3"), "{}", stderr(&o));
}

#[test]
fn bad_files_are_clear_errors() {
    let o = kforecast(&["forecast", "nope.cu", "test-workspaces/cuda/src/transpose.cu"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("nope.cu: no such file"), "{}", stderr(&o));
    // A directory where a file is wanted says so, and where a directory is read.
    let o = kforecast(&["profile", "test-workspaces/cuda/src"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("test-workspaces/cuda/src: is a directory, not a file"), "{}", stderr(&o));
    // A base revision that does not exist is not "the file is not in it".
    let repo = git_repo(&[("k.cu", "__global__ void k(float* x) { x[0] = 1.0f; }\n")]);
    let file = repo.path().join("k.cu").display().to_string();
    let o = kforecast(&["check", "--base", "HEAD~5", &file]);
    assert!(stderr(&o).contains("git revision HEAD~5 does not exist"), "{}", stderr(&o));
    std::fs::write(repo.path().join("new.cu"), "__global__ void k(float* x) { x[0] = 1.0f; }\n").expect("write");
    let o = kforecast(&["check", &repo.path().join("new.cu").display().to_string()]);
    assert!(stderr(&o).contains("is not in git revision HEAD (the revision exists"), "{}", stderr(&o));
    let dir = tempfile::tempdir().expect("tempdir");
    let empty = dir.path().join("host.cu");
    std::fs::write(&empty, "int main() { return 0; }\n").expect("write");
    let o = kforecast(&["forecast", &empty.display().to_string(), "test-workspaces/cuda/src/transpose.cu"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("no __global__ kernel"), "{}", stderr(&o));
    let o = kforecast(&[
        "forecast",
        "--kernel",
        "nosuch",
        "test-workspaces/cuda/src/transpose.cu",
        "test-workspaces/cuda/src/transpose.cu",
    ]);
    assert!(stderr(&o).contains("no kernel named `nosuch`"), "{}", stderr(&o));
    let o = kforecast(&["check", "--threshold", "2", "test-workspaces/cuda"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("not a confidence between 0 and 1"), "{}", stderr(&o));
    let o = kforecast(&["check", "does/not/exist.cu"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("no such file"), "{}", stderr(&o));
}

#[test]
fn export_writes_stored_measurements_as_json_lines() {
    let out = kforecast(&["export"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stderr(&out).contains("exported 0 measurement"), "{}", stderr(&out));
    for line in stdout(&out).lines() {
        let _: Value = serde_json::from_str(line).expect("json line");
    }
}

#[test]
fn eval_scores_the_forecaster_on_the_measured_corpus() {
    let dir = tempfile::tempdir().expect("tempdir");
    let json = dir.path().join("m.json");
    let o = kforecast(&["eval", "corpus", "--split", "heldout", "--json", &json.display().to_string()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    for metric in ["direction accuracy, |log2 S| > 0.2", "Brier", "CRPS", "ECE", "AURC", "top-10% recovery"] {
        assert!(out.contains(metric), "{metric} missing:\n{out}");
    }
    let v: Value = serde_json::from_slice(&std::fs::read(&json).expect("json")).expect("parse");
    assert!(v["metrics"]["pairs"].as_u64().expect("pairs") > 100);
    let acc = v["metrics"]["direction_accuracy_clear"].as_f64().expect("accuracy");
    assert!((0.0..=1.0).contains(&acc));
    assert!(v["forecaster"].as_str().is_some_and(|f| f.starts_with("embedded-gbt/")), "the trained model by default");
    assert!(out.contains("deferral"), "the threshold trade-off:\n{out}");
    let o = kforecast(&["eval", "corpus", "--forecaster", "analytic"]);
    assert!(stdout(&o).contains("embedded-roofline"), "{}", stdout(&o));
    let bad = dir.path().join("bad.json");
    std::fs::write(&bad, "{\"format\": 1}").expect("write");
    let o = kforecast(&["eval", "corpus", "--model", &bad.display().to_string()]);
    assert!(!o.status.success() && stderr(&o).contains("bad.json"), "{}", stderr(&o));
    let o = kforecast(&["eval", "corpus", "--split", "nope"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn eval_of_a_set_scores_the_weights_given_and_names_a_missing_split() {
    let dir = tempfile::tempdir().expect("tempdir");
    let bad = dir.path().join("bad.json");
    std::fs::write(&bad, "{\"format\": 1}").expect("write");
    // Weights given with --set are the ones scored: bad ones are an error, not ignored.
    let o = kforecast(&["eval", "--set", "corpus/foreign", "--split", "calib", "--model", &bad.display().to_string()]);
    assert!(!o.status.success() && stderr(&o).contains("bad.json"), "{}", stderr(&o));
    let json = dir.path().join("m.json");
    let shipped = repo_root().join("server/core/model/h100.json");
    let o = kforecast(&[
        "eval",
        "--set",
        "corpus/foreign",
        "--split",
        "calib",
        "--model",
        &shipped.display().to_string(),
        "--json",
        &json.display().to_string(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: Value = serde_json::from_slice(&std::fs::read(&json).expect("json")).expect("parse");
    assert!(v["splits"][0]["metrics"]["pairs"].as_u64().expect("pairs") > 50, "{v}");
    // The analytic baseline scores a set too, under its own name.
    let o =
        kforecast(&["eval", "--set", "corpus/foreign", "--split", "calib", "--forecaster", "analytic", "--per-family"]);
    assert!(o.status.success() && stdout(&o).contains("embedded-roofline"), "{}", stderr(&o));
    // Each family's clear pairs right, and of those kept, right: where the misses are.
    let report = stdout(&o);
    let rows = report.lines().skip_while(|l| !l.contains("per family:")).skip(1);
    assert!(rows.filter(|l| l.contains(" kept ") && l.contains('/')).count() > 3, "{report}");
    // A calibration split the set lacks is named with the splits it has.
    let o = kforecast(&["eval", "--fit-doubt", "corpus/foreign:nope"]);
    assert!(!o.status.success() && stderr(&o).contains("calib, report"), "{}", stderr(&o));
}

#[test]
fn retraining_from_the_corpus_reproduces_the_shipped_weights() {
    let dir = tempfile::tempdir().expect("tempdir");
    let out = dir.path().join("h100.json");
    let o = kforecast(&["train", "corpus", "--out", &out.display().to_string()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let shipped = std::fs::read(repo_root().join("server/core/model/h100.json")).expect("shipped weights");
    assert!(std::fs::read(&out).expect("trained") == shipped, "retraining gave other weights than the shipped ones");
}

#[test]
fn calibration_learns_from_stored_measurements_and_rolls_back() {
    use kforecast_core::hash::ContentHash;
    use kforecast_core::store::{Store, Table};
    let cache = tempfile::tempdir().expect("tempdir");
    let run = |args: &[&str]| kforecast_in(cache.path(), args);
    let o = run(&["calibrate"]);
    assert!(stdout(&o).contains("no stored measurements yet"), "{}", stdout(&o));
    // Real H100 measurements from the corpus, stored as the server stores a verification.
    {
        let (store, _) = Store::open_in(cache.path()).expect("store");
        let text =
            std::fs::read_to_string(repo_root().join("corpus/measurements/h100-2026-11-21.jsonl")).expect("corpus");
        let mut rows = Vec::new();
        for (i, line) in text.lines().filter(|l| l.contains("\"family\":\"transpose\"")).take(12).enumerate() {
            let row: Value = serde_json::from_str(line).expect("row");
            let source =
                |k: &str| std::fs::read_to_string(repo_root().join(row[k].as_str().expect("path"))).expect("src");
            let stored = serde_json::json!({
                "kernel": row["kernel"], "language": row["language"],
                "base_source": source("base"), "candidate_source": source("candidate"),
                "measurement": row["result"], "measured_at": 1_700_000_000u64 + i as u64,
            });
            rows.push((ContentHash::of(line.as_bytes()), serde_json::to_vec(&stored).expect("json")));
        }
        store.put_many(Table::Measurements, &rows).expect("stored");
    }
    let o = run(&["calibrate"]);
    let out = stdout(&o);
    assert!(o.status.success() && out.contains("now:    version 1"), "{out}{}", stderr(&o));
    let o = run(&["calibrate", "--rollback"]);
    assert!(stdout(&o).contains("the shipped calibration"), "{}", stdout(&o));
}

#[test]
fn cuda_inside_python_is_found_forecast_and_given_a_job() {
    let relu =
        ["test-workspaces/foreign/kernelbench_relu/previous.py", "test-workspaces/foreign/kernelbench_relu/current.py"];
    let saxpy = ["test-workspaces/foreign/cupy_saxpy/previous.py", "test-workspaces/foreign/cupy_saxpy/current.py"];
    let matmul = [
        "test-workspaces/foreign/kernelbench_matmul/previous.py",
        "test-workspaces/foreign/kernelbench_matmul/current.py",
    ];
    for [base, cand] in [relu, saxpy, matmul] {
        let o = kforecast(&["forecast", "--json", base, cand]);
        assert!(o.status.success(), "{base}: {}", stderr(&o));
        let v: Value = serde_json::from_str(&stdout(&o)).expect("json");
        assert!(v["speedup"].as_f64().is_some_and(|s| s > 0.0), "{v}");
    }
    // The load_inline kernel is read as CUDA, with its sizes from `get_inputs()`.
    let o = kforecast(&["profile", "--json", relu[0]]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: Value = serde_json::from_str(&stdout(&o)).expect("json");
    assert_eq!(v["kernel"], "relu_kernel");
    assert_eq!(v["guesses"], 0, "{v}");
    // `check` over a folder finds the Python files with CUDA strings, and only those.
    let dir = tempfile::tempdir().expect("tempdir");
    let root = repo_root();
    for (side, file) in [("prev", saxpy[0]), ("cur", saxpy[1])] {
        std::fs::create_dir_all(dir.path().join(side)).expect("mkdir");
        std::fs::copy(root.join(file), dir.path().join(side).join("saxpy.py")).expect("copy");
        std::fs::write(dir.path().join(side).join("util.py"), "def f(x):\n    return x\n").expect("write");
    }
    let (prev, cur) = (dir.path().join("prev"), dir.path().join("cur"));
    let o = kforecast(&["check", "--base", &prev.display().to_string(), &cur.display().to_string()]);
    assert!(stdout(&o).contains("saxpy.py"), "{}{}", stdout(&o), stderr(&o));
    assert!(!stdout(&o).contains("util.py") && !stderr(&o).contains("util.py"), "{}{}", stdout(&o), stderr(&o));
    // Verify builds its job from the strings (whether or not a GPU is here to run it).
    let job = dir.path().join("job.json");
    let o = kforecast(&["verify", "--timeout", "30", "--emit-job", &job.display().to_string(), relu[0], relu[1]]);
    let text = std::fs::read_to_string(&job).unwrap_or_else(|_| panic!("no job: {}{}", stdout(&o), stderr(&o)));
    let v: Value = serde_json::from_str(&text).expect("job json");
    let cuda = &v["job"];
    assert_eq!(cuda["language"], "cuda");
    assert_eq!(cuda["candidate"]["grid"][0], 256, "{v}");
    assert!(cuda["candidate"]["source"].as_str().is_some_and(|s| s.contains("relu_kernel") && !s.contains("torch")));
    // A Python file with neither Triton nor CUDA strings says what it looked for.
    let plain = dir.path().join("plain.py");
    std::fs::write(&plain, "import torch\nx = torch.randn(4)\n").expect("write");
    let o = kforecast(&["forecast", &plain.display().to_string(), relu[1]]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("load_inline"), "{}", stderr(&o));
}

#[test]
fn profile_prints_units_for_people_and_json_for_machines() {
    let o = kforecast(&["profile", "test-workspaces/cuda/src/transpose.cu"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.starts_with("test-workspaces/cuda/src/transpose.cu:"), "{out}");
    assert!(out.contains("MB loaded") && out.contains("µs on an H100") && out.contains("threads"), "{out}");
    let o = kforecast(&["profile", "--json", "test-workspaces/cuda/src/transpose.cu"]);
    let v: Value = serde_json::from_str(&stdout(&o)).expect("JSON");
    assert_eq!(v["kernel"], "transpose");
    assert!(v["features"]["load_bytes"].is_number(), "{v}");
    // A PyTorch-only program is profiled as `forecast` reads it: its torch operations.
    let dir = tempfile::tempdir().expect("tempdir");
    let program = dir.path().join("reference.py");
    std::fs::write(
        &program,
        "import torch\n\ndef generate_input(n: int = 4096, seed: int = 0):\n    return torch.randn(n, n, device='cuda')\n\n\
         def ref_kernel(data):\n    return torch.softmax(data, dim=-1) * 2.0\n",
    )
    .expect("write");
    let o = kforecast(&["profile", &program.display().to_string()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("torch program `ref_kernel`") && out.contains("torch.softmax"), "{out}");
    assert!(out.contains("MB loaded"), "{out}");
    // Of two launches in exclusive branches, the profile says which one the sizes select.
    let branches = dir.path().join("branches.cu");
    std::fs::write(
        &branches,
        "__global__ void small_k(float* a, int n) { int i = threadIdx.x; if (i < n) a[i] *= 2.0f; }\n\
         __global__ void big_k(float* a, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) a[i] *= 2.0f; }\n\
         void run(float* a) {\n    const int n = 1 << 24;\n    if (n < 1024) small_k<<<1, 1024>>>(a, n);\n    \
         else big_k<<<(n + 255) / 256, 256>>>(a, n);\n}\n",
    )
    .expect("write");
    let o = kforecast(&["profile", &branches.display().to_string()]);
    let out = stdout(&o);
    assert!(out.contains("where `n < 1024`: does not run at the sizes read"), "{out}");
    assert!(out.contains("where not `n < 1024`: runs at the sizes read"), "{out}");
    // A dispatcher's `switch` on a value the file does not give: each case's kernel is read.
    std::fs::write(
        &branches,
        "__global__ void k1(float* a, int n) { int i = threadIdx.x; if (i < n) a[i] *= 2.0f; }\n\
         __global__ void k2(float* a, int n) { int i = threadIdx.x; if (i < n) a[i] += 2.0f; }\n\
         void run(int kernel_num, float* a, int n) {\n    switch (kernel_num) {\n        \
         case 1: k1<<<(n + 255) / 256, 256>>>(a, n); break;\n        case 2: k2<<<(n + 255) / 256, 256>>>(a, n); break;\n    }\n}\n",
    )
    .expect("write");
    let o = kforecast(&["profile", &branches.display().to_string()]);
    let out = stdout(&o);
    assert!(out.contains("where `kernel_num == 2`: runs at the sizes read"), "{out}");
}
