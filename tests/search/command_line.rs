//! `kforecast search` and `kforecast sweep` on the command line.

use super::*;

#[test]
fn the_command_line_prints_the_trajectory_and_the_best_variant_as_a_diff() {
    let t = table("vector_add.py", "add_kernel");
    let worker = fake_worker(&[&t], Duration::ZERO);
    let (out, stdout) = cli(&["search", "vector_add.py", "--budget", "3", "--seed", "2"], &worker);
    assert!(out.status.success(), "{stdout}{}", String::from_utf8_lossy(&out.stderr));
    assert!(stdout.contains("run  1/3") && stdout.contains("run  3/3") && !stdout.contains("run  4/3"), "{stdout}");
    assert!(stdout.contains("3 GPU run(s)") && stdout.contains("per GPU run"), "{stdout}");
    assert!(stdout.contains("best: ") && stdout.contains("measured") && stdout.contains("H100"), "{stdout}");
    assert!(stdout.contains("--- vector_add.py\n+++ vector_add.py (best variant)\n@@ "), "{stdout}");
    let (_, json) =
        cli(&["search", "vector_add.py", "--budget", "3", "--seed", "2", "--no-surrogate", "--json"], &worker);
    let o: Value = serde_json::from_str(json.trim()).expect("json");
    assert_eq!((o["runs"].as_u64(), o["considered"].as_u64()), (Some(3), Some(3)), "{o}");
    assert_eq!(worker.requests.load(Ordering::SeqCst), 6);
    let (out, _) = cli(&["search", "vector_add.py", "--kernel", "nope"], &worker);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no kernel named `nope`"));
    let (out, list) = cli(&["sweep", "vector_add.py", "--list"], &worker);
    assert!(out.status.success());
    assert_eq!(list.lines().count(), t.rows.len(), "the sweep lists the recorded variants");
}

#[test]
fn a_sweep_of_the_nearest_variants_writes_each_measured_variant() {
    let t = table("transpose.cu", "transpose");
    let worker = fake_worker(&[&t], Duration::ZERO);
    // The nearest first: one knob changed, before any variant that changes two.
    let (out, list) = cli(&["sweep", "transpose.cu", "--nearest", "--max", "4", "--list"], &worker);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let listed: Vec<&str> = list.lines().collect();
    assert_eq!(listed.len(), 4, "{list}");
    assert!(listed.iter().all(|l| !l.contains(", ")), "single knob steps first: {listed:?}");
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("nearest.jsonl");
    let (out, _) =
        cli(&["sweep", "transpose.cu", "--nearest", "--max", "4", "--json", &path.display().to_string()], &worker);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = std::fs::read_to_string(&path).expect("sweep lines");
    let lines: Vec<Value> = text.lines().map(|l| serde_json::from_str(l).expect("json")).collect();
    let described: Vec<&str> = lines.iter().filter_map(|l| l["description"].as_str()).collect();
    assert_eq!(described, listed, "one line per variant, in the listed order");
    for l in &lines {
        let row = &t.rows[l["text_hash"].as_str().expect("hash")];
        assert_eq!((&l["status"], &l["speedup"]), (&row["status"], &row["speedup"]), "{l}");
    }
}
