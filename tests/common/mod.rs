//! A minimal LSP client that drives the real `kforecast` binary over stdio, as an
//! editor does. Shared by the end-to-end tests.
#![allow(dead_code)]

pub mod worker;

use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

pub const TIMEOUT: Duration = Duration::from_secs(30);

/// The binary under test (`KFORECAST_BIN` overrides, e.g. on the GPU machine).
pub fn binary() -> PathBuf {
    std::env::var_os("KFORECAST_BIN")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_BIN_EXE_kforecast")))
}

/// The repository root (`KFORECAST_REPO` overrides).
pub fn repo_root() -> PathBuf {
    std::env::var_os("KFORECAST_REPO")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../.."))
}

pub fn workspace_file(rel: &str) -> String {
    std::fs::read_to_string(repo_root().join("test-workspaces").join(rel)).expect("test workspace file")
}

pub struct Client {
    child: Child,
    stdin: ChildStdin,
    incoming: Receiver<Value>,
    next_id: i64,
    /// Notifications received so far (publishDiagnostics, showMessage, …).
    pub notifications: Vec<Value>,
    /// Requests the server sent (workspace/applyEdit, …), answered as an editor would.
    pub server_requests: Vec<Value>,
    _cache: Option<tempfile::TempDir>,
}

/// One message read off the server's stdout (`None` at its end).
pub fn read_message(reader: &mut impl BufRead) -> Option<Value> {
    let mut length = None;
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).ok()? == 0 {
            return None;
        }
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        if let Some(v) = line.strip_prefix("Content-Length:") {
            length = v.trim().parse::<usize>().ok();
        }
    }
    let mut body = vec![0; length?];
    reader.read_exact(&mut body).ok()?;
    serde_json::from_slice(&body).ok()
}

impl Client {
    /// Starts `kforecast lsp` with its own cache directory.
    pub fn start() -> Self {
        let cache = tempfile::tempdir().expect("tempdir");
        let mut c = Self::start_in(cache.path());
        c._cache = Some(cache);
        c
    }

