//! didChange → inlayHint round trip through the real server over stdio.
//!
//! `cargo bench -p kforecast --bench lsp_roundtrip`
//!
//! A 5,000-line CUDA file with 100 kernels is opened; then, 600 times, one kernel is
//! edited (an incremental didChange that alternates between two versions of a loop
//! bound, so both cache misses and hits occur) and the inlay hints of the whole file
//! are requested. The time from sending the change to receiving the hints is recorded;
//! the first 100 round trips are warm-up.
//!
//! Then a burst, as a fast typist with hints on makes it: 200 didChange + inlayHint
//! pairs sent at once to a 90-kernel file, without waiting for answers, 5 times. Each
//! answer's latency is counted from its own request's sending; a request overtaken by a
//! later edit may be answered `ContentModified`; the last answer must be the hints of
//! the latest text. `KFORECAST_BIN` runs another binary (e.g. an older build).
//!
//! Then a 10 MB file (about 4,500 such kernels): the time from its `didOpen` to the hint
//! of an edit made right after it (the visible range of an editor, its first 100 lines,
//! and then the whole file), an edit's round trip in it, and the server's peak RSS.
//!
//! Then files whose parse is pathological (runs of `*/`): the time from `didOpen` to the
//! answer of the next request.
//!
//! Arguments (after `--`) choose sections: `roundtrip`, `burst`, `large`, `comment`
//! (default: all). Each section prints the load average of the machine beside its figures.

#[path = "../../../tests/common/mod.rs"]
mod common;

use common::{uri_of, Client};
use serde_json::{json, Value};
use std::collections::HashMap;
use std::time::{Duration, Instant};

const LINES_PER_KERNEL: usize = 50;

fn kernel(i: usize) -> String {
    let mut s = format!(
        "// Kernel {i}: scaled row update with a strided read.\n\
         __global__ void __launch_bounds__(256) update_{i}(const float* __restrict__ x, float* __restrict__ y, int n, int stride, float alpha)\n\
         {{\n\
         \x20   int tid = blockIdx.x * blockDim.x + threadIdx.x;\n\
         \x20   float acc = 0.0f;\n\
         \x20   for (int k = 0; k < 8; ++k) {{\n\
         \x20       acc += alpha * x[(tid + k * stride) % n];\n\
         \x20   }}\n\
         \x20   if (tid < n) y[tid] = acc;\n"
    );
    let mut line = 9;
    while line < LINES_PER_KERNEL - 6 {
        s += &format!("    // step {line}: keep the accumulator in a register\n");
        line += 1;
    }
    s += "}\n\nvoid launch_";
    s += &format!("{i}(const float* x, float* y, int n, int stride) {{\n    update_{i}<<<(n + 255) / 256, 256>>>(x, y, n, stride, 0.5f);\n}}\n\n");
    s
}

/// The lines of each kernel's `k < 8` loop bound, and the bound's column.
fn loop_bounds(text: &str) -> (Vec<u32>, u32) {
    let lines = text
        .lines()
        .enumerate()
        .filter(|(_, l)| l.contains("for (int k = 0; k < 8; ++k)"))
        .map(|(n, _)| n as u32)
        .collect();
    (lines, "    for (int k = 0; k < ".len() as u32)
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    let idx = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[idx.min(sorted.len() - 1)]
}

/// A server with a file of `kernels` kernels open and analysed: (client, text, uri, its folder).
fn opened(kernels: usize) -> (Client, String, String, tempfile::TempDir) {
    let text: String = (0..kernels).map(kernel).collect();
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("big.cu");
    std::fs::write(&path, &text).expect("write");
    let uri = uri_of(&path);
    let mut c = Client::start();
    c.initialize(Value::Null);
    c.open(&uri, "cuda", &text);
    let _ = c.inlay_hints(&uri);
    (c, text, uri, dir)
}

/// `load average 1.2 / 3.4 / 5.6` (1, 5 and 15 minutes), where Linux gives it.
fn load() -> String {
    let avg = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    let v: Vec<&str> = avg.split_whitespace().take(3).collect();
    format!("load average {}", v.join(" / "))
}

