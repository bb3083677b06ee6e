//! The server's input: JSON-RPC frames read from stdin and checked before tower-lsp
//! sees them.
//!
//! tower-lsp stops reading for good after the first frame it cannot decode. The server
//! must outlive any client, so a thread reads stdin through [`frame`](super::frame)
//! (limits checked before anything is allocated, bad bytes repaired), turns requests it
//! must refuse into an internal request the server answers with the error, drops what
//! is not JSON-RPC with a warning, and passes the rest on through a socket pair. It also
//! notes each document's newest version as it arrives, so handlers can tell that a
//! request was overtaken by an edit still queued ([`Versions`]), and reports the end of
//! stdin at once, even while the server is busy.

use super::frame::{self, AnyString, Frame, FrameReader, Outcome};
use serde::Deserialize;
use std::collections::{HashMap, VecDeque};
use std::io::{BufReader, Read, Write};
use std::sync::{Condvar, Mutex};
use std::time::Duration;
use tower_lsp::lsp_types::{DidChangeTextDocumentParams, DidCloseTextDocumentParams, Url};

/// Frames read ahead of the server.
const QUEUE: usize = 64;

/// The newest version of each open document as read off the wire, ahead of the
/// handlers: an edit queued behind a request makes that request stale.
#[derive(Default)]
pub struct Versions(Mutex<HashMap<Url, i32>>);

#[derive(Deserialize)]
struct Notification<P> {
    params: P,
}

#[derive(Deserialize)]
struct OpenParams {
    #[serde(rename = "textDocument")]
    doc: OpenedDocument,
}

/// `TextDocumentItem` without keeping its text.
#[derive(Deserialize)]
struct OpenedDocument {
    uri: Url,
    #[serde(rename = "languageId")]
    _language: AnyString,
    version: i32,
    #[serde(rename = "text")]
    _text: AnyString,
}

impl Versions {
    /// The newest version read of a document, if it is open.
    pub fn latest(&self, uri: &Url) -> Option<i32> {
        self.map().get(uri).copied()
    }

    /// A later version of the document than `version` has arrived (it is open).
    pub fn superseded(&self, uri: &Url, version: i32) -> bool {
        self.latest(uri).is_some_and(|v| v != version)
    }

