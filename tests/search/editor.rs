//! The language server's search: progress, cancelling, the status of the workers, a
//! kernel that cannot run, and the best variant applied as an edit.

use super::*;

fn code_action_titles(c: &mut Client, uri: &str, line: u32) -> Vec<Value> {
    let actions = c.request(
        "textDocument/codeAction",
        json!({"textDocument": {"uri": uri}, "range": {"start": {"line": line, "character": 0}, "end": {"line": line, "character": 0}}, "context": {"diagnostics": []}}),
    );
    actions["result"].as_array().cloned().unwrap_or_default()
}

fn find_action<'a>(actions: &'a [Value], prefix: &str) -> Option<&'a Value> {
    actions.iter().find(|a| a["title"].as_str().is_some_and(|t| t.starts_with(prefix)))
}

/// The first `$/progress` of this kind.
fn progress(c: &mut Client, kind: &'static str) -> Value {
    c.wait_notification(move |n| n["method"] == "$/progress" && n["params"]["value"]["kind"] == kind)
}

#[test]
fn the_editor_searches_reports_progress_and_applies_the_best_variant() {
    let t = table("transpose.cu", "transpose");
    let worker = fake_worker(&[&t], Duration::ZERO);
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("transpose.cu");
    std::fs::write(&path, &t.text).expect("write");
    let uri = uri_of(&path);
    let cache = tempfile::tempdir().expect("cache");
    let mut c = Client::start_in(cache.path());
    let init =
        c.initialize(json!({"gpuWorkers": [{"url": worker.url, "token": "t"}], "search": {"budget": 4, "seed": 1}}));
    let commands = init["result"]["capabilities"]["executeCommandProvider"]["commands"].to_string();
    assert!(commands.contains("kforecast.search") && commands.contains("kforecast.applySearch"), "{commands}");
    c.open(&uri, "cuda", &t.text);
    let line = position_of(&t.text, "transpose(const").0;
    let actions = code_action_titles(&mut c, &uri, line);
    assert!(
        find_action(&actions, "Search faster variants of `transpose` (budget: 4 GPU runs)").is_some(),
        "{actions:?}"
    );
    assert!(find_action(&actions, "Apply:").is_none());

    let started = execute(&mut c, "kforecast.search", &uri, "transpose");
    assert_eq!(started["result"]["started"], true, "{started}");
    let begin = progress(&mut c, "begin");
    assert_eq!(begin["params"]["value"]["cancellable"], true, "{begin}");
    let report = progress(&mut c, "report");
    assert!(report["params"]["value"]["percentage"].is_u64(), "{report}");
    assert!(report["params"]["value"]["message"].as_str().unwrap_or("").contains("GPU runs"), "{report}");
    let end = progress(&mut c, "end");
    let message = end["params"]["value"]["message"].as_str().expect("message").to_string();
    assert!(message.contains("best") && message.contains("faster") && message.contains("4 GPU run(s)"), "{message}");
    assert_eq!(worker.requests.load(Ordering::SeqCst), 4, "the budget is the number of jobs sent");

    let actions = code_action_titles(&mut c, &uri, line);
    let apply = find_action(&actions, "Apply: ").unwrap_or_else(|| panic!("{actions:?}")).clone();
    let title = apply["title"].as_str().expect("title").to_string();
    assert!(title.ends_with("faster (measured on H100)"), "{title}");

    // The document changes: the edit is refused, with a message.
    c.change(&uri, 2, (0, 0), (0, 0), "// a note\n");
    let actions = code_action_titles(&mut c, &uri, line + 1);
    let stale = find_action(&actions, "Apply: ").expect("still listed");
    assert!(stale["disabled"]["reason"].as_str().unwrap_or("").contains("changed"), "{stale}");
    let refused = execute(&mut c, "kforecast.applySearch", &uri, "transpose");
    assert!(refused["error"]["message"].as_str().unwrap_or("").contains("changed since the search"), "{refused}");
    c.wait_notification(|n| {
        n["method"] == "window/showMessage" && n["params"]["message"].as_str().unwrap_or("").contains("not applied")
    });
    assert!(c.server_requests.iter().all(|r| r["method"] != "workspace/applyEdit"));

    // Back to the searched text: the edit goes to the editor and gives the best variant.
    c.change(&uri, 3, (0, 0), (1, 0), "");
    let applied = execute(&mut c, "kforecast.applySearch", &uri, "transpose");
    assert_eq!(applied["result"]["applied"], true, "{applied}");
    let request = c.server_requests.iter().find(|r| r["method"] == "workspace/applyEdit").expect("applyEdit").clone();
    let edits = request["params"]["edit"]["changes"][&uri].as_array().expect("edits").clone();
    let result = apply_edits(&t.text, &edits);
    let speedup = recorded_speedup(&t, &result);
    assert!(
        title.contains(&format!("{:.1}×", speedup)) || title.contains(&format!("{:.2}×", speedup)),
        "{title} {speedup}"
    );
    for h in diff::hunks(&t.text, &result) {
        let line = &t.text[h.old.start..h.old.end];
        assert!(line.starts_with("#define") || line.contains("__launch_bounds__"), "only the knobs change: {h:?}");
    }

    // The same search again is answered from memory, and after a restart from the store.
    let again = execute(&mut c, "kforecast.search", &uri, "transpose");
    assert_eq!(again["result"]["stored"], true, "{again}");
    assert!(c.shutdown().success());
    let mut c = Client::start_in(cache.path());
    c.initialize(json!({"gpuWorkers": [{"url": worker.url, "token": "t"}], "search": {"budget": 4, "seed": 1}}));
    c.open(&uri, "cuda", &t.text);
    let again = execute(&mut c, "kforecast.search", &uri, "transpose");
    assert_eq!(again["result"]["stored"], true, "{again}");
    assert_eq!(worker.requests.load(Ordering::SeqCst), 4, "no new GPU job");
    assert!(find_action(&code_action_titles(&mut c, &uri, line), "Apply: ").is_some());
    assert!(c.shutdown().success());
}