fn main() {
    let chosen: Vec<String> = std::env::args().skip(1).filter(|a| !a.starts_with('-')).collect();
    let run = |name: &str| chosen.is_empty() || chosen.iter().any(|c| c == name);
    if run("roundtrip") {
        roundtrip();
    }
    if run("burst") {
        burst();
    }
    if run("large") {
        large();
    }
    if run("comment") {
        comment();
    }
}

/// Sequential didChange → inlayHint round trips on a 100-kernel file.
fn roundtrip() {
    let before = load();
    let (mut c, text, uri, _dir) = opened(100);
    let lines = text.lines().count();

    // The `k < 8` bound of kernel `i` sits on line 5 of its block.
    let (kernel_lines, col) = loop_bounds(&text);
    let mut times = Vec::new();
    for round in 0..600usize {
        let version = round + 2;
        let line = kernel_lines[(round * 37) % kernel_lines.len()];
        // Toggle this kernel's loop bound between 8 and 9 (one character).
        let start = Instant::now();
        c.notify(
            "textDocument/didChange",
            json!({
                "textDocument": {"uri": uri, "version": version},
                "contentChanges": [{"range": {"start": {"line": line, "character": col}, "end": {"line": line, "character": col + 1}}, "text": if round % 2 == 0 { "9" } else { "8" }}]
            }),
        );
        let hints = c.inlay_hints(&uri);
        let elapsed = start.elapsed().as_secs_f64() * 1e3;
        assert!(hints.len() <= 100);
        if round >= 100 {
            times.push(elapsed);
        }
    }
    times.sort_by(f64::total_cmp);
    println!(
        "didChange → inlayHint round trip, {lines} lines, 100 kernels, {} timed edits (after 100 warm-up)",
        times.len()
    );
    println!(
        "  p50 {:.2} ms   p90 {:.2} ms   p99 {:.2} ms   max {:.2} ms   (target p99 <= 10 ms)",
        percentile(&times, 0.5),
        percentile(&times, 0.9),
        percentile(&times, 0.99),
        times[times.len() - 1]
    );
    println!("  ({before} before, {} after)", load());
    let _ = c.shutdown();
}

/// Records an answer to one of the burst's requests.
fn answered(
    r: Value,
    sent: &mut HashMap<i64, Instant>,
    times: &mut Vec<f64>,
    modified: &mut usize,
    last_id: i64,
    last: &mut Value,
) {
    let Some(rid) = r.get("id").and_then(Value::as_i64) else { return };
    let Some(at) = sent.remove(&rid) else { return };
    times.push(at.elapsed().as_secs_f64() * 1e3);
    if r["error"]["code"] == -32801 {
        *modified += 1;
    }
    if rid == last_id {
        *last = r;
    }
}

