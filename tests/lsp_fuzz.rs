//! Seeded fuzzing of the real server over stdio: no client input crashes it, leaves a
//! request unanswered, or keeps it alive after stdin ends.
//!
//! Each session starts `kforecast lsp`, sends a random mix of valid traffic (opens,
//! edits, hint/hover/lens/action requests, commands) and hostile frames (unusable ids,
//! absurd Content-Lengths, long header lines, `$/` requests, lone surrogate escapes,
//! bytes that are not UTF-8 or not JSON, files of `*/` runs and deep nesting), then ends
//! with shutdown/exit, exit alone, or stdin simply closed. It fails on a crash (the
//! process gone early, a signal, a panic in its log), a request without an answer
//! after 5 s, or a process alive 2 s after stdin closed. The bytes each failing session
//! sent are saved (the path is printed) and can be replayed:
//! `KFORECAST_FUZZ_REPLAY=path cargo test --test lsp_fuzz -- --nocapture`.
//!
//! Bounded for CI by `KFORECAST_FUZZ_SESSIONS` (default 2,000) and `KFORECAST_FUZZ_SECONDS`
//! (default 90), on `KFORECAST_FUZZ_JOBS` threads (default 2), from `KFORECAST_FUZZ_SEED`;
//! `scripts/fuzz` runs many more.

mod common;

use serde_json::{json, Value};
use std::collections::HashSet;
use std::io::{BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{self, Receiver};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

const ANSWER_WITHIN: Duration = Duration::from_secs(5);
const GONE_AFTER_EOF: Duration = Duration::from_secs(2);

/// splitmix64: small, seeded, good enough to pick cases.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
    fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }
    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

const CUDA: &str = "__global__ void k(const float* a, float* b, int n)\n{\n    int i = blockIdx.x * blockDim.x + threadIdx.x;\n    if (i < n) b[i] = 2.0f * a[i];\n}\n\nvoid run(const float* a, float* b, int n) { k<<<(n + 255) / 256, 256>>>(a, b, n); }\n";
const TRITON: &str = "import triton\nimport triton.language as tl\n\n@triton.jit\ndef k(x_ptr, y_ptr, n, BLOCK: tl.constexpr):\n    pid = tl.program_id(0)\n    offs = pid * BLOCK + tl.arange(0, BLOCK)\n    m = offs < n\n    tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=m) * 2, mask=m)\n";

/// A document's text: ordinary kernels, or input that is slow to parse.
fn document(rng: &mut Rng, cuda: bool) -> String {
    match rng.below(10) {
        0 => {
            // Runs of `*/` (tree-sitter's error recovery on these took seconds).
            let n = 200 + rng.below(1800);
            let run = "*/".repeat(n);
            if cuda {
                format!("{CUDA}\n__global__ void z(float* a) {{ a[0] = {run}; }}\n")
            } else {
                format!("{TRITON}\nx = {run}\n")
            }
        }
        1 => {
            let depth = 100 + rng.below(3000);
            let (open, close) = *rng.pick(&[("(", ")"), ("{", "}"), ("[", "]")]);
            format!("{}\n{}x{}\n", if cuda { CUDA } else { TRITON }, open.repeat(depth), close.repeat(depth))
        }
        2 => {
            let kernels = 1 + rng.below(40);
            (0..kernels)
                .map(|i| CUDA.replace("void k(", &format!("void k{i}(")).replace("k<<<", &format!("k{i}<<<")))
                .collect()
        }
        _ => (if cuda { CUDA } else { TRITON }).to_string(),
    }
}

const DOLLAR_METHODS: [&str; 4] = ["$/ping", "$/setTrace", "$/cancelRequest", "$/progress"];

fn frame(body: &[u8]) -> Vec<u8> {
    let mut v = format!("Content-Length: {}\r\n\r\n", body.len()).into_bytes();
    v.extend_from_slice(body);
    v
}

fn text_of(v: &Value) -> Vec<u8> {
    serde_json::to_vec(v).unwrap_or_default()
}

