//! The server's input: JSON-RPC frames read from stdin and checked before tower-lsp
//! sees them.
//!
//! tower-lsp stops reading for good after the first frame it cannot decode (bytes that
//! are not UTF-8, a body that is not JSON-RPC). The server must outlive any client, so
//! a thread reads stdin, repairs invalid UTF-8 (each bad byte becomes `?`), drops
//! frames that are not JSON-RPC messages with a warning, and passes clean frames on
//! through a socket pair.

use serde_json::Value;
use std::io::{BufRead, BufReader, Read, Write};

/// One frame's body, or why there is none.
enum Frame {
    Body(Vec<u8>),
    Skip(String),
    End,
}

fn read_frame(reader: &mut impl BufRead) -> Frame {
    let mut length: Option<usize> = None;
    let mut saw_header = false;
    loop {
        let mut line = Vec::new();
        match reader.read_until(b'\n', &mut line) {
            Ok(0) | Err(_) => return Frame::End,
            Ok(_) => {}
        }
        let text = String::from_utf8_lossy(&line);
        let text = text.trim_end_matches(['\r', '\n']);
        if text.is_empty() {
            if saw_header {
                break;
            }
            continue;
        }
        saw_header = true;
        if let Some((name, value)) = text.split_once(':') {
            if name.trim().eq_ignore_ascii_case("content-length") {
                length = value.trim().parse().ok();
            }
        }
        if line.len() > 4096 {
            return Frame::Skip("a header line longer than 4 KiB".to_string());
        }
    }
    let Some(length) = length else {
        return Frame::Skip("a message without a valid Content-Length header".to_string());
    };
    let mut body = vec![0; length];
    if reader.read_exact(&mut body).is_err() {
        return Frame::End;
    }
    Frame::Body(body)
}

/// Repairs and checks one body; `Err` says why it is dropped.
fn clean(mut body: Vec<u8>) -> Result<Vec<u8>, String> {
    if std::str::from_utf8(&body).is_err() {
        tracing::warn!("the client sent bytes that are not UTF-8; they are replaced by '?'");
        let mut start = 0;
        while let Err(e) = std::str::from_utf8(&body[start..]) {
            let bad_at = start + e.valid_up_to();
            let bad_len = e.error_len().unwrap_or(body.len() - bad_at);
            for b in &mut body[bad_at..bad_at + bad_len] {
                *b = b'?';
            }
            start = bad_at + bad_len;
        }
    }
    let value: Value = serde_json::from_slice(&body).map_err(|e| format!("a message that is not JSON ({e})"))?;
    let is_request = value.get("method").is_some_and(Value::is_string);
    let is_response = value.get("id").is_some() && (value.get("result").is_some() || value.get("error").is_some());
    if value.get("jsonrpc").and_then(Value::as_str) != Some("2.0") || !(is_request || is_response) {
        return Err("a JSON message that is not JSON-RPC 2.0".to_string());
    }
    Ok(body)
}

/// Copies clean frames from `input` to `output` until `input` ends.
pub fn pump(input: impl Read, mut output: impl Write) {
    let mut reader = BufReader::with_capacity(1 << 16, input);
    loop {
        match read_frame(&mut reader) {
            Frame::End => break,
            Frame::Skip(why) => tracing::warn!("dropped {why}"),
            Frame::Body(body) => match clean(body) {
                Ok(body) => {
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
                Err(why) => tracing::warn!("dropped {why}"),
            },
        }
    }
}

/// Stdin as a checked async stream.
#[cfg(unix)]
pub fn stdin() -> std::io::Result<tokio::net::UnixStream> {
    let (ours, theirs) = std::os::unix::net::UnixStream::pair()?;
    std::thread::Builder::new().name("kforecast-stdin".into()).spawn(move || {
        pump(std::io::stdin().lock(), &ours);
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
        pump(&input[..], &mut out);
        let text = String::from_utf8(out).expect("utf8");
        assert!(text.contains(r#""t":"?""#), "{text}");
        assert!(text.contains(r#""method":"b""#), "{text}");
        assert!(!text.contains("hello") && !text.contains("not json"), "{text}");
        assert_eq!(text.matches("Content-Length").count(), 2);
    }
}
