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
use std::collections::HashMap;
use std::io::{BufReader, Read, Write};
use std::sync::mpsc::{sync_channel, Receiver, SyncSender, TrySendError};
use std::sync::Mutex;
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

/// Whether the other end of stdin has hung up, waiting at most `wait`.
#[cfg(unix)]
fn hung_up(wait: Duration) -> bool {
    use std::os::fd::AsRawFd;
    // Asking for no events: poll returns only on a hang-up or an error.
    let mut fd = libc::pollfd { fd: std::io::stdin().as_raw_fd(), events: 0, revents: 0 };
    let ready = unsafe { libc::poll(&mut fd, 1, wait.as_millis() as libc::c_int) };
    ready > 0 && fd.revents & (libc::POLLHUP | libc::POLLERR | libc::POLLNVAL) != 0
}

#[cfg(not(unix))]
fn hung_up(wait: Duration) -> bool {
    std::thread::sleep(wait);
    false
}

/// Queues a frame; false once stdin has hung up (then nothing more is worth passing).
fn send(queue: &SyncSender<Vec<u8>>, mut body: Vec<u8>, watch_hangup: bool) -> bool {
    let wait = Duration::from_millis(20);
    loop {
        match queue.try_send(body) {
            Ok(()) => return true,
            Err(TrySendError::Disconnected(_)) => return false,
            Err(TrySendError::Full(b)) => {
                body = b;
                if !watch_hangup {
                    std::thread::sleep(wait);
                } else if hung_up(wait) {
                    return false;
                }
            }
        }
    }
}

/// Reads frames from `input` and queues what passes until `input` ends.
pub fn read(input: impl Read, queue: SyncSender<Vec<u8>>, versions: &Versions, watch_hangup: bool) {
    let mut reader = FrameReader::new(BufReader::with_capacity(1 << 16, input));
    loop {
        match reader.next_frame() {
            Frame::End => break,
            Frame::Skip(why) => tracing::warn!("dropped {why}"),
            Frame::Body(body) => {
                if let Some(body) = filter(body, versions) {
                    if !send(&queue, body, watch_hangup) {
                        break;
                    }
                }
            }
        }
    }
}

/// Writes queued frames to `output` until the queue ends.
pub fn write(queue: Receiver<Vec<u8>>, mut output: impl Write) {
    for body in queue {
        let header = format!("Content-Length: {}\r\n\r\n", body.len());
        if output
            .write_all(header.as_bytes())
            .and_then(|_| output.write_all(&body))
            .and_then(|_| output.flush())
            .is_err()
        {
            break;
        }
    }
}

/// Copies checked frames from `input` to `output` until `input` ends.
#[cfg(test)]
pub fn pump(input: impl Read, output: impl Write + Send, versions: &Versions) {
    let (tx, rx) = sync_channel(QUEUE);
    std::thread::scope(|s| {
        s.spawn(move || write(rx, output));
        read(input, tx, versions, false);
    });
}

/// Stdin as a checked async stream; `on_end` runs as soon as stdin ends or hangs up.
#[cfg(unix)]
pub fn stdin(
    versions: std::sync::Arc<Versions>,
    on_end: impl FnOnce() + Send + 'static,
) -> std::io::Result<tokio::net::UnixStream> {
    let (ours, theirs) = std::os::unix::net::UnixStream::pair()?;
    let (tx, rx) = sync_channel(QUEUE);
    std::thread::Builder::new().name("kforecast-stdin".into()).spawn(move || {
        read(std::io::stdin().lock(), tx, &versions, true);
        on_end();
    })?;
    std::thread::Builder::new().name("kforecast-input".into()).spawn(move || {
        write(rx, &ours);
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
