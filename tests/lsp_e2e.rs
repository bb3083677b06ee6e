//! End-to-end: the real `kforecast lsp` over stdio, driven like an editor.

mod common;

use common::*;
use serde_json::{json, Value};

const COPY: &str = r#"// Strided gather into a contiguous output.
__global__ void gather(const float* __restrict__ in, float* __restrict__ out, int n, int stride)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = 2.0f * in[i * stride];
}

// Divide a row by its sum.
__global__ void normalize(const float* __restrict__ x, float* __restrict__ y, int n)
{
    __shared__ float total;
    float s = 0.0f;
    for (int i = threadIdx.x; i < n; i += blockDim.x) s += x[i];
    if (threadIdx.x == 0) total = 0.0f;
    __syncthreads();
    atomicAdd(&total, s);
    __syncthreads();
    for (int i = threadIdx.x; i < n; i += blockDim.x) y[i] = x[i] / total;
}

void launch(const float* in, float* out, float* y, int n, int stride)
{
    gather<<<(n + 255) / 256, 256>>>(in, out, n, stride);
    normalize<<<1, 1024>>>(in, y, n);
}
"#;

fn hint_for<'a>(hints: &'a [String], needle: &str) -> Option<&'a String> {
    hints.iter().find(|h| h.contains(needle))
}