    fn map(&self) -> std::sync::MutexGuard<'_, HashMap<Url, i32>> {
        self.0.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Notes a document notification the server will receive (only those whose params
    /// the server will read, so the two never disagree).
    fn note(&self, method: &str, body: &[u8]) {
        match method {
            "textDocument/didOpen" => {
                if let Ok(n) = serde_json::from_slice::<Notification<OpenParams>>(body) {
                    self.map().insert(n.params.doc.uri, n.params.doc.version);
                }
            }
            "textDocument/didChange" => {
                if let Ok(n) = serde_json::from_slice::<Notification<DidChangeTextDocumentParams>>(body) {
                    self.map().insert(n.params.text_document.uri, n.params.text_document.version);
                }
            }
            "textDocument/didClose" => {
                if let Ok(n) = serde_json::from_slice::<Notification<DidCloseTextDocumentParams>>(body) {
                    self.map().remove(&n.params.text_document.uri);
                }
            }
            _ => {}
        }
    }
}

/// What one body becomes on its way to tower-lsp (`None`: dropped).
pub fn filter(body: Vec<u8>, versions: &Versions) -> Option<Vec<u8>> {
    let (outcome, repairs) = frame::check(body);
    if repairs.utf8 {
        tracing::warn!("the client sent bytes that are not UTF-8; they are replaced by '?'");
    }
    if repairs.surrogates {
        tracing::warn!("the client sent a lone UTF-16 surrogate escape; it is replaced by U+FFFD");
    }
    match outcome {
        Outcome::Pass { body, method } => {
            if let Some(method) = method {
                versions.note(&method, &body);
            }
            Some(body)
        }
        Outcome::Refuse { id, code, message } => {
            tracing::warn!("refused a request (id {id}): {message}");
            Some(frame::refusal(&id, code, &message))
        }
        Outcome::Drop(why) => {
            tracing::warn!("dropped {why}");
            None
        }
    }
}

/// Whether the other end of stdin has hung up (without waiting).
#[cfg(unix)]
fn hung_up() -> bool {
    use std::os::fd::AsRawFd;
    // Asking for no events: poll reports only a hang-up or an error.
    let mut fd = libc::pollfd { fd: std::io::stdin().as_raw_fd(), events: 0, revents: 0 };
    let ready = unsafe { libc::poll(&mut fd, 1, 0) };
    ready > 0 && fd.revents & (libc::POLLHUP | libc::POLLERR | libc::POLLNVAL) != 0
}

#[cfg(not(unix))]
fn hung_up() -> bool {
    false
}

/// Frames read ahead of the server, at most [`QUEUE`]: the reader waits for room (woken
/// as soon as there is some), the writer takes everything queued at once.
#[derive(Default)]
pub struct Queue {
    state: Mutex<Queued>,
    room: Condvar,
    ready: Condvar,
}

#[derive(Default)]
struct Queued {
    frames: VecDeque<Vec<u8>>,
    /// The reader has finished: nothing more will come.
    ended: bool,
    /// The writer has stopped: nothing more is worth queueing.
    gone: bool,
}

impl Queue {
    fn lock(&self) -> std::sync::MutexGuard<'_, Queued> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Queues a frame, waiting while the queue is full; false once the writer has
    /// stopped, or (with `watch_hangup`) stdin has hung up while waiting: then nothing
    /// more is worth passing.
    fn push(&self, body: Vec<u8>, watch_hangup: bool) -> bool {
        let mut q = self.lock();
        loop {
            if q.gone {
                return false;
            }
            if q.frames.len() < QUEUE {
                q.frames.push_back(body);
                self.ready.notify_one();
                return true;
            }
            let (next, wait) = self.room.wait_timeout(q, Duration::from_millis(20)).unwrap_or_else(|p| p.into_inner());
            q = next;
            if wait.timed_out() && watch_hangup && hung_up() {
                return false;
            }
        }
    }

    /// Everything queued, waiting for something; `None` once the reader has finished
    /// and all was taken.
    fn take_all(&self) -> Option<VecDeque<Vec<u8>>> {
        let mut q = self.lock();
        while q.frames.is_empty() && !q.ended {
            q = self.ready.wait(q).unwrap_or_else(|p| p.into_inner());
        }
        if q.frames.is_empty() {
            return None;
        }
        self.room.notify_one();
        Some(std::mem::take(&mut q.frames))
    }

    fn end(&self) {
        self.lock().ended = true;
        self.ready.notify_all();
    }

