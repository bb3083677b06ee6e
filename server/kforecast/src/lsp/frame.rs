//! JSON-RPC frames as a client sends them, read and judged before tower-lsp sees them.
//!
//! Pure (std, serde, serde_json and tower-lsp's JSON-RPC types), so that fuzz targets
//! can drive it (`fuzz/`): every limit is checked while reading, before anything the
//! client declares is allocated, and whatever comes in ends as one of three outcomes:
//! a frame tower-lsp can decode, a request that gets an error response, or a frame
//! dropped with a reason. None of them stops the reader.

use serde::de::{self, Deserializer, IgnoredAny};
use serde::Deserialize;
use serde_json::Value;
use std::io::{BufRead, Read};

/// The longest header line read; longer lines are skipped without being kept.
pub const MAX_HEADER_LINE: usize = 4096;
/// Header lines of one frame (LSP defines two headers).
pub const MAX_HEADER_LINES: usize = 32;
/// The largest body accepted (a 16 MiB file, JSON-escaped, fits many times over).
pub const MAX_BODY: usize = 256 << 20;
/// The internal method a refused request is turned into: the server answers it with
/// the error in its params, so the reply goes out through tower-lsp's own writer.
pub const REFUSE_METHOD: &str = "kforecast/refuse";

const CONTENT_LENGTH: &[u8] = b"content-length:";

/// One frame's body, or why there is none.
#[derive(Debug)]
pub enum Frame {
    Body(Vec<u8>),
    Skip(String),
    End,
}

/// Reads frames off a byte stream with bounded memory: a header line is kept only up
/// to [`MAX_HEADER_LINE`], a body only up to `max_body`, and a body is allocated as it
/// arrives, never from the declared length.
pub struct FrameReader<R> {
    inner: R,
    max_body: usize,
    /// The stream was scanned up to and including a `Content-Length:`; its value is next.
    resynced: bool,
}

enum Line {
    Text(Vec<u8>),
    TooLong,
    End,
}

/// A declared `Content-Length`.
enum Length {
    Bytes(u64),
    /// Digits too many for 64 bits.
    Absurd,
    Invalid,
}

fn parse_length(value: &[u8]) -> Length {
    let value = value.trim_ascii();
    if value.is_empty() || !value.iter().all(u8::is_ascii_digit) {
        return Length::Invalid;
    }
    std::str::from_utf8(value).ok().and_then(|v| v.parse().ok()).map_or(Length::Absurd, Length::Bytes)
}

/// `content-length:` anywhere in a line (ASCII case-insensitive): the value after it.
fn length_in(line: &[u8]) -> Option<&[u8]> {
    let at = line.windows(CONTENT_LENGTH.len()).position(|w| w.eq_ignore_ascii_case(CONTENT_LENGTH))?;
    line.get(at + CONTENT_LENGTH.len()..)
}

impl<R: BufRead> FrameReader<R> {
    pub fn new(inner: R) -> Self {
        Self::with_max_body(inner, MAX_BODY)
    }

    pub fn with_max_body(inner: R, max_body: usize) -> Self {
        Self { inner, max_body, resynced: false }
    }

    /// One line without its end, holding at most [`MAX_HEADER_LINE`] bytes.
    fn read_line(&mut self) -> Line {
        let mut line = Vec::new();
        let mut too_long = false;
        loop {
            let buf = match self.inner.fill_buf() {
                Ok(b) => b,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(_) => return Line::End,
            };
            if buf.is_empty() {
                return Line::End;
            }
            let (piece, used, done) = match buf.iter().position(|&b| b == b'\n') {
                Some(i) => (&buf[..i], i + 1, true),
                None => (buf, buf.len(), false),
            };
            if !too_long && line.len() + piece.len() <= MAX_HEADER_LINE {
                line.extend_from_slice(piece);
            } else {
                too_long = true;
                line = Vec::new();
            }
            self.inner.consume(used);
            if done {
                if too_long {
                    return Line::TooLong;
                }
                if line.last() == Some(&b'\r') {
                    line.pop();
                }
                return Line::Text(line);
            }
        }
    }

    /// Discards `n` bytes; false if the stream ended first.
    fn skip(&mut self, n: u64) -> bool {
        std::io::copy(&mut (&mut self.inner).take(n), &mut std::io::sink()).is_ok_and(|copied| copied == n)
    }