#[test]
fn cuda_edits_are_forecast_against_git_head() {
    let repo = git_repo(&[("kernels.cu", COPY)]);
    let uri = uri_of(&repo.path().join("kernels.cu"));
    let mut c = Client::start();
    let init = c.initialize(json!({"confidenceThreshold": 0.6}));
    assert_eq!(init["result"]["capabilities"]["positionEncoding"], "utf-16");
    assert_eq!(init["result"]["capabilities"]["textDocumentSync"], 2);
    c.open(&uri, "cuda-cpp", COPY);
    assert!(c.inlay_hints(&uri).is_empty(), "an unchanged file has no hints");

    // Uncoalesced → coalesced: delete ` * stride` from the gather's load.
    let text = COPY;
    let (line, col) = position_of(text, " * stride]");
    c.change(&uri, 2, (line, col), (line, col + 9), "");
    let hints = c.inlay_hints(&uri);
    assert_eq!(hints.len(), 1, "one changed kernel: {hints:?}");
    assert!(hints[0].contains("faster"), "coalescing is faster: {hints:?}");
    // The hint sits after the body's `{` (here on the line below the signature), never
    // between the signature's `)` and the `{`.
    let raw = c.request(
        "textDocument/inlayHint",
        json!({"textDocument": {"uri": uri}, "range": {"start": {"line": 0, "character": 0}, "end": {"line": 1000, "character": 0}}}),
    );
    let at = &raw["result"][0]["position"];
    let edited = COPY.replacen(" * stride]", "]", 1);
    let brace = position_of(&edited, "{\n    int i = blockIdx.x");
    assert_eq!(
        (at["line"].as_u64(), at["character"].as_u64()),
        (Some(brace.0 as u64), Some(brace.1 as u64 + 1)),
        "{raw}"
    );

    // The row normalised by one warp instead of 32: far fewer loads in flight.
    let text = text.replacen(" * stride]", "]", 1);
    let (line, col) = position_of(&text, "1024>>>(in, y, n)");
    c.change(&uri, 3, (line, col), (line, col + 4), "32");
    let text = text.replacen("1024>>>(in, y, n)", "32>>>(in, y, n)", 1);
    let hints = c.inlay_hints(&uri);
    assert_eq!(hints.len(), 2, "{hints:?}");
    let slower = hint_for(&hints, "slower").unwrap_or_else(|| panic!("one warp is slower: {hints:?}"));
    assert!(slower.contains('%'));

    // A confident regression is an Information diagnostic on the kernel's name.
    let diag = c.wait_notification(|n| {
        n["method"] == "textDocument/publishDiagnostics"
            && n["params"]["version"] == 3
            && n["params"]["diagnostics"].as_array().is_some_and(|d| !d.is_empty())
    });
    let d = &diag["params"]["diagnostics"][0];
    assert_eq!(d["severity"], 3);
    assert_eq!(d["source"], "kforecast");
    assert!(d["message"].as_str().unwrap_or("").contains("normalize"));
    let name_line = position_of(&text, "normalize(const").0;
    assert_eq!(d["range"]["start"]["line"], name_line);

    // Code lenses above both changed kernels, naming the baseline.
    let lenses = c.request("textDocument/codeLens", json!({"textDocument": {"uri": uri}}));
    let titles: Vec<String> = lenses["result"]
        .as_array()
        .expect("lenses")
        .iter()
        .filter_map(|l| l["command"]["title"].as_str().map(str::to_string))
        .collect();
    // The lens says what the hint says, and against what.
    let gather = hint_for(&hints, "faster").expect("the gather hint").clone();
    assert!(titles.iter().any(|t| t == &format!("kforecast: {gather} vs HEAD")), "{titles:?} vs {gather}");
    assert!(titles.iter().any(|t| t == "set as baseline"), "{titles:?}");

    // Hover on the kernel name: bins, confidence and reasons.
    let (hl, hc) = position_of(&text, "gather(const");
    let hover = c.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": uri}, "position": {"line": hl, "character": hc + 2}}),
    );
    let md = hover["result"]["contents"]["value"].as_str().expect("hover markdown");
    assert!(md.contains("faster") && md.contains("confidence") && md.contains("**Why**"), "{md}");
    // Its first line says what the percentage is; the bins go slowest → fastest in a block
    // Neovim's float renders as well as VS Code.
    let first = md.lines().nth(2).unwrap_or("");
    assert!(first.contains("likely faster** than HEAD: the chance the new version takes less time (S > 1)"), "{md}");
    assert!(md.contains("```text") && !md.contains("| >4× |"), "{md}");
    let bins = md.split("```text").nth(1).unwrap_or("");
    assert!(bins.find("severe slowdown") < bins.find("extreme speedup"), "{md}");
    assert!(md.contains("coalesced"), "the reason names coalescing: {md}");

    // A comment-only edit of the gather kernel after making it the baseline: the same kernel.
    let set = c.request(
        "workspace/executeCommand",
        json!({"command": "kforecast.setBaseline", "arguments": [{"uri": uri, "kernel": "gather"}]}),
    );
    assert_eq!(set["result"]["baselined"], 1, "{set}");
    let hints = c.inlay_hints(&uri);
    assert_eq!(hints.len(), 1, "gather is the baseline now: {hints:?}");
    let (line, col) = position_of(&text, "    int i = blockIdx.x");
    c.change(&uri, 4, (line, col), (line, col), "    // one element per thread\n");
    let hints = c.inlay_hints(&uri);
    let same = hint_for(&hints, "same kernel").unwrap_or_else(|| panic!("comment-only edit: {hints:?}"));
    assert_eq!(same, "same kernel");
    // Nothing to measure: no GPU run is offered for the same kernel.
    let (gl, _) = position_of(&text, "gather(const");
    let actions = c.request(
        "textDocument/codeAction",
        json!({"textDocument": {"uri": uri}, "range": {"start": {"line": gl, "character": 0}, "end": {"line": gl, "character": 0}}, "context": {"diagnostics": []}}),
    );
    let titles: Vec<&str> =
        actions["result"].as_array().expect("actions").iter().filter_map(|a| a["title"].as_str()).collect();
    assert!(!titles.iter().any(|t| t.starts_with("Verify")), "{titles:?}");

    let status = c.shutdown();
    assert!(status.success());
}

const TRITON_BASE: &str = r#"import triton
import triton.language as tl


@triton.jit
def scale_kernel(x_ptr, out_ptr, n, alpha, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, x * alpha, mask=mask)


