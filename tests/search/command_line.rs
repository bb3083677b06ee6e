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