/// What the session expects back.
#[derive(Default)]
struct Expect {
    /// Requests that must be answered, by id.
    ids: HashSet<i64>,
    /// Answers with a null id that must come (requests whose id was unusable).
    null_ids: usize,
}

/// One session's bytes, chosen up front from the seed.
struct Script {
    /// Pieces written in order, each a frame or hostile bytes.
    writes: Vec<Vec<u8>>,
    expect: Expect,
    ending: Ending,
}

#[derive(Clone, Copy, Debug)]
enum Ending {
    ShutdownExit,
    ExitOnly,
    CloseStdin,
}

fn request(id: Value, method: &str, params: Value) -> Vec<u8> {
    frame(&text_of(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params})))
}

fn notification(method: &str, params: Value) -> Vec<u8> {
    frame(&text_of(&json!({"jsonrpc": "2.0", "method": method, "params": params})))
}

fn script(seed: u64, dir: &Path) -> Script {
    let mut rng = Rng(seed);
    let mut writes = Vec::new();
    let mut expect = Expect::default();
    let mut next_id = 1i64;
    let mut id = |expect: &mut Expect| {
        let i = next_id;
        next_id += 1;
        expect.ids.insert(i);
        i
    };
    // Most sessions initialise first; some send everything before `initialize`.
    if !rng.chance(5) {
        let i = id(&mut expect);
        writes.push(request(
            i.into(),
            "initialize",
            json!({"processId": null, "rootUri": null, "capabilities": {"workspace": {"inlayHint": {"refreshSupport": true}}}}),
        ));
        writes.push(notification("initialized", json!({})));
    }
    let uris: Vec<(String, bool)> = (0..3)
        .map(|n| {
            let cuda = n != 1;
            let name = if cuda { format!("k{n}.cu") } else { format!("k{n}.py") };
            (format!("file://{}", dir.join(name).display()), cuda)
        })
        .collect();
    let mut versions = [0i64; 3];
    let steps = 5 + rng.below(40);
    for _ in 0..steps {
        let d = rng.below(uris.len());
        let (uri, cuda) = (&uris[d].0, uris[d].1);
        let range = |rng: &mut Rng| {
            let mut p = || json!({"line": rng.below(14), "character": rng.below(60)});
            json!({"start": p(), "end": p()})
        };
        match rng.below(22) {
            0..=2 => {
                versions[d] = 1;
                let text = document(&mut rng, cuda);
                let lang = if cuda { "cuda" } else { "python" };
                writes.push(notification(
                    "textDocument/didOpen",
                    json!({"textDocument": {"uri": uri, "languageId": lang, "version": 1, "text": text}}),
                ));
            }
            3..=6 => {
                // A burst of edits, some with a request between them.
                for _ in 0..1 + rng.below(12) {
                    versions[d] += 1;
                    let text =
                        rng.pick(&["i * n", "9", "", "*/*/*/", "\n", "{", "é😀", "tl.arange(0, 64)"]).to_string();
                    let change = if rng.chance(5) {
                        json!({"text": text})
                    } else {
                        json!({"range": range(&mut rng), "text": text})
                    };
                    writes.push(notification(
                        "textDocument/didChange",
                        json!({"textDocument": {"uri": uri, "version": versions[d]}, "contentChanges": [change]}),
                    ));
                    if rng.chance(40) {
                        let i = id(&mut expect);
                        writes.push(request(
                            i.into(),
                            "textDocument/inlayHint",
                            json!({"textDocument": {"uri": uri}, "range": range(&mut rng)}),
                        ));
                    }
                }
            }
            7..=9 => {
                let i = id(&mut expect);
                let (method, params) = match rng.below(5) {
                    0 => ("textDocument/inlayHint", json!({"textDocument": {"uri": uri}, "range": range(&mut rng)})),
                    1 => (
                        "textDocument/hover",
                        json!({"textDocument": {"uri": uri}, "position": {"line": rng.below(20), "character": rng.below(80)}}),
                    ),
                    2 => ("textDocument/codeLens", json!({"textDocument": {"uri": uri}})),
                    3 => (
                        "textDocument/codeAction",
                        json!({"textDocument": {"uri": uri}, "range": range(&mut rng), "context": {"diagnostics": []}}),
                    ),
                    _ => (
                        "workspace/executeCommand",
                        json!({"command": rng.pick(&["kforecast.showForecast", "kforecast.setBaseline"]), "arguments": [{"uri": uri, "kernel": "k"}]}),
                    ),
                };
                writes.push(request(i.into(), method, params));
            }
            10 => {
                // An id no client may use: object, array, float, bool, beyond i64.
                let bad = rng
                    .pick(&[
                        json!({}),
                        json!([1]),
                        json!(1.5),
                        json!(true),
                        json!(9_223_372_036_854_775_808u64),
                        json!(u64::MAX),
                        json!({"id": 1}),
                    ])
                    .clone();
                expect.null_ids += 1;
                writes.push(request(
                    bad,
                    "textDocument/hover",
                    json!({"textDocument": {"uri": uri}, "position": {"line": 0, "character": 0}}),
                ));
            }
            11 => {
                let i = id(&mut expect);
                writes.push(request(i.into(), rng.pick::<&str>(&DOLLAR_METHODS), json!({"id": 1})));
                if rng.chance(50) {
                    writes.push(notification("$/cancelRequest", json!({"id": i})));
                }
            }
            12 => {
                // Lone surrogate escapes, in a request and in an edit.
                let i = id(&mut expect);
                let body = format!(
                    r#"{{"jsonrpc":"2.0","id":{i},"method":"textDocument/hover","params":{{"textDocument":{{"uri":"{uri}\ud800"}},"position":{{"line":0,"character":0}}}}}}"#
                );
                writes.push(frame(body.as_bytes()));
                versions[d] += 1;
                let body = format!(
                    r#"{{"jsonrpc":"2.0","method":"textDocument/didChange","params":{{"textDocument":{{"uri":"{uri}","version":{}}},"contentChanges":[{{"range":{{"start":{{"line":1,"character":0}},"end":{{"line":1,"character":0}}}},"text":"\udc00\ud83d\ude00\ud83d"}}]}}}}"#,
                    versions[d]
                );
                writes.push(frame(body.as_bytes()));
            }
            13 => {
                // An absurd Content-Length, then a body that never comes in full.
                let n = rng.pick(&["99999999999999", "18446744073709551615", "99999999999999999999999", "4294967296"]);
                writes.push(format!("Content-Length: {n}\r\n\r\n{{\"jsonrpc\":\"2.0\"}}").into_bytes());
            }
            14 => {
                // A long header line (and a request in that frame, which is skipped).
                let len = 4097 + rng.below(256 * 1024);
                let mut w = b"X-Padding: ".to_vec();
                w.extend(std::iter::repeat_n(b'x', len));
                let body = text_of(&json!({"jsonrpc": "2.0", "method": "textDocument/hover", "params": {}}));
                w.extend(format!("\r\nContent-Length: {}\r\n\r\n", body.len()).bytes());
                w.extend(body);
                writes.push(w);
            }
            15 => {
                let bodies: [&[u8]; 6] = [
                    b"\x00\x01 not json",
                    br#"{"hello":"world"}"#,
                    b"[]",
                    br#"[{"jsonrpc":"2.0","method":"initialized"}]"#,
                    b"{\"jsonrpc\":\"2.0\",\"method\":\"textDocument/didChange\",\"params\":{\"x\":\"\xff\xfe\"}}",
                    br#"{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":5}}}"#,
                ];
                writes.push(frame(rng.pick::<&[u8]>(&bodies)));
            }
            16 => {
                // Garbage between frames, with and without line ends.
                let g: &[&[u8]] = &[
                    b"garbage\r\n\r\n",
                    b"Content-Type: text/plain\r\n\r\n",
                    b"Content-Length: abc\r\n\r\n",
                    b"\r\n\r\n\r\n",
                    b"Content-Length: -5\r\n\r\n",
                ];
                writes.push(rng.pick(g).to_vec());
            }
            17 => {
                // A request with malformed params, and one for an unknown method.
                let i = id(&mut expect);
                writes.push(request(i.into(), "textDocument/hover", json!({"textDocument": 5})));
                let i = id(&mut expect);
                writes.push(request(i.into(), "kforecast/noSuchThing", json!(null)));
            }
            18 => {
                let i = id(&mut expect);
                writes.push(request(i.into(), "kforecast/status", Value::Null));
            }
            19 => {
                // A string id, a negative id, the largest id.
                let sid = format!("s{}", rng.next());
                writes.push(request(json!(sid), "textDocument/codeLens", json!({"textDocument": {"uri": uri}})));
                let i = -1 - rng.below(1000) as i64;
                expect.ids.insert(i);
                writes.push(request(i.into(), "textDocument/codeLens", json!({"textDocument": {"uri": uri}})));
            }
            20 => {
                writes.push(notification("textDocument/didClose", json!({"textDocument": {"uri": uri}})));
                versions[d] = 0;
            }
            _ => {
                writes.push(notification(
                    "workspace/didChangeConfiguration",
                    json!({"settings": {"kforecast": {"confidenceThreshold": rng.below(100) as f64 / 100.0, "maxFileSize": rng.pick(&[json!(1024), json!("big"), json!(16_000_000)])}}}),
                ));
            }
        }
    }
    // The server must still answer at the end.
    let i = id(&mut expect);
    writes.push(request(i.into(), "kforecast/status", Value::Null));
    let ending = *rng.pick(&[Ending::ShutdownExit, Ending::ExitOnly, Ending::CloseStdin, Ending::CloseStdin]);
    Script { writes, expect, ending }
}