@triton.jit
def row_sum_kernel(x_ptr, out_ptr, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    for start in range(0, n_cols, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        acc += tl.load(x_ptr + row * n_cols + cols, mask=cols < n_cols, other=0.0)
    tl.store(out_ptr + row, tl.sum(acc, axis=0))


def scale(x, out, alpha):
    n = x.numel()
    BLOCK = 64
    grid = (triton.cdiv(n, BLOCK),)
    scale_kernel[grid](x, out, n, alpha, BLOCK=BLOCK, num_warps=1)


def row_sum(x, out):
    rows, cols = x.shape
    row_sum_kernel[(rows,)](x, out, cols, BLOCK=1024)
"#;

#[test]
fn triton_edits_are_forecast_against_the_opened_version() {
    // Not in git: the baseline is the text as opened.
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("kernels.py");
    std::fs::write(&path, TRITON_BASE).expect("write");
    let uri = uri_of(&path);
    let mut c = Client::start();
    c.initialize(json!({"kforecast": {"confidenceThreshold": 0.6}}));
    c.open(&uri, "python", TRITON_BASE);
    assert!(c.inlay_hints(&uri).is_empty());

    // Bigger blocks in the launch wrapper: faster.
    let (line, col) = position_of(TRITON_BASE, "BLOCK = 64");
    c.change(&uri, 2, (line, col + 8), (line, col + 10), "1024");
    let text = TRITON_BASE.replacen("BLOCK = 64", "BLOCK = 1024", 1);
    let hints = c.inlay_hints(&uri);
    assert_eq!(hints.len(), 1, "{hints:?}");
    assert!(hints[0].contains("faster"), "{hints:?}");

    // A needless second pass over the row: slower.
    let (line, col) = position_of(&text, "    tl.store(out_ptr + row");
    let extra = "    for start in range(0, n_cols, BLOCK):\n        cols = start + tl.arange(0, BLOCK)\n        acc += 0.0 * tl.load(x_ptr + row * n_cols + cols, mask=cols < n_cols, other=0.0)\n";
    c.change(&uri, 3, (line, col), (line, col), extra);
    let hints = c.inlay_hints(&uri);
    assert!(hint_for(&hints, "slower").is_some(), "an extra pass is slower: {hints:?}");

    // Undo, then a comment-only edit of row_sum: the same kernel.
    let text2 = text.replacen("    tl.store(out_ptr + row", &format!("{extra}    tl.store(out_ptr + row"), 1);
    let start = position_of(&text2, extra);
    let end = position_of(&text2, "    tl.store(out_ptr + row");
    c.change(&uri, 4, start, end, "    # sum of the row, in fp32\n");
    let hints = c.inlay_hints(&uri);
    assert!(hint_for(&hints, "same kernel").is_some(), "comment-only edit: {hints:?}");

    // Hover and lens work for Triton too.
    let (hl, hc) = position_of(&text2, "scale_kernel(x_ptr");
    let hover = c.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": uri}, "position": {"line": hl, "character": hc + 1}}),
    );
    assert!(hover["result"]["contents"]["value"].as_str().unwrap_or("").contains("faster"), "{hover}");
    let lenses = c.request("textDocument/codeLens", json!({"textDocument": {"uri": uri}}));
    assert!(lenses["result"].as_array().is_some_and(|l| !l.is_empty()));
    assert!(c.shutdown().success());
}

#[test]
fn workspace_versions_forecast_in_the_expected_direction() {
    // The test workspaces' previous versions committed at HEAD, the current ones typed in.
    for (file, prev, cur, expect) in [
        ("transpose.cu", "cuda/previous/src/transpose.cu", "cuda/src/transpose.cu", "faster"),
        ("softmax.py", "triton/previous/kernels/softmax.py", "triton/kernels/softmax.py", "faster"),
    ] {
        let before = workspace_file(prev);
        let after = workspace_file(cur);
        let repo = git_repo(&[(file, &before)]);
        let uri = uri_of(&repo.path().join(file));
        let mut c = Client::start();
        c.initialize(Value::Null);
        c.open(&uri, if file.ends_with(".py") { "python" } else { "cuda" }, &before);
        c.change(&uri, 2, (0, 0), end_position(&before), &after);
        let hints = c.inlay_hints(&uri);
        assert_eq!(hints.len(), 1, "{file}: {hints:?}");
        // Said outright, or deferred to the GPU ("unsure") with the point forecast on the
        // right side of 1×: a selective forecaster may defer, never claim the opposite.
        let hint = &hints[0];
        let point = hint.trim_start_matches('≈').split('×').next().and_then(|x| x.parse::<f64>().ok());
        let deferred_right_way = hint.contains("unsure") && !hint.contains("slower") && point.is_some_and(|x| x >= 1.0);
        assert!(hint.contains(expect) || deferred_right_way, "{file}: {hints:?}");
        assert!(c.shutdown().success());
    }
}

#[test]
fn settings_are_validated_and_the_utf8_encoding_is_negotiated() {
    let mut c = Client::start();
    let init = c.initialize_with(
        json!({"confidenceThreshold": "high", "baselineMode": "svn"}),
        json!({"positionEncodings": ["utf-8", "utf-16"]}),
    );
    assert_eq!(init["result"]["capabilities"]["positionEncoding"], "utf-8");
    let msg = c.wait_notification(|n| {
        n["method"] == "window/showMessage"
            && n["params"]["message"].as_str().unwrap_or("").contains("kforecast.confidenceThreshold")
    });
    assert_eq!(msg["params"]["type"], 1);
    c.wait_notification(|n| n["params"]["message"].as_str().unwrap_or("").contains("kforecast.baselineMode"));
    c.notify("workspace/didChangeConfiguration", json!({"settings": {"kforecast": {"confidenceThreshold": 7}}}));
    c.wait_notification(|n| n["params"]["message"].as_str().unwrap_or("").contains("got 7"));

    // UTF-8 columns: an edit after a multi-byte comment lands where the client meant.
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("k.cu");
    let text = "__global__ void k(float* a, int n) { /* é😀 */ int i = threadIdx.x; a[i * n] = 1.0f; }\n";
    std::fs::write(&path, text).expect("write");
    let uri = uri_of(&path);
    c.open(&uri, "cuda", text);
    let byte_col = text.find(" * n]").expect("needle") as u32;
    c.change(&uri, 2, (0, byte_col), (0, byte_col + 4), "");
    let hints = c.inlay_hints(&uri);
    // The same edit made by replacing the whole line (no column to get wrong) must give the
    // same forecast: `a[i * n]` became `a[i]`, nothing else moved.
    let twin = uri_of(&dir.path().join("twin.cu"));
    std::fs::write(dir.path().join("twin.cu"), text).expect("write");
    c.open(&twin, "cuda", text);
    c.change(&twin, 2, (0, 0), (1, 0), &text.replace(" * n]", "]"));
    let expected = c.inlay_hints(&twin);
    assert!(!hints.is_empty() && hints == expected, "{hints:?} vs {expected:?}");
    assert!(c.shutdown().success());
}

#[test]
fn the_disk_cache_survives_a_restart() {
    let cache = tempfile::tempdir().expect("tempdir");
    let repo = git_repo(&[("k.cu", COPY)]);
    let uri = uri_of(&repo.path().join("k.cu"));
    let (l, col) = position_of(COPY, " * stride]");
    for round in 0..2 {
        let mut c = Client::start_in(cache.path());
        c.initialize(Value::Null);
        c.open(&uri, "cuda", COPY);
        c.change(&uri, 2, (l, col), (l, col + 9), "");
        assert_eq!(c.inlay_hints(&uri).len(), 1);
        let status = c.request("kforecast/status", Value::Null);
        let stats = &status["result"]["cache"];
        if round == 0 {
            assert_eq!(stats["misses"], 1, "{status}");
        } else {
            assert_eq!(stats["diskHits"], 1, "served from disk after a restart: {status}");
            assert_eq!(stats["misses"], 0, "{status}");
        }
        assert!(c.shutdown().success());
    }
}

#[test]
fn verify_on_gpu_is_offered_reports_progress_and_flags_bad_declarations() {
    let before = workspace_file("cuda/previous/src/transpose.cu");
    let after = workspace_file("cuda/src/transpose.cu");
    let repo = git_repo(&[("transpose.cu", &before)]);
    let uri = uri_of(&repo.path().join("transpose.cu"));
    let mut c = Client::start();
    let init = c.initialize(Value::Null);
    assert!(init["result"]["capabilities"]["codeActionProvider"].is_object());
    c.open(&uri, "cuda", &before);
    c.change(&uri, 2, (0, 0), end_position(&before), &after);
    let (line, _) = position_of(&after, "transpose(const");
    let actions = c.request(
        "textDocument/codeAction",
        json!({"textDocument": {"uri": uri}, "range": {"start": {"line": line, "character": 0}, "end": {"line": line, "character": 0}}, "context": {"diagnostics": []}}),
    );
    let titles: Vec<&str> =
        actions["result"].as_array().expect("actions").iter().filter_map(|a| a["title"].as_str()).collect();
    assert!(titles.contains(&"Verify `transpose` on GPU"), "{titles:?}");
    assert!(titles.contains(&"Set `transpose` as baseline"), "{titles:?}");
    // Kinds: Verify of a confident forecast is a plain action, Set baseline a source action,
    // Search a rewrite.
    let kind = |prefix: &str| {
        let a = actions["result"]
            .as_array()
            .and_then(|a| a.iter().find(|a| a["title"].as_str().unwrap_or("").starts_with(prefix)));
        a.map(|a| a["kind"].as_str().unwrap_or("").to_string())
            .unwrap_or_else(|| panic!("no {prefix} action: {actions}"))
    };
    assert_eq!(kind("Verify"), "");
    assert_eq!(kind("Set"), "source");
    assert_eq!(kind("Search"), "refactor.rewrite");

    // Verify: a real worker process measures (or says it has no GPU); progress ends with the result.
    let started = c.request(
        "workspace/executeCommand",
        json!({"command": "kforecast.verify", "arguments": [{"uri": uri, "kernel": "transpose"}]}),
    );
    assert_eq!(started["result"]["started"], true, "{started}");
    let end = c.wait_notification(|n| n["method"] == "$/progress" && n["params"]["value"]["kind"] == "end");
    let message = end["params"]["value"]["message"].as_str().expect("message").to_string();
    assert!(message.starts_with("measure"), "{message}");
    // Measured: the hint shows it; failed (no GPU here): the hover says why.
    let hints = c.inlay_hints(&uri);
    if message.starts_with("measured") {
        assert!(hints.iter().any(|h| h.starts_with("measured")), "{hints:?}");
    }
    let (hl, hc) = position_of(&after, "transpose(const");
    let hover = c.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": uri}, "position": {"line": hl, "character": hc + 1}}),
    );
    let md = hover["result"]["contents"]["value"].as_str().unwrap_or("");
    assert!(md.contains("**Measured on GPU**"), "{md}");

    // A declaration mistake: a warning diagnostic on that line (the file compiles), and no job.
    let bad_line = position_of(&after, "in: f32[rows, cols]");
    c.change(&uri, 3, (bad_line.0, bad_line.1 + 4), (bad_line.0, bad_line.1 + 7), "f33");
    let resp = c.request(
        "workspace/executeCommand",
        json!({"command": "kforecast.verify", "arguments": [{"uri": uri, "kernel": "transpose"}]}),
    );
    assert!(resp["error"]["message"].as_str().unwrap_or("").contains("f33"), "{resp}");
    let diag = c.wait_notification(|n| {
        n["method"] == "textDocument/publishDiagnostics"
            && n["params"]["diagnostics"].as_array().is_some_and(|d| d.iter().any(|x| x["code"] == "declaration"))
    });
    let d = diag["params"]["diagnostics"]
        .as_array()
        .expect("diags")
        .iter()
        .find(|x| x["code"] == "declaration")
        .expect("a declaration diagnostic")
        .clone();
    assert_eq!(d["severity"], 2, "a Warning, not an Error: {d}");
    assert_eq!(d["range"]["start"]["line"], bad_line.0, "{d}");
    assert!(d["message"].as_str().unwrap_or("").contains("unknown dtype `f33`"), "{d}");
    assert!(c.shutdown().success());
}