    /// Discards bytes up to and including the next `Content-Length:`.
    fn resync(&mut self) {
        let mut matched = 0;
        loop {
            let buf = match self.inner.fill_buf() {
                Ok(b) => b,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(_) => return,
            };
            if buf.is_empty() {
                return;
            }
            let mut used = buf.len();
            for (i, b) in buf.iter().enumerate() {
                let b = b.to_ascii_lowercase();
                if b == CONTENT_LENGTH[matched] {
                    matched += 1;
                } else {
                    matched = usize::from(b == CONTENT_LENGTH[0]);
                }
                if matched == CONTENT_LENGTH.len() {
                    used = i + 1;
                    self.resynced = true;
                    break;
                }
            }
            self.inner.consume(used);
            if self.resynced {
                return;
            }
        }
    }

    /// The next frame's body, or why a frame was skipped, or the end of the stream.
    pub fn next_frame(&mut self) -> Frame {
        let mut length: Option<Length> = None;
        let mut problem: Option<String> = None;
        let mut lines = 0;
        if std::mem::take(&mut self.resynced) {
            match self.read_line() {
                Line::End => return Frame::End,
                Line::TooLong => problem = Some(format!("a header line longer than {MAX_HEADER_LINE} bytes")),
                Line::Text(value) => length = Some(parse_length(&value)),
            }
            lines = 1;
        }
        loop {
            match self.read_line() {
                Line::End => return Frame::End,
                Line::TooLong => {
                    problem.get_or_insert_with(|| format!("a header line longer than {MAX_HEADER_LINE} bytes"));
                }
                Line::Text(line) if line.is_empty() => {
                    if lines > 0 {
                        break;
                    }
                    continue;
                }
                Line::Text(line) => {
                    if let Some(value) = length_in(&line) {
                        length = Some(parse_length(value));
                    }
                }
            }
            lines += 1;
            if lines > MAX_HEADER_LINES {
                self.resync();
                return Frame::Skip(format!("more than {MAX_HEADER_LINES} header lines"));
            }
        }
        let n = match length {
            None => return Frame::Skip(problem.unwrap_or_else(|| "a message without a Content-Length header".into())),
            Some(Length::Invalid) => return Frame::Skip("a Content-Length that is not a number".into()),
            Some(Length::Absurd) => u64::MAX,
            Some(Length::Bytes(n)) => n,
        };
        if n > self.max_body as u64 {
            self.resync();
            return Frame::Skip(format!(
                "a message declaring {n} bytes, over the {} MiB limit (skipped to the next header)",
                self.max_body >> 20
            ));
        }
        if let Some(problem) = problem {
            return if self.skip(n) { Frame::Skip(problem) } else { Frame::End };
        }
        // Allocated as the bytes arrive: a declared length alone costs nothing.
        let mut body = Vec::with_capacity((n as usize).min(1 << 16));
        match (&mut self.inner).take(n).read_to_end(&mut body) {
            Ok(_) if body.len() as u64 == n => Frame::Body(body),
            _ => Frame::End,
        }
    }
}

/// What becomes of one body.
#[derive(Debug, PartialEq)]
pub enum Outcome {
    /// A message tower-lsp decodes; `method` names a request or notification.
    Pass { body: Vec<u8>, method: Option<String> },
    /// A request answered with this error (`id` is null when the request's is unusable).
    Refuse { id: Value, code: i64, message: String },
    /// Not a JSON-RPC message, or nothing to answer: dropped for this reason.
    Drop(String),
}

/// What was repaired in a body on its way through.
#[derive(Debug, Default, PartialEq)]
pub struct Repairs {
    pub utf8: bool,
    pub surrogates: bool,
}

pub const INVALID_REQUEST: i64 = -32600;
pub const METHOD_NOT_FOUND: i64 = -32601;

/// Bytes that are not UTF-8 become `?`; true if any did.
pub fn repair_utf8(body: &mut [u8]) -> bool {
    let mut repaired = false;
    let mut start = 0;
    while let Err(e) = std::str::from_utf8(&body[start..]) {
        let bad_at = start + e.valid_up_to();
        let bad_len = e.error_len().unwrap_or(body.len() - bad_at);
        for b in &mut body[bad_at..bad_at + bad_len] {
            *b = b'?';
        }
        repaired = true;
        start = bad_at + bad_len;
    }
    repaired
}

