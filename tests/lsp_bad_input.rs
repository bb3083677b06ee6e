//! Bad input never takes the server down: it keeps answering.

mod common;

use common::*;
use serde_json::{json, Value};
use std::io::Write;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const KERNEL: &str = "__global__ void k(const float* a, float* b, int n)\n{\n    int i = blockIdx.x * blockDim.x + threadIdx.x;\n    if (i < n) b[i] = 2.0f * a[i];\n}\n";

/// A kernel of realistic length (about 1.5 KB with its comments).
const LONG_KERNEL: &str = r#"// Row-wise scaled add with a bias, one row per block.
__global__ void k(const float* __restrict__ x, const float* __restrict__ bias, float* __restrict__ y, int rows, int cols, float alpha)
{
    // Each block walks one row; threads stride across the columns so that
    // consecutive threads touch consecutive addresses (coalesced).
    const int row = blockIdx.x;
    if (row >= rows) return;
    const float* xr = x + (size_t)row * cols;
    float* yr = y + (size_t)row * cols;
    float acc = 0.0f;
    for (int c = threadIdx.x; c < cols; c += blockDim.x) {
        const float v = alpha * xr[c] + bias[c];
        acc += v;
        yr[c] = v;
    }
    // Reduce within the warp; lane 0 of each warp keeps the partial sum.
    for (int offset = 16; offset > 0; offset >>= 1) {
        acc += __shfl_down_sync(0xffffffffu, acc, offset);
    }
    __shared__ float partial[32];
    if ((threadIdx.x & 31) == 0) partial[threadIdx.x >> 5] = acc;
    __syncthreads();
    if (threadIdx.x == 0) {
        float total = 0.0f;
        for (int w = 0; w < (blockDim.x + 31) / 32; ++w) total += partial[w];
        // The mean is stored after the row's last element (cols + 1 wide rows).
        yr[cols] = total / cols;
    }
}
"#;

fn cuda_file(dir: &tempfile::TempDir, name: &str, text: &str) -> String {
    let path = dir.path().join(name);
    std::fs::write(&path, text).expect("write");
    uri_of(&path)
}

/// The server still answers a real request.
fn assert_alive(c: &mut Client, uri: &str) {
    let _ = c.inlay_hints(uri);
    assert!(c.alive(), "the server died");
}

#[test]
fn out_of_range_positions_and_ranges_are_clamped() {
    let dir = tempfile::tempdir().expect("tempdir");
    let uri = cuda_file(&dir, "k.cu", KERNEL);
    let mut c = Client::start();
    c.initialize(Value::Null);
    c.open(&uri, "cuda", KERNEL);
    let hover = c.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": uri}, "position": {"line": 1_000_000, "character": 5}}),
    );
    assert!(hover["result"].is_null(), "{hover}");
    let hover = c.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": uri}, "position": {"line": 0, "character": 4_000_000}}),
    );
    assert!(hover.get("error").is_none(), "{hover}");
    let hints = c.request(
        "textDocument/inlayHint",
        json!({"textDocument": {"uri": uri}, "range": {"start": {"line": 900, "character": 0}, "end": {"line": 5, "character": 0}}}),
    );
    assert!(hints.get("error").is_none(), "{hints}");
    // An edit past the end of the document is clamped to the end.
    c.change(&uri, 2, (500, 3), (900, 1), "\n// appended\n");
    // An edit whose end comes before its start is taken in order.
    c.change(&uri, 3, (3, 10), (3, 2), "");
    assert_alive(&mut c, &uri);
    assert!(c.shutdown().success());
}

