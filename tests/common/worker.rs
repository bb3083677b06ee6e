//! A real `kforecast worker --listen` on loopback and a raw HTTP client for it (the
//! worker tests, and the GPU tests that send it jobs).

use super::{binary, repo_root};
use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

pub const TOKEN: &str = "s3cret-token";

pub struct Worker {
    pub child: Child,
    pub addr: String,
}

impl Drop for Worker {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Starts a worker on a port the system picks (a port chosen before the worker binds it
/// can be taken by another test's worker meanwhile); `python` replaces the Triton runner's
/// interpreter (a test double).
pub fn worker(extra: &[&str], python: Option<&Path>) -> Worker {
    let mut cmd = Command::new(binary());
    cmd.args(["worker", "--listen", "127.0.0.1:0"])
        .args(extra)
        .env("KFORECAST_WORKER_TOKEN", TOKEN)
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    if let Some(p) = python {
        cmd.env("KFORECAST_PYTHON", p);
    }
    let mut child = cmd.spawn().expect("spawn worker");
    // The address it announces; the rest of its log is read on so that it never blocks.
    let log = child.stderr.take().expect("the worker's stderr");
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut tx = Some(tx);
        for line in BufReader::new(log).lines().map_while(Result::ok) {
            if let Some(addr) = line.strip_prefix("kforecast worker listening on http://") {
                if let Some(tx) = tx.take() {
                    let _ = tx.send(addr.trim().to_string());
                }
            }
        }
    });
    let addr = rx.recv_timeout(Duration::from_secs(20)).expect("worker did not listen");
    Worker { child, addr }
}

/// A raw HTTP/1.1 exchange: (status, body).
pub fn http(addr: &str, method: &str, path: &str, token: Option<&str>, body: &[u8]) -> (u16, String) {
    let mut s = TcpStream::connect(addr).expect("connect");
    s.set_read_timeout(Some(Duration::from_secs(60))).expect("timeout");
    let auth = token.map(|t| format!("Authorization: Bearer {t}\r\n")).unwrap_or_default();
    let head = format!("{method} {path} HTTP/1.1\r\nHost: {addr}\r\n{auth}Content-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n", body.len());
    s.write_all(head.as_bytes()).expect("write");
    let _ = s.write_all(body);
    let mut out = String::new();
    let _ = s.read_to_string(&mut out);
    let status = out.split_whitespace().nth(1).and_then(|c| c.parse().ok()).unwrap_or(0);
    let body = out.split_once("\r\n\r\n").map(|(_, b)| b.to_string()).unwrap_or_default();
    (status, body)
}

/// The Triton workspace's pair as a job (1,024 elements).
pub fn triton_job() -> String {
    let root = repo_root().join("test-workspaces/triton");
    let read = |p: &str| std::fs::read_to_string(root.join(p)).expect("read");
    json!({
        "job": {"language": "triton", "kernel": "add_kernel",
            "base": {"file_name": "vector_add.py", "source": read("previous/kernels/vector_add.py"), "wrapper": "add"},
            "candidate": {"file_name": "vector_add.py", "source": read("kernels/vector_add.py"), "wrapper": "add"},
            "inputs": [{"kind": "tensor", "name": "x", "dtype": "f32", "shape": [1024], "init": {"kind": "randn"}},
                       {"kind": "tensor", "name": "y", "dtype": "f32", "shape": [1024], "init": {"kind": "randn"}}],
            "args": ["x", "y"], "outputs": []}
    })
    .to_string()
}

/// A CUDA job with one 2^40-element float32 buffer (4 TiB).
pub fn absurd_cuda_job() -> Value {
    let version = json!({"source": "__global__ void k(float* x) { x[threadIdx.x] = 1.0f; }",
        "name_expression": "&k", "grid": [1, 1, 1], "block": [32, 1, 1], "shared_mem": 0});
    json!({"job": {"language": "cuda", "kernel": "k", "base": version, "candidate": version,
        "args": [{"kind": "buffer", "name": "x", "dtype": "f32", "len": 1u64 << 40, "init": {"kind": "zeros"}, "output": true}]}})
}