fn hex4(bytes: Option<&[u8]>) -> Option<u32> {
    let text = std::str::from_utf8(bytes?).ok()?;
    if text.len() != 4 || !text.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    u32::from_str_radix(text, 16).ok()
}

/// A `\uD800`–`\uDFFF` escape that is not half of a surrogate pair is valid JSON that
/// no string can hold: it becomes `\uFFFD` (the same length); true if any did.
pub fn repair_surrogates(body: &mut [u8]) -> bool {
    let mut repaired = false;
    let mut i = 0;
    while i < body.len() {
        if body[i] != b'\\' {
            i += 1;
            continue;
        }
        if body.get(i + 1) != Some(&b'u') {
            i += 2;
            continue;
        }
        let Some(unit) = hex4(body.get(i + 2..i + 6)) else {
            i += 2;
            continue;
        };
        let paired = (0xD800..0xDC00).contains(&unit)
            && body.get(i + 6..i + 8) == Some(b"\\u")
            && hex4(body.get(i + 8..i + 12)).is_some_and(|low| (0xDC00..0xE000).contains(&low));
        if paired {
            i += 12;
        } else if (0xD800..0xE000).contains(&unit) {
            body[i + 2..i + 6].copy_from_slice(b"FFFD");
            repaired = true;
            i += 6;
        } else {
            i += 6;
        }
    }
    repaired
}

/// `true` when the field is there (even as `null`).
fn present<'de, D: Deserializer<'de>>(d: D) -> Result<bool, D::Error> {
    IgnoredAny::deserialize(d).map(|_| true)
}

fn some<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Value>, D::Error> {
    Value::deserialize(d).map(Some)
}

/// The fields that decide what a message is; params and results are skipped unread.
#[derive(Deserialize)]
struct Envelope {
    #[serde(default)]
    jsonrpc: Option<Value>,
    #[serde(default, deserialize_with = "some")]
    id: Option<Value>,
    #[serde(default)]
    method: Option<Value>,
    #[serde(default, deserialize_with = "present")]
    result: bool,
    #[serde(default, deserialize_with = "present")]
    error: bool,
}

/// An id tower-lsp can carry: a string, an integer that fits in i64, or null.
pub fn valid_id(id: &Value) -> bool {
    match id {
        Value::String(_) | Value::Null => true,
        Value::Number(n) => n.as_i64().is_some(),
        _ => false,
    }
}

fn first_byte(body: &[u8]) -> Option<u8> {
    body.iter().copied().find(|b| !b.is_ascii_whitespace())
}

/// Repairs one body and decides what becomes of it.
pub fn check(mut body: Vec<u8>) -> (Outcome, Repairs) {
    let repairs = Repairs { utf8: repair_utf8(&mut body), surrogates: repair_surrogates(&mut body) };
    (judge(body), repairs)
}

fn refuse(id: Option<Value>, code: i64, message: impl Into<String>) -> Outcome {
    let id = id.filter(valid_id).unwrap_or(Value::Null);
    Outcome::Refuse { id, code, message: message.into() }
}