#[test]
fn auto_verify_sends_unsure_forecasts_to_the_gpu_by_itself() {
    let before = workspace_file("cuda/previous/src/transpose.cu");
    let after = workspace_file("cuda/src/transpose.cu");
    let repo = git_repo(&[("transpose.cu", &before)]);
    let uri = uri_of(&repo.path().join("transpose.cu"));
    let mut c = Client::start();
    // Every forecast is unsure at this threshold, so each is deferred to the GPU.
    c.initialize(json!({"autoVerify": true, "confidenceThreshold": 0.9999}));
    c.open(&uri, "cuda", &before);
    c.change(&uri, 2, (0, 0), end_position(&before), &after);
    let hints = c.inlay_hints(&uri);
    assert!(hints.iter().all(|h| h.contains("unsure")), "{hints:?}");
    let end = c.wait_notification(|n| n["method"] == "$/progress" && n["params"]["value"]["kind"] == "end");
    assert!(end["params"]["value"]["message"].as_str().unwrap_or("").starts_with("measure"), "{end}");
    let status = c.request("kforecast/status", Value::Null);
    assert_eq!(status["result"]["jobs"], 0, "{status}");
    assert!(c.shutdown().success());
}

#[test]
fn cuda_inside_python_is_forecast_at_the_kernels_line() {
    let before = workspace_file("foreign/kernelbench_relu/previous.py");
    let after = workspace_file("foreign/kernelbench_relu/current.py");
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("model_new.py");
    std::fs::write(&path, &before).expect("write");
    let uri = uri_of(&path);
    let mut c = Client::start();
    c.initialize(Value::Null);
    c.open(&uri, "python", &before);
    assert!(c.inlay_hints(&uri).is_empty());
    // The kernel in the `load_inline` string rewritten with float4 loads.
    c.change(&uri, 2, (0, 0), end_position(&before), &after);
    let resp = c.request(
        "textDocument/inlayHint",
        json!({"textDocument": {"uri": uri}, "range": {"start": {"line": 0, "character": 0}, "end": {"line": 100000, "character": 0}}}),
    );
    let hints = resp["result"].as_array().cloned().unwrap_or_default();
    assert_eq!(hints.len(), 1, "{resp}");
    // After the body's `{`, on the kernel's line of the Python file.
    let (line, col) = position_of(&after, "__global__ void relu_kernel");
    let signature = "__global__ void relu_kernel(const float* x, float* out, int size) {";
    assert_eq!(hints[0]["position"], json!({"line": line, "character": col + signature.len() as u32}), "{resp}");
    let hover = c.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": uri}, "position": {"line": line, "character": col + 18}}),
    );
    assert!(hover["result"]["contents"]["value"].as_str().is_some_and(|h| h.contains("relu_kernel")), "{hover}");

    // A Python file with no kernels gets nothing.
    let plain = dir.path().join("plain.py");
    let text = "import torch\n\ndef f(x):\n    return torch.relu(x)\n";
    std::fs::write(&plain, text).expect("write");
    let plain_uri = uri_of(&plain);
    c.open(&plain_uri, "python", text);
    c.change(&plain_uri, 2, (3, 11), (3, 21), "torch.sigmoid");
    assert!(c.inlay_hints(&plain_uri).is_empty());
    assert!(c.shutdown().success());
}