    fn stop(&self) {
        self.lock().gone = true;
        self.room.notify_all();
    }
}

/// Reads frames from `input` and queues what passes until `input` ends.
pub fn read(input: impl Read, queue: &Queue, versions: &Versions, watch_hangup: bool) {
    let mut reader = FrameReader::new(BufReader::with_capacity(1 << 16, input));
    loop {
        match reader.next_frame() {
            Frame::End => break,
            Frame::Skip(why) => tracing::warn!("dropped {why}"),
            Frame::Body(body) => {
                if let Some(body) = filter(body, versions) {
                    if !queue.push(body, watch_hangup) {
                        break;
                    }
                }
            }
        }
    }
    queue.end();
}

/// Writes queued frames to `output` until the queue ends, all that is queued in one write.
pub fn write(queue: &Queue, mut output: impl Write) {
    let mut out = Vec::new();
    while let Some(frames) = queue.take_all() {
        out.clear();
        for body in frames {
            out.extend_from_slice(format!("Content-Length: {}\r\n\r\n", body.len()).as_bytes());
            out.extend_from_slice(&body);
        }
        if output.write_all(&out).and_then(|_| output.flush()).is_err() {
            break;
        }
        // A large frame's buffer is not kept.
        out.shrink_to(1 << 16);
    }
    queue.stop();
}

/// Copies checked frames from `input` to `output` until `input` ends.
#[cfg(test)]
pub fn pump(input: impl Read, output: impl Write + Send, versions: &Versions) {
    let queue = Queue::default();
    std::thread::scope(|s| {
        s.spawn(|| write(&queue, output));
        read(input, &queue, versions, false);
    });
}

/// Stdin as a checked async stream; `on_end` runs as soon as stdin ends or hangs up.
#[cfg(unix)]
pub fn stdin(
    versions: std::sync::Arc<Versions>,
    on_end: impl FnOnce() + Send + 'static,
) -> std::io::Result<tokio::net::UnixStream> {
    let (ours, theirs) = std::os::unix::net::UnixStream::pair()?;
    let queue = std::sync::Arc::new(Queue::default());
    let reader_queue = queue.clone();
    std::thread::Builder::new().name("kforecast-stdin".into()).spawn(move || {
        read(std::io::stdin().lock(), &reader_queue, &versions, true);
        on_end();
    })?;
    std::thread::Builder::new().name("kforecast-input".into()).spawn(move || {
        write(&queue, &ours);
        let _ = ours.shutdown(std::net::Shutdown::Write);
    })?;
    theirs.set_nonblocking(true)?;
    tokio::net::UnixStream::from_std(theirs)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frame(body: &[u8]) -> Vec<u8> {
        let mut v = format!("Content-Length: {}\r\n\r\n", body.len()).into_bytes();
        v.extend_from_slice(body);
        v
    }

    #[test]
    fn repairs_utf8_and_drops_what_is_not_json_rpc() {
        let mut input = Vec::new();
        input.extend(frame(b"{\"jsonrpc\":\"2.0\",\"method\":\"a\",\"params\":{\"t\":\"\xff\"}}"));
        input.extend(frame(b"\x00 not json"));
        input.extend(frame(br#"{"hello":"world"}"#));
        input.extend(b"garbage without a header\r\n\r\n");
        input.extend(frame(br#"{"jsonrpc":"2.0","id":1,"method":"b"}"#));
        let mut out = Vec::new();
        pump(&input[..], &mut out, &Versions::default());
        let text = String::from_utf8(out).expect("utf8");
        assert!(text.contains(r#""t":"?""#), "{text}");
        assert!(text.contains(r#""method":"b""#), "{text}");
        assert!(!text.contains("hello") && !text.contains("not json"), "{text}");
        assert_eq!(text.matches("Content-Length").count(), 2);
    }

    #[test]
    fn versions_follow_the_document_notifications_that_will_be_read() {
        let v = Versions::default();
        let uri = Url::parse("file:///a.cu").expect("url");
        let open = br#"{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"file:///a.cu","languageId":"cuda","version":1,"text":"x"}}}"#;
        assert!(filter(open.to_vec(), &v).is_some());
        assert_eq!(v.latest(&uri), Some(1));
        let change = br#"{"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":"file:///a.cu","version":7},"contentChanges":[{"text":"y"}]}}"#;
        filter(change.to_vec(), &v);
        assert_eq!(v.latest(&uri), Some(7));
        // A change the server cannot read (no contentChanges) is not counted.
        let bad = br#"{"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":"file:///a.cu","version":9}}}"#;
        filter(bad.to_vec(), &v);
        assert_eq!(v.latest(&uri), Some(7));
        let close =
            br#"{"jsonrpc":"2.0","method":"textDocument/didClose","params":{"textDocument":{"uri":"file:///a.cu"}}}"#;
        filter(close.to_vec(), &v);
        assert_eq!(v.latest(&uri), None);
    }
}