#[test]
fn invalid_utf8_and_malformed_messages_are_rejected_not_fatal() {
    let dir = tempfile::tempdir().expect("tempdir");
    let uri = cuda_file(&dir, "k.cu", KERNEL);
    let mut c = Client::start();
    c.initialize(Value::Null);
    c.open(&uri, "cuda", KERNEL);
    // A didChange whose text holds bytes that are not UTF-8.
    let mut body = br#"{"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":""#.to_vec();
    body.extend_from_slice(uri.as_bytes());
    body.extend_from_slice(br#"","version":2},"contentChanges":[{"text":"__global__ void k() { \xff\xfe\xc3 }"}]}}"#);
    c.send_raw(&body);
    // Garbage that is not JSON at all, and JSON that is not JSON-RPC.
    c.send_raw(b"\x00\x01 this is not json");
    c.send_raw(br#"{"hello": "world"}"#);
    assert_alive(&mut c, &uri);
    // A git baseline that is not UTF-8 is read lossily.
    let bytes = b"__global__ void k(float* a) { a[0] = 1.0f; } // \xff\xfe\n";
    let repo = git_repo(&[("README", "kernels\n")]);
    std::fs::write(repo.path().join("bin.cu"), bytes).expect("write");
    let path = repo.path().join("bin.cu");
    git(repo.path(), &["add", "."]);
    git(repo.path(), &["commit", "-q", "-m", "binary"]);
    let uri2 = uri_of(&path);
    c.open(&uri2, "cuda", &String::from_utf8_lossy(bytes));
    assert_alive(&mut c, &uri2);
    assert!(c.shutdown().success());
}

#[test]
fn a_ten_megabyte_file_and_five_hundred_kernels() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut c = Client::start();
    c.initialize(Value::Null);

    // 500 kernels: an edit to one gives exactly one hint.
    let mut many = String::new();
    for i in 0..500 {
        many += &KERNEL.replace("void k(", &format!("void k{i}("));
    }
    let uri = cuda_file(&dir, "many.cu", &many);
    c.open(&uri, "cuda", &many);
    let (l, col) = position_of(&many, "void k250(");
    let (l2, col2) = position_of(&many[many.find("void k250(").expect("k250")..], "2.0f * a[i]");
    c.change(&uri, 2, (l + l2, col2 + 7), (l + l2, col2 + 11), "a[i * n]");
    let _ = col;
    let hints = c.inlay_hints(&uri);
    assert_eq!(hints.len(), 1, "{hints:?}");
    assert!(hints[0].contains("slower"), "{hints:?}");

    // 10 MB of kernels: opened, parsed, edited, answered.
    let mut big = String::new();
    let mut i = 0;
    while big.len() < 10 * 1024 * 1024 {
        big += &LONG_KERNEL.replace("void k(", &format!("void big{i}("));
        i += 1;
    }
    let uri = cuda_file(&dir, "big.cu", &big);
    let start = Instant::now();
    c.open(&uri, "cuda", &big);
    let hints = c.inlay_hints(&uri);
    assert!(hints.is_empty());
    c.change(&uri, 2, (3, 4), (3, 4), "// typing in a huge file\n    ");
    let hints = c.inlay_hints(&uri);
    assert_eq!(hints.len(), 1, "{hints:?}");
    assert!(hints[0].contains("same kernel"), "{hints:?}");
    eprintln!("10 MB file ({i} kernels): open + edit + hints in {:?}", start.elapsed());
    assert!(c.shutdown().success());
}

/// The hover of the kernel `scale` in `text` (at `uri`) after its `2.0f * x[i]` is edited
/// to a strided read, once the server has read the whole file (when it was not read at
/// once, `later`, the server asks for the hints again then); and the hints it gave
/// first, asked for the first 100 lines right away.
fn scale_after_an_edit(uri: &str, text: &str, later: bool) -> (Vec<String>, String) {
    let mut c = Client::start();
    c.initialize(Value::Null);
    c.open(uri, "cuda", text);
    let (l, col) = position_of(text, "x[i];");
    c.change(uri, 2, (l, col + 2), (l, col + 3), "i * 32");
    let range = json!({"start": {"line": 0, "character": 0}, "end": {"line": 100, "character": 0}});
    let first = c.request("textDocument/inlayHint", json!({"textDocument": {"uri": uri}, "range": range}));
    let first: Vec<String> = first["result"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|h| h["label"].as_str().map_or_else(|| h["label"].to_string(), str::to_string))
        .collect();
    let deadline = Instant::now() + Duration::from_secs(60);
    while later && !c.server_requests.iter().any(|r| r["method"] == "workspace/inlayHint/refresh") {
        assert!(Instant::now() < deadline, "the file was never read whole");
        let _ = c.request("kforecast/status", Value::Null);
        std::thread::sleep(Duration::from_millis(20));
    }
    let (l, col) = position_of(text, "scale(");
    let hover = c.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": uri}, "position": {"line": l, "character": col + 1}}),
    );
    assert!(c.shutdown().success());
    (first, hover["result"]["contents"]["value"].as_str().unwrap_or_default().to_string())
}