fn judge(body: Vec<u8>) -> Outcome {
    match first_byte(&body) {
        Some(b'{') => {}
        Some(b'[') if serde_json::from_slice::<IgnoredAny>(&body).is_ok() => {
            return refuse(None, INVALID_REQUEST, "batches of JSON-RPC messages are not supported by LSP");
        }
        _ => {
            return match serde_json::from_slice::<IgnoredAny>(&body) {
                Ok(_) => Outcome::Drop("a JSON message that is not JSON-RPC 2.0".into()),
                Err(e) => Outcome::Drop(format!("a message that is not JSON ({e})")),
            }
        }
    }
    let env = match serde_json::from_slice::<Envelope>(&body) {
        Ok(env) => env,
        Err(e) => {
            // Not JSON at all, or an object serde will not read (a field twice): answer
            // it if it looks like a request.
            let Ok(value) = serde_json::from_slice::<Value>(&body) else {
                return Outcome::Drop(format!("a message that is not JSON ({e})"));
            };
            let looks_like_request = value.get("method").is_some() && value.get("id").is_some();
            return if looks_like_request {
                refuse(value.get("id").cloned(), INVALID_REQUEST, format!("not a valid JSON-RPC request: {e}"))
            } else {
                Outcome::Drop(format!("a JSON message that is not JSON-RPC 2.0 ({e})"))
            };
        }
    };
    let version_ok = env.jsonrpc.as_ref().and_then(Value::as_str) == Some("2.0");
    if env.method.is_some() && !env.result && !env.error {
        let method = env.method.as_ref().and_then(Value::as_str).map(str::to_string);
        let Some(id) = env.id else {
            // A notification: nobody waits for an answer.
            return match (method, version_ok) {
                (Some(method), true) if decodes(&body) => Outcome::Pass { body, method: Some(method) },
                _ => Outcome::Drop("a notification that is not JSON-RPC 2.0".into()),
            };
        };
        if !valid_id(&id) {
            return refuse(None, INVALID_REQUEST, format!("a request id must be a string or an integer, not {id}"));
        }
        let Some(method) = method else {
            return refuse(Some(id), INVALID_REQUEST, "a request's method must be a string");
        };
        if !version_ok {
            return refuse(Some(id), INVALID_REQUEST, "not a JSON-RPC 2.0 request (\"jsonrpc\": \"2.0\" missing)");
        }
        if method.starts_with("$/") {
            return refuse(Some(id), METHOD_NOT_FOUND, format!("unsupported request `{method}`"));
        }
        if method == REFUSE_METHOD || !decodes(&body) {
            return refuse(Some(id), INVALID_REQUEST, format!("not a valid `{method}` request"));
        }
        return Outcome::Pass { body, method: Some(method) };
    }
    if env.id.is_some() && (env.result || env.error) && version_ok && decodes(&body) {
        return Outcome::Pass { body, method: None };
    }
    Outcome::Drop("a JSON message that is not JSON-RPC 2.0".into())
}

/// Whether tower-lsp's reader decodes the body (it stops for good on one it cannot).
pub fn decodes(body: &[u8]) -> bool {
    use tower_lsp::jsonrpc::{Request, Response};
    serde_json::from_slice::<Response>(body).is_ok() || serde_json::from_slice::<Request>(body).is_ok()
}

/// The frame that carries a refused request to the server, which answers it.
pub fn refusal(id: &Value, code: i64, message: &str) -> Vec<u8> {
    let body = serde_json::json!({
        "jsonrpc": "2.0", "id": id, "method": REFUSE_METHOD,
        "params": {"code": code, "message": message},
    });
    serde_json::to_vec(&body).unwrap_or_default()
}

/// Accepts only a string, keeping nothing of it.
pub struct AnyString;