#[test]
fn a_kernel_without_a_declaration_gets_a_quick_fix_that_lets_verify_build_its_job() {
    let before = "__global__ void scale(const float* x, float* y, float a, int n) {\n    int i = blockIdx.x * blockDim.x + threadIdx.x;\n    if (i < n) y[i] = a * x[i] + 0.0f;\n}\n";
    let after = before.replace(" + 0.0f", "");
    let repo = git_repo(&[("scale.cu", before)]);
    let uri = uri_of(&repo.path().join("scale.cu"));
    let mut c = Client::start();
    // Deferred at this threshold: Verify is the quick fix for an unsure forecast.
    c.initialize(json!({"confidenceThreshold": 0.9999}));
    c.open(&uri, "cuda", before);
    c.change(&uri, 2, (0, 0), end_position(before), &after);
    assert_eq!(c.inlay_hints(&uri).len(), 1);
    let at = json!({"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}});
    let actions = c.request(
        "textDocument/codeAction",
        json!({"textDocument": {"uri": uri}, "range": at, "context": {"diagnostics": []}}),
    );
    let verify = actions["result"]
        .as_array()
        .and_then(|a| a.iter().find(|a| a["title"].as_str().unwrap_or("").starts_with("Verify")).cloned());
    assert_eq!(verify.as_ref().map(|v| v["kind"].clone()), Some(json!("quickfix")), "{actions}");

    // Verify cannot build a job: one Warning saying so, not one Error per parameter.
    let resp = c.request(
        "workspace/executeCommand",
        json!({"command": "kforecast.verify", "arguments": [{"uri": uri, "kernel": "scale"}]}),
    );
    assert!(resp["error"]["message"].is_string(), "{resp}");
    let diag = c.wait_notification(|n| {
        n["method"] == "textDocument/publishDiagnostics"
            && n["params"]["diagnostics"]
                .as_array()
                .is_some_and(|d| d.iter().any(|x| x["code"] == "missing-declaration"))
    });
    let diags = diag["params"]["diagnostics"].as_array().expect("diagnostics");
    assert_eq!(diags.len(), 1, "{diag}");
    assert_eq!(diags[0]["severity"], 2, "{diag}");

    // The quick fix inserts a filled-in declaration above the kernel.
    let actions = c.request(
        "textDocument/codeAction",
        json!({"textDocument": {"uri": uri}, "range": at, "context": {"diagnostics": diags}}),
    );
    let fix = actions["result"]
        .as_array()
        .and_then(|a| a.iter().find(|a| a["title"] == "Insert a `kforecast:` declaration for `scale`").cloned())
        .unwrap_or_else(|| panic!("no declaration quick fix: {actions}"));
    assert_eq!(fix["kind"], "quickfix");
    let edit = &fix["edit"]["changes"][uri.as_str()][0];
    assert_eq!(edit["range"]["start"], json!({"line": 0, "character": 0}), "{fix}");
    let inserted = edit["newText"].as_str().expect("newText");
    assert!(inserted.starts_with("// kforecast: x: f32[n]; y: f32[n]; a = 1.0; n = 1 << 20"), "{inserted}");

    // Applied, the warning goes with the edit, before any Verify.
    c.change(&uri, 3, (0, 0), (0, 0), inserted);
    c.wait_notification(|n| {
        n["method"] == "textDocument/publishDiagnostics"
            && n["params"]["diagnostics"]
                .as_array()
                .is_some_and(|d| d.iter().all(|x| x["code"] != "missing-declaration"))
    });
    // And Verify builds its job (it runs, or says there is no GPU here).
    let started = c.request(
        "workspace/executeCommand",
        json!({"command": "kforecast.verify", "arguments": [{"uri": uri, "kernel": "scale"}]}),
    );
    assert_eq!(started["result"]["started"], true, "{started}");
    let end = c.wait_notification(|n| n["method"] == "$/progress" && n["params"]["value"]["kind"] == "end");
    assert!(end["params"]["value"]["message"].as_str().unwrap_or("").starts_with("measure"), "{end}");
    assert!(c.shutdown().success());
}

#[test]
fn a_device_without_a_model_is_named_and_not_repeated_as_fact() {
    let repo = git_repo(&[("kernels.cu", COPY)]);
    let uri = uri_of(&repo.path().join("kernels.cu"));
    let mut c = Client::start();
    c.initialize(json!({"device": "banana"}));
    let warning = c.wait_notification(|n| {
        n["method"] == "window/showMessage" && n["params"]["message"].as_str().unwrap_or("").contains("\"banana\"")
    });
    assert_eq!(warning["params"]["type"], 2, "a warning: {warning}");
    assert!(warning["params"]["message"].as_str().unwrap_or("").contains("NVIDIA H100"), "{warning}");
    c.open(&uri, "cuda", COPY);
    let (line, col) = position_of(COPY, " * stride]");
    c.change(&uri, 2, (line, col), (line, col + 9), "");
    assert_eq!(c.inlay_hints(&uri).len(), 1);
    let (hl, hc) = position_of(COPY, "gather(const");
    let hover = c.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": uri}, "position": {"line": hl, "character": hc + 2}}),
    );
    let md = hover["result"]["contents"]["value"].as_str().unwrap_or("");
    assert!(!md.contains("device banana"), "{md}");
    assert!(md.contains("model for NVIDIA H100") && md.contains("no model for \"banana\""), "{md}");
    assert!(c.shutdown().success());
}