#[test]
fn a_kernel_launched_at_the_end_of_a_large_file_is_forecast_with_its_launch() {
    // The kernel is at the top: what an editor shows first, read first. Its launch, which
    // gives its sizes, is 3 MB further down, read after the first hint was given.
    let kernel = "__global__ void scale(float* x, int n) {\n  int i = blockIdx.x * 256 + threadIdx.x;\n  \
                  if (i < n) x[i] = 2.0f * x[i];\n}\n";
    let launch = "void run(float* x) {\n  int n = 1 << 26;\n  scale<<<(n + 255) / 256, 256>>>(x, n);\n}\n";
    let mut big = kernel.to_string();
    let mut i = 0;
    while big.len() < 3 << 20 {
        big += &LONG_KERNEL.replace("void k(", &format!("void filler{i}("));
        i += 1;
    }
    big += launch;
    let (dir, small_dir) = (tempfile::tempdir().expect("tempdir"), tempfile::tempdir().expect("tempdir"));
    let (first, hover) = scale_after_an_edit(&cuda_file(&dir, "big.cu", &big), &big, true);
    assert_eq!(first.len(), 1, "a hint for the edited kernel right away: {first:?}");
    // Once all is read, the same forecast as the kernel and its launch alone give.
    let small = format!("{kernel}{launch}");
    let (_, alone) = scale_after_an_edit(&cuda_file(&small_dir, "small.cu", &small), &small, false);
    assert!(hover.contains("`scale`"), "{hover}");
    assert_eq!(hover, alone);
    // (Without its launch, the forecast is not the same: the launch is what counts.)
    let other_dir = tempfile::tempdir().expect("tempdir");
    let (_, unlaunched) = scale_after_an_edit(&cuda_file(&other_dir, "alone.cu", kernel), kernel, false);
    assert_ne!(hover, unlaunched);
}

#[test]
fn unterminated_code_keeps_the_last_good_forecast() {
    let dir = tempfile::tempdir().expect("tempdir");
    let uri = cuda_file(&dir, "k.cu", KERNEL);
    let mut c = Client::start();
    c.initialize(Value::Null);
    c.open(&uri, "cuda", KERNEL);
    // Make it slower (strided), then start typing a loop that is not closed yet.
    c.change(&uri, 2, (3, 31), (3, 32), "i * n");
    let good = c.inlay_hints(&uri);
    assert_eq!(good.len(), 1);
    assert!(good[0].contains("slower"), "{good:?}");
    for (v, piece) in ["    for (int j = 0; j < n; j++) {", " b[j] = a[", "j"].iter().enumerate() {
        let text_line = 4;
        c.change(&uri, 3 + v as i64, (text_line, 0), (text_line, 0), piece);
        let hints = c.inlay_hints(&uri);
        assert!(hints.len() <= 1, "{hints:?}");
    }
    let hints = c.inlay_hints(&uri);
    assert!(hints.iter().all(|h| h.contains("last good") || h.contains("slower")), "{hints:?}");
    assert_alive(&mut c, &uri);
    assert!(c.shutdown().success());
}

#[test]
fn requests_for_unknown_documents_get_empty_answers() {
    let mut c = Client::start();
    c.initialize(Value::Null);
    let uri = "file:///nowhere/never-opened.cu";
    assert!(c.inlay_hints(uri).is_empty());
    let lens = c.request("textDocument/codeLens", json!({"textDocument": {"uri": uri}}));
    assert!(lens["result"].is_null(), "{lens}");
    let hover =
        c.request("textDocument/hover", json!({"textDocument": {"uri": uri}, "position": {"line": 0, "character": 0}}));
    assert!(hover["result"].is_null(), "{hover}");
    c.change(uri, 2, (0, 0), (0, 0), "x");
    let cmd =
        c.request("workspace/executeCommand", json!({"command": "kforecast.setBaseline", "arguments": [{"uri": uri}]}));
    assert!(cmd["error"]["message"].as_str().unwrap_or("").contains("not open"), "{cmd}");
    let cmd = c.request("workspace/executeCommand", json!({"command": "kforecast.setBaseline", "arguments": [42]}));
    assert!(cmd.get("error").is_some(), "{cmd}");
    assert!(c.alive());
    assert!(c.shutdown().success());
}

/// The next response, whatever its id.
fn response(c: &mut Client) -> Value {
    c.next_response(Duration::from_secs(30)).expect("a response")
}