#[derive(Debug, Default)]
struct Tally {
    sessions: usize,
    crashes: usize,
    unanswered: usize,
    alive_after_eof: usize,
    failures: Vec<String>,
}

struct Server {
    child: Child,
    stdin: Option<ChildStdin>,
    incoming: Receiver<Value>,
    log: PathBuf,
}

impl Server {
    fn start(dir: &Path) -> Server {
        let log = dir.join("stderr.log");
        let stderr = std::fs::File::create(&log).expect("log file");
        let mut child = Command::new(common::binary())
            .args(["--no-cache", "lsp"])
            .env("KFORECAST_LOG", "warn")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(stderr)
            .spawn()
            .expect("spawn kforecast lsp");
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().expect("stdout");
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            while let Some(msg) = common::read_message(&mut reader) {
                if tx.send(msg).is_err() {
                    break;
                }
            }
        });
        Server { child, stdin, incoming: rx, log }
    }
}

/// The outcome of one session: `None` when all was well, else what went wrong.
fn run_session(seed: u64, dir: &Path, replay: Option<&[u8]>) -> (Option<String>, Vec<u8>, &'static str) {
    let script = script(seed, dir);
    let mut sent = Vec::new();
    let mut server = Server::start(dir);
    let mut expect = script.expect;
    let mut answered_null = 0;
    let mut seen: HashSet<i64> = HashSet::new();
    let mut crashed = None;
    let writes: Vec<Vec<u8>> = match replay {
        Some(bytes) => vec![bytes.to_vec()],
        None => script.writes,
    };
    // Writes go from a thread, so a server that stops reading cannot block the session.
    let stdin = server.stdin.take().expect("stdin");
    let writer = std::thread::spawn(move || {
        let mut stdin = stdin;
        for w in writes {
            if stdin.write_all(&w).and_then(|_| stdin.flush()).is_err() {
                return None;
            }
        }
        Some(stdin)
    });
    let drain = |server: &mut Server,
                 until: Instant,
                 seen: &mut HashSet<i64>,
                 nulls: &mut usize,
                 stop: &dyn Fn(&HashSet<i64>, usize) -> bool| {
        while !stop(seen, *nulls) {
            let left = until.saturating_duration_since(Instant::now());
            match server.incoming.recv_timeout(left.min(Duration::from_millis(200))) {
                Ok(msg) => {
                    if msg.get("method").is_some() {
                        continue;
                    }
                    match msg.get("id") {
                        Some(Value::Null) => *nulls += 1,
                        Some(id) => {
                            if let Some(i) = id.as_i64() {
                                seen.insert(i);
                            }
                        }
                        None => {}
                    }
                }
                Err(_) if Instant::now() >= until => return,
                Err(_) => {}
            }
        }
    };
    let (mut stdin, ending) = match writer.join().ok().flatten() {
        Some(s) => (Some(s), script.ending),
        None => (None, Ending::CloseStdin),
    };
    let wanted = expect.ids.clone();
    let nulls_wanted = expect.null_ids;
    if replay.is_none() {
        drain(&mut server, Instant::now() + ANSWER_WITHIN, &mut seen, &mut answered_null, &|s, n| {
            wanted.is_subset(s) && n >= nulls_wanted
        });
    }
    if let Ok(Some(status)) = server.child.try_wait() {
        crashed = Some(format!("the server exited before the session ended ({status})"));
    }
    let missing: Vec<i64> = expect.ids.difference(&seen).copied().collect();
    // Ending the session.
    let ended_at = match (ending, stdin.as_mut()) {
        (Ending::ShutdownExit, Some(s)) => {
            let _ = s.write_all(&request(json!(1_000_000), "shutdown", Value::Null));
            let _ = s.flush();
            expect.ids.insert(1_000_000);
            drain(&mut server, Instant::now() + ANSWER_WITHIN, &mut seen, &mut answered_null, &|s, _| {
                s.contains(&1_000_000)
            });
            let _ = s.write_all(&notification("exit", Value::Null));
            let _ = s.flush();
            Instant::now()
        }
        (Ending::ExitOnly, Some(s)) => {
            let _ = s.write_all(&notification("exit", Value::Null));
            let _ = s.flush();
            Instant::now()
        }
        _ => Instant::now(),
    };
    drop(stdin);
    let mut alive = false;
    loop {
        match server.child.try_wait() {
            Ok(Some(status)) => {
                if let Some(sig) = signal(&status) {
                    crashed.get_or_insert(format!("killed by signal {sig}"));
                }
                break;
            }
            Ok(None) if ended_at.elapsed() > GONE_AFTER_EOF => {
                alive = true;
                let _ = server.child.kill();
                let _ = server.child.wait();
                break;
            }
            _ => std::thread::sleep(Duration::from_millis(10)),
        }
    }
    if let Ok(log) = std::fs::read_to_string(&server.log) {
        if let Some(line) = log.lines().find(|l| l.contains("panicked")) {
            crashed.get_or_insert(format!("panic: {line}"));
        }
    }
    let (problem, kind) = if let Some(c) = crashed {
        (Some(c), "crash")
    } else if replay.is_none() && (!missing.is_empty() || answered_null < expect.null_ids) {
        (
            Some(format!(
                "unanswered after {ANSWER_WITHIN:?}: ids {missing:?}, {} of {} null-id answers",
                answered_null, expect.null_ids
            )),
            "unanswered",
        )
    } else if alive {
        (Some(format!("alive {GONE_AFTER_EOF:?} after stdin closed ({ending:?})")), "alive-after-eof")
    } else {
        (None, "")
    };
    if problem.is_some() {
        sent = script_bytes(seed, dir);
    }
    (problem, sent, kind)
}

