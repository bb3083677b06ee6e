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

fn main() {
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
    let _ = c.shutdown();
    burst();
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
    let (mut c, text, uri, _dir) = opened(90);
    let (kernel_lines, col) = loop_bounds(&text);
    let hint_request = |id: i64| {
        serde_json::to_vec(&json!({"jsonrpc": "2.0", "id": id, "method": "textDocument/inlayHint", "params": {
            "textDocument": {"uri": uri},
            "range": {"start": {"line": 0, "character": 0}, "end": {"line": 100000, "character": 0}}}}))
        .expect("json")
    };
    let mut times = Vec::new();
    let (mut modified, mut stale_last) = (0, 0);
    let mut version = 1;
    let mut id = 1_000_000i64;
    for b in 0..5usize {
        let mut sent: HashMap<i64, Instant> = HashMap::new();
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
    let _ = c.shutdown();
}