#[test]
fn unusable_ids_dollar_requests_and_surrogates_are_answered() {
    let mut c = Client::start();
    c.initialize(Value::Null);
    // Ids that are not a string or an i64: an error with a null id, and the server goes on.
    for id in ["{}", "[1]", "1.5", "true", "18446744073709551615"] {
        let body = format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"kforecast/status"}}"#);
        c.send_raw(body.as_bytes());
        let r = response(&mut c);
        assert_eq!(r["id"], Value::Null, "{id}: {r}");
        assert_eq!(r["error"]["code"], -32600, "{id}: {r}");
    }
    // A `$/` request is answered MethodNotFound (a `$/` notification is ignored).
    c.send_raw(br#"{"jsonrpc":"2.0","method":"$/setTrace","params":{"value":"off"}}"#);
    c.send_raw(br#"{"jsonrpc":"2.0","id":77,"method":"$/ping"}"#);
    let r = response(&mut c);
    assert_eq!((r["id"].clone(), r["error"]["code"].clone()), (json!(77), json!(-32601)), "{r}");
    // A lone surrogate escape is repaired, and the request answered.
    c.send_raw(br#"{"jsonrpc":"2.0","id":78,"method":"textDocument/hover","params":{"textDocument":{"uri":"file:///x\ud800.cu"},"position":{"line":0,"character":0}}}"#);
    let r = response(&mut c);
    assert_eq!(r["id"], 78, "{r}");
    assert!(r.get("error").is_none(), "{r}");
    assert!(c.alive());
    assert!(c.shutdown().success());
}

#[test]
fn absurd_lengths_and_long_headers_are_skipped_not_fatal() {
    let dir = tempfile::tempdir().expect("tempdir");
    let uri = cuda_file(&dir, "k.cu", KERNEL);
    let mut c = Client::start();
    c.initialize(Value::Null);
    c.open(&uri, "cuda", KERNEL);
    // Lengths no body has (they used to abort the server while allocating), then frames.
    c.send_bytes(b"Content-Length: 99999999999999\r\n\r\n{}");
    c.send_bytes(b"Content-Length: 18446744073709551615\r\n\r\n");
    // A 4 MiB header line.
    let mut long = b"X-Pad: ".to_vec();
    long.extend(std::iter::repeat_n(b'x', 4 << 20));
    long.extend(b"\r\nContent-Length: 2\r\n\r\n{}");
    c.send_bytes(&long);
    assert_alive(&mut c, &uri);
    assert!(c.shutdown().success());
}

#[test]
fn the_server_exits_when_stdin_closes_without_exit() {
    let cache = tempfile::tempdir().expect("tempdir");
    let dir = tempfile::tempdir().expect("tempdir");
    let uri = cuda_file(&dir, "k.cu", KERNEL);
    let mut child = Command::new(binary())
        .arg("lsp")
        .env("KFORECAST_CACHE_DIR", cache.path())
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn");
    let mut stdin = child.stdin.take().expect("stdin");
    let frame = |v: Value| {
        let body = v.to_string();
        format!("Content-Length: {}\r\n\r\n{body}", body.len())
    };
    let mut session = frame(json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}}));
    session += &frame(json!({"jsonrpc": "2.0", "method": "initialized", "params": {}}));
    session += &frame(json!({"jsonrpc": "2.0", "method": "textDocument/didOpen",
        "params": {"textDocument": {"uri": uri, "languageId": "cuda", "version": 1, "text": KERNEL}}}));
    // A request nobody waits for: the editor crashed (stdin closes) right after sending it.
    session += &frame(json!({"jsonrpc": "2.0", "id": 2, "method": "textDocument/inlayHint",
        "params": {"textDocument": {"uri": uri}, "range": {"start": {"line": 0, "character": 0}, "end": {"line": 9, "character": 0}}}}));
    stdin.write_all(session.as_bytes()).expect("write");
    drop(stdin);
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break status;
        }
        assert!(start.elapsed() < Duration::from_secs(10), "the server outlived its stdin by 10 s");
        std::thread::sleep(Duration::from_millis(10));
    };
    eprintln!("exited {:?} after stdin closed ({status})", start.elapsed());
    assert_eq!(status.code(), Some(1), "no shutdown came: exit code 1");
}

#[test]
fn a_file_too_complex_to_parse_still_lets_the_server_answer() {
    let dir = tempfile::tempdir().expect("tempdir");
    // Runs of `*/` make tree-sitter's error recovery slow (34 s for 3.4 KB, before a
    // parse had a time budget).
    let text = format!("import triton\n\n@triton.jit\ndef k(x):\n    pass\n\nx = {}\n", "*/".repeat(1700));
    let path = dir.path().join("slow.py");
    std::fs::write(&path, &text).expect("write");
    let uri = uri_of(&path);
    let mut c = Client::start();
    c.initialize(Value::Null);
    let start = Instant::now();
    c.open(&uri, "python", &text);
    let _ = c.inlay_hints(&uri);
    let status = c.request("kforecast/status", Value::Null);
    assert!(status.get("result").is_some(), "{status}");
    eprintln!("`*/` file: opened and answered in {:?}", start.elapsed());
    // A CUDA file whose parse runs out of time: the user is told, and the server answers.
    let slow = format!("__global__ void k(float* a) {{\n{}\n a[0] = a[1];\n}}\n", "*/ ".repeat(1600));
    let path = dir.path().join("slow.cu");
    std::fs::write(&path, &slow).expect("write");
    let uri = uri_of(&path);
    c.open(&uri, "cuda", &slow);
    let diags =
        c.wait_notification(|n| n["method"] == "textDocument/publishDiagnostics" && n["params"]["uri"] == uri.as_str());
    let messages: Vec<&str> =
        diags["params"]["diagnostics"].as_array().into_iter().flatten().filter_map(|d| d["message"].as_str()).collect();
    assert!(messages.iter().any(|m| m.contains("to parse")), "{diags}");
    assert!(c.inlay_hints(&uri).is_empty());
    assert!(c.shutdown().success());
}