impl<'de> Deserialize<'de> for AnyString {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl de::Visitor<'_> for V {
            type Value = AnyString;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a string")
            }
            fn visit_str<E: de::Error>(self, _: &str) -> Result<AnyString, E> {
                Ok(AnyString)
            }
        }
        d.deserialize_str(V)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frame(body: &[u8]) -> Vec<u8> {
        let mut v = format!("Content-Length: {}\r\n\r\n", body.len()).into_bytes();
        v.extend_from_slice(body);
        v
    }

    fn frames(input: &[u8]) -> Vec<Frame> {
        let mut r = FrameReader::with_max_body(input, 1 << 20);
        let mut out = Vec::new();
        loop {
            match r.next_frame() {
                Frame::End => return out,
                f => out.push(f),
            }
        }
    }

    fn bodies(fs: &[Frame]) -> Vec<&[u8]> {
        fs.iter().filter_map(|f| if let Frame::Body(b) = f { Some(&b[..]) } else { None }).collect()
    }

    #[test]
    fn absurd_lengths_are_skipped_to_the_next_header_without_allocating() {
        let mut input = Vec::new();
        input.extend(b"Content-Length: 99999999999999\r\n\r\n{\"a\":1}");
        input.extend(frame(b"{\"b\":2}"));
        input.extend(b"Content-Length: 18446744073709551615\r\n\r\n{}");
        input.extend(b"Content-Length: 999999999999999999999999999\r\n\r\n");
        input.extend(frame(b"{\"c\":3}"));
        let fs = frames(&input);
        assert_eq!(bodies(&fs), vec![&b"{\"b\":2}"[..], b"{\"c\":3}"], "{fs:?}");
        assert_eq!(fs.iter().filter(|f| matches!(f, Frame::Skip(_))).count(), 3, "{fs:?}");
    }

    #[test]
    fn a_long_header_line_is_not_kept_and_its_frame_is_skipped() {
        let mut input = b"X-Junk: ".to_vec();
        input.extend(std::iter::repeat_n(b'a', 10 * MAX_HEADER_LINE));
        input.extend(b"\r\nContent-Length: 2\r\n\r\n{}");
        input.extend(frame(b"{\"ok\":1}"));
        let fs = frames(&input);
        assert!(matches!(&fs[0], Frame::Skip(why) if why.contains("longer")), "{fs:?}");
        assert_eq!(bodies(&fs), vec![&b"{\"ok\":1}"[..]]);
        // A header line that never ends is read to the end of the stream in pieces.
        let mut endless = b"Content-Length: 5".to_vec();
        endless.extend(std::iter::repeat_n(b' ', 1 << 20));
        assert!(frames(&endless).is_empty());
    }

    #[test]
    fn garbage_before_a_header_and_a_lying_length_are_survived() {
        let mut input = b"garbage without a header\r\n\r\n".to_vec();
        input.extend(b"{\"x\":1}");
        input.extend(frame(b"{\"after\":1}"));
        input.extend(b"Content-Length: 10\r\n\r\n{}");
        let fs = frames(&input);
        assert_eq!(bodies(&fs), vec![&b"{\"after\":1}"[..]], "{fs:?}");
    }

    fn outcome(body: &str) -> Outcome {
        check(body.as_bytes().to_vec()).0
    }

    #[test]
    fn every_unusable_id_is_refused_with_a_null_id() {
        for id in ["{}", "[1]", "1.5", "true", "18446744073709551615", "9223372036854775808"] {
            let body = format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"textDocument/hover"}}"#);
            match outcome(&body) {
                Outcome::Refuse { id, code, .. } => assert_eq!((id, code), (Value::Null, INVALID_REQUEST), "{body}"),
                other => panic!("{body}: {other:?}"),
            }
        }
        for id in ["1", "-5", "\"abc\"", "null", "9223372036854775807"] {
            let body = format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"textDocument/hover"}}"#);
            assert!(matches!(outcome(&body), Outcome::Pass { .. }), "{body}");
        }
    }

    #[test]
    fn dollar_requests_are_method_not_found_and_dollar_notifications_pass() {
        let r = outcome(r#"{"jsonrpc":"2.0","id":7,"method":"$/ping"}"#);
        assert_eq!(
            r,
            Outcome::Refuse { id: 7.into(), code: METHOD_NOT_FOUND, message: "unsupported request `$/ping`".into() }
        );
        let n = outcome(r#"{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":1}}"#);
        assert!(matches!(n, Outcome::Pass { .. }), "{n:?}");
    }

    #[test]
    fn lone_surrogates_are_repaired_and_pairs_kept() {
        let body = br#"{"jsonrpc":"2.0","id":1,"method":"m","params":{"a":"\ud800x","b":"\udc00","c":"\ud83d\ude00","d":"\\ud800","e":"\ud800\u0041"}}"#;
        let (o, repairs) = check(body.to_vec());
        assert!(repairs.surrogates);
        let Outcome::Pass { body, .. } = o else { panic!("{o:?}") };
        let v: Value = serde_json::from_slice(&body).expect("json");
        assert_eq!(v["params"]["a"], "\u{fffd}x");
        assert_eq!(v["params"]["b"], "\u{fffd}");
        assert_eq!(v["params"]["c"], "😀");
        assert_eq!(v["params"]["d"], "\\ud800");
        assert_eq!(v["params"]["e"], "\u{fffd}A");
    }

    #[test]
    fn malformed_requests_are_answered_and_non_messages_dropped() {
        for body in [
            r#"{"jsonrpc":"2.0","id":3,"id":4,"method":"x"}"#,
            r#"{"jsonrpc":"1.0","id":3,"method":"x"}"#,
            r#"{"jsonrpc":"2.0","id":3,"method":5}"#,
            r#"[{"jsonrpc":"2.0","id":3,"method":"x"}]"#,
            r#"{"jsonrpc":"2.0","id":3,"method":"kforecast/refuse"}"#,
        ] {
            assert!(matches!(outcome(body), Outcome::Refuse { code: INVALID_REQUEST, .. }), "{body}");
        }
        for body in [
            "",
            "\u{0} not json",
            "42",
            r#"{"hello":"world"}"#,
            r#"{"jsonrpc":"2.0","method":"x","id":1,"result":5,"x":{}}x"#,
        ] {
            assert!(matches!(outcome(body), Outcome::Drop(_)), "{body}");
        }
    }
}