#[cfg(unix)]
fn signal(status: &std::process::ExitStatus) -> Option<i32> {
    use std::os::unix::process::ExitStatusExt;
    status.signal()
}

#[cfg(not(unix))]
fn signal(_: &std::process::ExitStatus) -> Option<i32> {
    None
}

/// The bytes a seed's session sends (for the reproducer).
fn script_bytes(seed: u64, dir: &Path) -> Vec<u8> {
    script(seed, dir).writes.concat()
}

fn env_or<T: std::str::FromStr>(name: &str, default: T) -> T {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

#[test]
fn fuzzed_sessions_never_crash_hang_or_outlive_stdin() {
    let sessions: usize = env_or("KFORECAST_FUZZ_SESSIONS", 2000);
    let seconds: u64 = env_or("KFORECAST_FUZZ_SECONDS", 90);
    let jobs: usize = env_or("KFORECAST_FUZZ_JOBS", 2);
    let seed: u64 = env_or("KFORECAST_FUZZ_SEED", 0x6b66_6f72_6563);
    let root = tempfile::Builder::new().prefix("kforecast-fuzz-").tempdir().expect("tempdir");
    if let Ok(path) = std::env::var("KFORECAST_FUZZ_REPLAY") {
        let bytes = std::fs::read(&path).expect("read the reproducer");
        let (problem, _, _) = run_session(0, root.path(), Some(&bytes));
        assert!(problem.is_none(), "{path}: {problem:?}");
        return;
    }
    let deadline = Instant::now() + Duration::from_secs(seconds);
    let next = Arc::new(AtomicUsize::new(0));
    let tally = Arc::new(Mutex::new(Tally::default()));
    let started = Instant::now();
    std::thread::scope(|s| {
        for _ in 0..jobs.max(1) {
            let (next, tally, root) = (next.clone(), tally.clone(), root.path().to_path_buf());
            s.spawn(move || loop {
                let n = next.fetch_add(1, Ordering::SeqCst);
                if n >= sessions || Instant::now() > deadline {
                    return;
                }
                let session_seed = seed.wrapping_add(n as u64).wrapping_mul(0x2545_F491_4F6C_DD1D);
                let dir = root.join(format!("s{n}"));
                std::fs::create_dir_all(&dir).expect("session dir");
                let (problem, sent, kind) = run_session(session_seed, &dir, None);
                let mut t = tally.lock().unwrap_or_else(|p| p.into_inner());
                t.sessions += 1;
                if let Some(problem) = problem {
                    match kind {
                        "crash" => t.crashes += 1,
                        "unanswered" => t.unanswered += 1,
                        _ => t.alive_after_eof += 1,
                    }
                    let repro = dir.join("reproducer.bin");
                    let _ = std::fs::write(&repro, &sent);
                    let _ = std::fs::write(dir.join("problem.txt"), format!("seed {session_seed:#x}: {problem}\n"));
                    let line =
                        format!("session {n} (seed {session_seed:#x}): {problem}\n  reproducer: {}", repro.display());
                    eprintln!("{line}");
                    t.failures.push(line);
                } else {
                    let _ = std::fs::remove_dir_all(&dir);
                }
                if t.sessions % 500 == 0 {
                    eprintln!(
                        "{} sessions, {} crashes, {} unanswered, {} alive after EOF ({:.0} s)",
                        t.sessions,
                        t.crashes,
                        t.unanswered,
                        t.alive_after_eof,
                        started.elapsed().as_secs_f64()
                    );
                }
            });
        }
    });
    let t = tally.lock().unwrap_or_else(|p| p.into_inner());
    println!(
        "fuzzed LSP sessions: {} in {:.0} s (seed {seed:#x}, {jobs} jobs): {} crashes, {} with requests unanswered after {} s, {} alive {} s after stdin EOF",
        t.sessions,
        started.elapsed().as_secs_f64(),
        t.crashes,
        t.unanswered,
        ANSWER_WITHIN.as_secs(),
        t.alive_after_eof,
        GONE_AFTER_EOF.as_secs()
    );
    if !t.failures.is_empty() {
        let kept = root.keep();
        panic!("{} failing sessions (kept under {}):\n{}", t.failures.len(), kept.display(), t.failures.join("\n"));
    }
    assert!(t.sessions > 0);
}