/// 5 bursts of 200 didChange + inlayHint pairs on a 90-kernel file.
fn burst() {
    let before = load();
    let (mut c, text, uri, _dir) = opened(90);
    let (kernel_lines, col) = loop_bounds(&text);
    let hint_request = |id: i64| {
        serde_json::to_vec(&json!({"jsonrpc": "2.0", "id": id, "method": "textDocument/inlayHint", "params": {
            "textDocument": {"uri": uri},
            "range": {"start": {"line": 0, "character": 0}, "end": {"line": 100000, "character": 0}}}}))
        .expect("json")
    };
    let mut times = Vec::new();
    let mut per_burst = Vec::new();
    let (mut modified, mut stale_last) = (0, 0);
    let mut version = 1;
    let mut id = 1_000_000i64;
    for b in 0..5usize {
        let mut sent: HashMap<i64, Instant> = HashMap::new();
        let first = times.len();
        let mut last_id = 0;
        let mut last = Value::Null;
        for round in 0..200usize {
            version += 1;
            let line = kernel_lines[(b * 200 + round) * 7 % kernel_lines.len()];
            let digit = if (b * 200 + round) % 2 == 0 { "9" } else { "8" };
            c.notify(
                "textDocument/didChange",
                json!({
                    "textDocument": {"uri": uri, "version": version},
                    "contentChanges": [{"range": {"start": {"line": line, "character": col}, "end": {"line": line, "character": col + 1}}, "text": digit}]
                }),
            );
            id += 1;
            sent.insert(id, Instant::now());
            c.send_raw(&hint_request(id));
            last_id = id;
            // Answers are timed as they arrive, also while the burst is being sent.
            while let Some(r) = c.next_response(Duration::ZERO) {
                answered(r, &mut sent, &mut times, &mut modified, last_id, &mut last);
            }
        }
        while !sent.is_empty() {
            let r = c.next_response(Duration::from_secs(60)).expect("an answer within 60 s");
            answered(r, &mut sent, &mut times, &mut modified, last_id, &mut last);
        }
        let mut this: Vec<f64> = times[first..].to_vec();
        this.sort_by(f64::total_cmp);
        per_burst.push(format!("{:.0}/{:.0}", percentile(&this, 0.5), this[this.len() - 1]));
        // The answer to the last request is the hints of the latest text.
        let now = c.request(
            "textDocument/inlayHint",
            json!({"textDocument": {"uri": uri},
            "range": {"start": {"line": 0, "character": 0}, "end": {"line": 100000, "character": 0}}}),
        );
        if last.get("result") != now.get("result") {
            stale_last += 1;
        }
    }
    times.sort_by(f64::total_cmp);
    println!(
        "burst: 5 x 200 didChange + inlayHint sent at once, 90 kernels ({} lines): {} answers, {} ContentModified",
        text.lines().count(),
        times.len(),
        modified
    );
    println!(
        "  p50 {:.2} ms   p90 {:.2} ms   p99 {:.2} ms   max {:.2} ms   (target p99 <= 50 ms); last answer not the latest text's hints in {} of 5 bursts",
        percentile(&times, 0.5),
        percentile(&times, 0.9),
        percentile(&times, 0.99),
        times[times.len() - 1],
        stale_last
    );
    println!("  each burst's p50/max (ms): {}", per_burst.join(", "));
    println!("  ({before} before, {} after)", load());
    let _ = c.shutdown();
}

/// The server's peak resident memory (`VmHWM`), in MB.
fn peak_rss_mb(pid: u32) -> f64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    let kb = status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.split_whitespace().next()?.parse::<f64>().ok())
        .unwrap_or(f64::NAN);
    kb / 1024.0
}

fn hint_range_request(uri: &str, lines: u32) -> Value {
    json!({"textDocument": {"uri": uri}, "range": {"start": {"line": 0, "character": 0}, "end": {"line": lines, "character": 0}}})
}

fn hints_of(answer: &Value) -> usize {
    answer["result"].as_array().map_or(0, Vec::len)
}