    /// Starts `kforecast lsp` with its cache in `dir`.
    pub fn start_in(dir: &Path) -> Self {
        let mut child = Command::new(binary())
            .arg("lsp")
            .env("KFORECAST_CACHE_DIR", dir)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("spawn kforecast lsp");
        let stdin = child.stdin.take().expect("stdin");
        let stdout = child.stdout.take().expect("stdout");
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            while let Some(msg) = read_message(&mut reader) {
                if tx.send(msg).is_err() {
                    break;
                }
            }
        });
        Self {
            child,
            stdin,
            incoming: rx,
            next_id: 1,
            notifications: Vec::new(),
            server_requests: Vec::new(),
            _cache: None,
        }
    }

    /// The server's process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Writes bytes as they are (no header added).
    pub fn send_bytes(&mut self, bytes: &[u8]) {
        self.stdin.write_all(bytes).expect("write");
        self.stdin.flush().expect("flush");
    }

    pub fn send_raw(&mut self, body: &[u8]) {
        let header = format!("Content-Length: {}\r\n\r\n", body.len());
        self.stdin.write_all(header.as_bytes()).expect("write header");
        self.stdin.write_all(body).expect("write body");
        self.stdin.flush().expect("flush");
    }

    fn send(&mut self, msg: &Value) {
        let body = serde_json::to_vec(msg).expect("json");
        self.send_raw(&body);
    }

    pub fn notify(&mut self, method: &str, params: Value) {
        let msg = if params.is_null() {
            json!({"jsonrpc": "2.0", "method": method})
        } else {
            json!({"jsonrpc": "2.0", "method": method, "params": params})
        };
        self.send(&msg);
    }

    /// Sends a request and waits for its response (answering server requests meanwhile).
    pub fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        let msg = if params.is_null() {
            json!({"jsonrpc": "2.0", "id": id, "method": method})
        } else {
            json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params})
        };
        self.send(&msg);
        self.wait_response(id)
    }

    pub fn wait_response(&mut self, id: i64) -> Value {
        let deadline = Instant::now() + TIMEOUT;
        loop {
            let msg = self.next_message(deadline).unwrap_or_else(|| panic!("no response to request {id}"));
            if msg.get("id").and_then(Value::as_i64) == Some(id) && msg.get("method").is_none() {
                return msg;
            }
        }
    }

    /// The next response to one of our requests (answering server requests meanwhile).
    pub fn next_response(&mut self, timeout: Duration) -> Option<Value> {
        let deadline = Instant::now() + timeout;
        loop {
            let msg = self.next_message(deadline)?;
            if msg.get("method").is_none() {
                return Some(msg);
            }
        }
    }

    fn next_message(&mut self, deadline: Instant) -> Option<Value> {
        let left = deadline.saturating_duration_since(Instant::now());
        match self.incoming.recv_timeout(left) {
            Ok(msg) => {
                if msg.get("method").is_some() {
                    if let Some(id) = msg.get("id").cloned() {
                        // A request from the server (e.g. inlayHint/refresh): acknowledge it;
                        // an edit is applied.
                        let result =
                            if msg["method"] == "workspace/applyEdit" { json!({"applied": true}) } else { Value::Null };
                        self.send(&json!({"jsonrpc": "2.0", "id": id, "result": result}));
                        self.server_requests.push(msg.clone());
                    } else {
                        self.notifications.push(msg.clone());
                    }
                }
                Some(msg)
            }
            Err(RecvTimeoutError::Timeout) | Err(RecvTimeoutError::Disconnected) => None,
        }
    }

    /// Waits until a notification matching `pred` arrives (or was already received).
    pub fn wait_notification(&mut self, pred: impl Fn(&Value) -> bool) -> Value {
        if let Some(n) = self.notifications.iter().find(|n| pred(n)) {
            return n.clone();
        }
        let deadline = Instant::now() + TIMEOUT;
        loop {
            let msg = self.next_message(deadline).expect("expected notification did not arrive");
            if msg.get("id").is_none() && pred(&msg) {
                return msg;
            }
        }
    }

    pub fn initialize(&mut self, options: Value) -> Value {
        self.initialize_with(options, json!({}))
    }

    pub fn initialize_with(&mut self, options: Value, general: Value) -> Value {
        let resp = self.request(
            "initialize",
            json!({
                "processId": null,
                "rootUri": null,
                "capabilities": {
                    "general": general,
                    "workspace": {"inlayHint": {"refreshSupport": true}, "codeLens": {"refreshSupport": true}},
                    "window": {"workDoneProgress": true},
                    "textDocument": {"inlayHint": {}, "hover": {"contentFormat": ["markdown"]}}
                },
                "initializationOptions": options
            }),
        );
        self.notify("initialized", json!({}));
        resp
    }

    pub fn open(&mut self, uri: &str, language: &str, text: &str) {
        self.notify(
            "textDocument/didOpen",
            json!({"textDocument": {"uri": uri, "languageId": language, "version": 1, "text": text}}),
        );
    }

    /// An incremental change replacing `(line, col)..(line, col)` (UTF-16) with `text`.
    pub fn change(&mut self, uri: &str, version: i64, start: (u32, u32), end: (u32, u32), text: &str) {
        self.notify(
            "textDocument/didChange",
            json!({
                "textDocument": {"uri": uri, "version": version},
                "contentChanges": [{
                    "range": {"start": {"line": start.0, "character": start.1}, "end": {"line": end.0, "character": end.1}},
                    "text": text
                }]
            }),
        );
    }

    pub fn inlay_hints(&mut self, uri: &str) -> Vec<String> {
        let resp = self.request(
            "textDocument/inlayHint",
            json!({"textDocument": {"uri": uri}, "range": {"start": {"line": 0, "character": 0}, "end": {"line": 100000, "character": 0}}}),
        );
        resp["result"]
            .as_array()
            .map(|hints| hints.iter().filter_map(|h| h["label"].as_str().map(str::to_string)).collect())
            .unwrap_or_default()
    }

    pub fn shutdown(mut self) -> std::process::ExitStatus {
        let resp = self.request("shutdown", Value::Null);
        assert!(resp.get("error").is_none(), "shutdown failed: {resp}");
        self.notify("exit", Value::Null);
        let deadline = Instant::now() + TIMEOUT;
        loop {
            if let Some(status) = self.child.try_wait().expect("wait") {
                return status;
            }
            assert!(Instant::now() < deadline, "server did not exit after `exit`");
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    /// Whether the process is still running.
    pub fn alive(&mut self) -> bool {
        self.child.try_wait().map(|s| s.is_none()).unwrap_or(false)
    }
}

impl Drop for Client {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Runs git in `dir` with a fixed identity.
pub fn git(dir: &Path, args: &[&str]) {
    let ok = Command::new("git")
        .args(args)
        .current_dir(dir)
        .env("GIT_AUTHOR_NAME", "t")
        .env("GIT_AUTHOR_EMAIL", "t@t")
        .env("GIT_COMMITTER_NAME", "t")
        .env("GIT_COMMITTER_EMAIL", "t@t")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .expect("git")
        .success();
    assert!(ok, "git {args:?} failed");
}

/// A temporary git repository holding `files` committed at HEAD.
pub fn git_repo(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    git(dir.path(), &["init", "-q"]);
    for (name, text) in files {
        std::fs::write(dir.path().join(name), text).expect("write");
    }
    git(dir.path(), &["add", "."]);
    git(dir.path(), &["commit", "-q", "-m", "base"]);
    dir
}

pub fn uri_of(path: &Path) -> String {
    format!("file://{}", path.display())
}

/// (line, UTF-16 column) of the first occurrence of `needle` in `text`.
pub fn position_of(text: &str, needle: &str) -> (u32, u32) {
    let offset = text.find(needle).unwrap_or_else(|| panic!("`{needle}` not in text"));
    let before = &text[..offset];
    let line = before.matches('\n').count() as u32;
    let col = before.rsplit('\n').next().unwrap_or("").encode_utf16().count() as u32;
    (line, col)
}

/// The position just after the end of `text`.
pub fn end_position(text: &str) -> (u32, u32) {
    let line = text.matches('\n').count() as u32;
    let col = text.rsplit('\n').next().unwrap_or("").encode_utf16().count() as u32;
    (line, col)
}