#[test]
fn the_editor_can_cancel_a_search() {
    let t = table("vector_add.py", "add_kernel");
    let worker = fake_worker(&[&t], Duration::from_millis(300));
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("vector_add.py");
    std::fs::write(&path, &t.text).expect("write");
    let uri = uri_of(&path);
    let mut c = Client::start();
    c.initialize(json!({"kforecast": {"gpuWorkers": [{"url": worker.url, "token": "t"}], "search": {"budget": 40}}}));
    c.open(&uri, "python", &t.text);
    let line = position_of(&t.text, "def add_kernel").0;
    assert_eq!(execute(&mut c, "kforecast.search", &uri, "add_kernel")["result"]["started"], true);
    let begin = progress(&mut c, "begin");
    let token = begin["params"]["token"].clone();
    c.wait_notification(|n| {
        n["method"] == "$/progress" && n["params"]["value"]["message"].as_str().is_some_and(|m| m.starts_with("1/40"))
    });
    let actions = code_action_titles(&mut c, &uri, line);
    assert!(find_action(&actions, "Cancel the search").is_some(), "{actions:?}");
    c.notify("window/workDoneProgress/cancel", json!({"token": token}));
    let end = progress(&mut c, "end");
    let message = end["params"]["value"]["message"].as_str().unwrap_or("").to_string();
    assert!(message.contains("cancelled"), "{message}");
    let sent = worker.requests.load(Ordering::SeqCst);
    assert!(sent < 10, "stopped promptly: {sent} jobs");
    // A new search can start; the server is fine.
    let actions = code_action_titles(&mut c, &uri, line);
    assert!(find_action(&actions, "Search faster variants of `add_kernel` (budget: 40 GPU runs)").is_some());
    let status = c.request("kforecast/status", Value::Null);
    assert_eq!(status["result"]["jobs"], 0, "{status}");
    // The status bar's worker count: this worker answered its jobs.
    assert_eq!(status["result"]["gpuWorkers"], json!([{"url": worker.url, "state": "up"}]), "{status}");
    assert!(c.shutdown().success());
}

#[test]
fn the_status_says_which_gpu_workers_answered() {
    let t = table("transpose.cu", "transpose");
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("transpose.cu");
    std::fs::write(&path, &t.text).expect("write");
    let uri = uri_of(&path);
    let mut c = Client::start();
    c.initialize(json!({"gpuWorkers": [{"url": "http://127.0.0.1:1", "token": "t"}], "search": {"budget": 2}}));
    c.open(&uri, "cuda", &t.text);
    let status = c.request("kforecast/status", Value::Null);
    assert_eq!(status["result"]["gpuWorkers"], json!([{"url": "http://127.0.0.1:1", "state": "unused"}]), "{status}");
    // A search whose only worker is not there: the job fails and the worker shows as down.
    assert_eq!(execute(&mut c, "kforecast.search", &uri, "transpose")["result"]["started"], true);
    progress(&mut c, "end");
    let status = c.request("kforecast/status", Value::Null);
    assert_eq!(status["result"]["gpuWorkers"][0]["state"], "down", "{status}");
    assert!(c.shutdown().success());
}

#[test]
fn a_kernel_that_cannot_run_is_refused_with_the_reason() {
    let t = table("transpose.cu", "transpose");
    let text = t.text.replace("// kforecast: rows = 4096; cols = 4096; ", "// ");
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("transpose.cu");
    std::fs::write(&path, &text).expect("write");
    let uri = uri_of(&path);
    let mut c = Client::start();
    c.initialize(json!({"search": {"budget": "lots"}}));
    c.wait_notification(|n| {
        n["method"] == "window/showMessage"
            && n["params"]["message"].as_str().unwrap_or("").contains("kforecast.search.budget")
    });
    c.open(&uri, "cuda", &text);
    let resp = execute(&mut c, "kforecast.search", &uri, "transpose");
    let e = resp["error"]["message"].as_str().unwrap_or("").to_string();
    assert!(e.starts_with("cannot search `transpose`: cannot run `transpose`"), "{resp}");
    let resp = execute(&mut c, "kforecast.applySearch", &uri, "transpose");
    assert!(resp["error"]["message"].as_str().unwrap_or("").contains("no finished search"), "{resp}");
    assert!(c.alive());
    assert!(c.shutdown().success());
}