/// A 10 MB file: first hint after opening, an edit's round trip, peak RSS.
fn large() {
    let before = load();
    let mut text = String::new();
    let mut kernels = 0;
    while text.len() < 10 * 1024 * 1024 {
        text += &kernel(kernels);
        kernels += 1;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("huge.cu");
    std::fs::write(&path, &text).expect("write");
    let uri = uri_of(&path);
    let (lines, col) = loop_bounds(&text);
    let mut c = Client::start();
    c.initialize(Value::Null);
    let rss_idle = peak_rss_mb(c.pid());
    let edit = |c: &mut Client, version: i64, line: u32, digit: &str| {
        c.change(&uri, version, (line, col), (line, col + 1), digit);
    };
    let start = Instant::now();
    c.open(&uri, "cuda", &text);
    // The user types in the first kernel right away; the editor asks for the visible lines.
    edit(&mut c, 2, lines[0], "9");
    let first = c.request("textDocument/inlayHint", hint_range_request(&uri, 100));
    let first_hint = start.elapsed().as_secs_f64();
    let whole = c.request("textDocument/inlayHint", hint_range_request(&uri, 1_000_000));
    let whole_hints = start.elapsed().as_secs_f64();
    // Edits in the middle of the file, each followed by the hints of its lines.
    let mut round_trips = Vec::new();
    for (n, version) in (3..23).enumerate() {
        let line = lines[lines.len() / 2 + n];
        let t = Instant::now();
        edit(&mut c, version, line, "9");
        let r = c.request(
            "textDocument/inlayHint",
            json!({"textDocument": {"uri": uri}, "range": {"start": {"line": line - 10, "character": 0}, "end": {"line": line + 90, "character": 0}}}),
        );
        assert_eq!(hints_of(&r), 1, "{r}");
        round_trips.push(t.elapsed().as_secs_f64() * 1e3);
    }
    round_trips.sort_by(f64::total_cmp);
    let rss = peak_rss_mb(c.pid());
    println!(
        "10 MB file: {:.1} MB, {kernels} kernels, {} lines (targets: first hint <= 1 s, peak RSS <= 200 MB)",
        text.len() as f64 / 1e6,
        text.lines().count()
    );
    println!(
        "  didOpen + an edit -> first hint (first 100 lines): {:.2} s ({} hint); the whole file's hints: {:.2} s ({} hints)",
        first_hint,
        hints_of(&first),
        whole_hints,
        hints_of(&whole)
    );
    println!(
        "  edit -> hints of its lines, 20 edits: p50 {:.1} ms, max {:.1} ms; peak RSS {:.0} MB (idle server {:.0} MB)",
        percentile(&round_trips, 0.5),
        round_trips[round_trips.len() - 1],
        rss,
        rss_idle
    );
    println!("  ({before} before, {} after)", load());
    let _ = c.shutdown();
}

/// Files of `*/` runs (tree-sitter's error recovery is slow on them): didOpen → the next answer.
fn comment() {
    let before = load();
    // (what, file name, before the run, the run, its repeats, after it)
    let triton = "import triton\n\n@triton.jit\ndef k(x):\n";
    let cuda = "__global__ void k(float* a, int i) {\n";
    let cases = [
        ("Triton, `x = */*/…` after a kernel", "slow.py", format!("{triton}    pass\n\nx = "), "*/", 1700, "\n"),
        ("Triton, `*/ ` runs in a kernel body", "slow2.py", format!("{triton}    y = 1\n    "), "*/ ", 1100, "\n"),
        ("CUDA, `*/ ` runs in a kernel body", "slow.cu", cuda.to_string(), "*/ ", 1600, "\n a[0] = a[1];\n}\n"),
        ("CUDA, `a[i] = a[i+1] */ */ …`", "slow2.cu", format!("{cuda} a[i] = a[i+1] "), "*/ ", 1600, ";\n}\n"),
    ];
    let dir = tempfile::tempdir().expect("tempdir");
    println!("`*/` files: didOpen -> the answer to the next request (target <= 1 s)");
    for (what, name, head, run, repeats, tail) in cases {
        let text = format!("{head}{}{tail}", run.repeat(repeats));
        let language = if name.ends_with(".py") { "python" } else { "cuda" };
        let path = dir.path().join(name);
        std::fs::write(&path, &text).expect("write");
        let uri = uri_of(&path);
        let mut c = Client::start();
        c.initialize(Value::Null);
        let start = Instant::now();
        c.open(&uri, language, &text);
        let status = c.request("kforecast/status", Value::Null);
        let answered = start.elapsed().as_secs_f64();
        assert!(status.get("result").is_some(), "{status}");
        let hints = c.request("textDocument/inlayHint", hint_range_request(&uri, 1000));
        println!(
            "  {what} ({:.1} KB): {:.2} s (then the hints in {:.2} s)",
            text.len() as f64 / 1e3,
            answered,
            start.elapsed().as_secs_f64() - answered
        );
        assert!(hints.get("result").is_some() || hints.get("error").is_some(), "{hints}");
        let _ = c.shutdown();
    }
    println!("  ({before} before, {} after)", load());
}
