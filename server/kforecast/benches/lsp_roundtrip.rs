//! didChange → inlayHint round trip through the real server over stdio.
//!
//! `cargo bench -p kforecast --bench lsp_roundtrip`
//!
//! A 5,000-line CUDA file with 100 kernels is opened; then, 600 times, one kernel is
//! edited (an incremental didChange that alternates between two versions of a loop
//! bound, so both cache misses and hits occur) and the inlay hints of the whole file
//! are requested. The time from sending the change to receiving the hints is recorded;
//! the first 100 round trips are warm-up.

#[path = "../../../tests/common/mod.rs"]
mod common;

use common::{uri_of, Client};
use serde_json::{json, Value};
use std::time::Instant;

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

fn percentile(sorted: &[f64], p: f64) -> f64 {
    let idx = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[idx.min(sorted.len() - 1)]
}

fn main() {
    let text: String = (0..100).map(kernel).collect();
    let lines = text.lines().count();
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("big.cu");
    std::fs::write(&path, &text).expect("write");
    let uri = uri_of(&path);

    let mut c = Client::start();
    c.initialize(Value::Null);
    c.open(&uri, "cuda", &text);
    let _ = c.inlay_hints(&uri);

    // The `k < 8` bound of kernel `i` sits on line 5 of its block.
    let kernel_lines: Vec<u32> = text
        .lines()
        .enumerate()
        .filter(|(_, l)| l.contains("for (int k = 0; k < 8; ++k)"))
        .map(|(n, _)| n as u32)
        .collect();
    let col = "    for (int k = 0; k < ".len() as u32;
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
}
