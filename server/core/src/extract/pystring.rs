//! Python string literals read as text: their value, and a map from each byte of the
//! value back to the file.
//!
//! Raw strings and runs without escapes map exactly; a byte an escape sequence produced
//! (`\n`, `\x41`, an f-string's `{{`) maps to where its escape starts. An f-string with a
//! substitution has no value known from the text.

use crate::kernel::TextRange;

/// One run of the value: `len` bytes at `value` in the value, from `file_len` bytes at
/// `file` in the file (the same bytes when `exact`).
#[derive(Clone, Copy, Debug, PartialEq)]
struct Segment {
    value: usize,
    file: usize,
    len: usize,
    file_len: usize,
    exact: bool,
}

/// Where each byte of a decoded string came from in the file.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct OffsetMap {
    segments: Vec<Segment>,
}

impl OffsetMap {
    /// The file offset of value offset `at` (the end of the value maps to the end of
    /// its last run).
    pub(crate) fn to_file(&self, at: usize) -> usize {
        let i = self.segments.partition_point(|s| s.value <= at);
        let Some(s) = i.checked_sub(1).and_then(|i| self.segments.get(i)) else {
            return self.segments.first().map(|s| s.file).unwrap_or(0);
        };
        if at >= s.value + s.len {
            return s.file + s.file_len;
        }
        if s.exact {
            s.file + (at - s.value)
        } else {
            s.file
        }
    }

    pub(crate) fn range(&self, r: TextRange) -> TextRange {
        TextRange::new(self.to_file(r.start), self.to_file(r.end))
    }

    fn push(&mut self, s: Segment) {
        if s.len == 0 && s.file_len == 0 {
            return;
        }
        if let Some(last) = self.segments.last_mut() {
            if last.exact && s.exact && last.value + last.len == s.value && last.file + last.file_len == s.file {
                last.len += s.len;
                last.file_len += s.file_len;
                return;
            }
        }
        self.segments.push(s);
    }
}

/// A string's value and its map.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Decoded {
    pub text: String,
    pub map: OffsetMap,
}

impl Decoded {
    /// Appends `other` (implicit concatenation: `"a" "b"`), after `separator` (which
    /// maps to the end of what is there already).
    pub(crate) fn append(&mut self, other: Decoded, separator: &str) {
        if !self.text.is_empty() && !separator.is_empty() {
            let at = self.map.to_file(self.text.len());
            let value = self.text.len();
            self.text.push_str(separator);
            self.map.push(Segment { value, file: at, len: separator.len(), file_len: 0, exact: false });
        }
        let base = self.text.len();
        self.text.push_str(&other.text);
        for s in other.map.segments {
            self.map.push(Segment { value: s.value + base, ..s });
        }
    }

    fn exact(&mut self, piece: &str, file: usize) {
        let value = self.text.len();
        self.text.push_str(piece);
        self.map.push(Segment { value, file, len: piece.len(), file_len: piece.len(), exact: true });
    }

    fn escaped(&mut self, produced: &str, file: usize, file_len: usize) {
        let value = self.text.len();
        self.text.push_str(produced);
        self.map.push(Segment { value, file, len: produced.len(), file_len, exact: false });
    }
}

/// The value of one string literal whose text (`r'''…'''`, `"…"`, `f"…"`) starts at
/// `start` in the file; `None` for a bytes literal or an f-string with a substitution.
pub(crate) fn decode(literal: &str, start: usize) -> Option<Decoded> {
    let prefix_len = literal.find(['"', '\''])?;
    let prefix = literal[..prefix_len].to_ascii_lowercase();
    if prefix.contains('b') || !prefix.chars().all(|c| matches!(c, 'r' | 'u' | 'f')) {
        return None;
    }
    let (raw, fstring) = (prefix.contains('r'), prefix.contains('f'));
    let rest = &literal[prefix_len..];
    let quote = if rest.starts_with("\"\"\"") || rest.starts_with("'''") { &rest[..3] } else { &rest[..1] };
    let body_start = prefix_len + quote.len();
    let body_end = if literal.len() >= body_start + quote.len() && literal.ends_with(quote) {
        literal.len() - quote.len()
    } else {
        literal.len()
    };
    let body = literal.get(body_start..body_end)?;
    let base = start + body_start;
    let mut out = Decoded::default();
    let mut run = 0;
    let mut i = 0;
    let bytes = body.as_bytes();
    while i < bytes.len() {
        let c = bytes[i];
        let escape = if fstring && (c == b'{' || c == b'}') {
            if bytes.get(i + 1) != Some(&c) {
                // `{x}` substitutes a value the text does not give; a lone `}` is an error.
                return None;
            }
            Some((if c == b'{' { "{" } else { "}" }.to_string(), 2))
        } else if c == b'\\' && !raw {
            Some(escape(&body[i..]))
        } else {
            None
        };
        if let Some((produced, len)) = escape {
            out.exact(&body[run..i], base + run);
            out.escaped(&produced, base + i, len);
            i += len;
            run = i;
        } else {
            i += 1;
        }
    }
    out.exact(&body[run..], base + run);
    Some(out)
}

/// The value of the escape sequence at the start of `text` (which starts with `\`) and
/// its length in bytes. Unknown escapes keep their backslash, as Python does.
fn escape(text: &str) -> (String, usize) {
    let mut chars = text.char_indices().skip(1);
    let Some((_, c)) = chars.next() else { return ("\\".to_string(), 1) };
    let simple = match c {
        '\n' => Some(""),
        '\\' => Some("\\"),
        '\'' => Some("'"),
        '"' => Some("\""),
        'a' => Some("\u{7}"),
        'b' => Some("\u{8}"),
        'f' => Some("\u{c}"),
        'n' => Some("\n"),
        'r' => Some("\r"),
        't' => Some("\t"),
        'v' => Some("\u{b}"),
        _ => None,
    };
    if let Some(s) = simple {
        return (s.to_string(), 1 + c.len_utf8());
    }
    let hex = |digits: usize| {
        let code = text.get(2..2 + digits).filter(|h| h.chars().all(|c| c.is_ascii_hexdigit()))?;
        let value = char::from_u32(u32::from_str_radix(code, 16).ok()?)?;
        Some((value.to_string(), 2 + digits))
    };
    let decoded = match c {
        'x' => hex(2),
        'u' => hex(4),
        'U' => hex(8),
        '0'..='7' => {
            let digits = text[1..].chars().take(3).take_while(|d| d.is_digit(8)).count();
            u32::from_str_radix(&text[1..1 + digits], 8)
                .ok()
                .and_then(char::from_u32)
                .map(|v| (v.to_string(), 1 + digits))
        }
        'N' => text.find('}').filter(|_| text[2..].starts_with('{')).map(|end| ("?".to_string(), end + 1)),
        _ => None,
    };
    decoded.unwrap_or_else(|| (format!("\\{c}"), 1 + c.len_utf8()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn raw_and_plain_runs_map_exactly() {
        let file = "x = r'''a\\nb'''";
        let start = file.find("r'''").unwrap_or(0);
        let d = decode(&file[start..], start).expect("decoded");
        assert_eq!(d.text, "a\\nb");
        let b = d.text.find('b').unwrap_or(0);
        assert_eq!(&file[d.map.to_file(b)..d.map.to_file(b) + 1], "b");
        assert_eq!(d.map.to_file(d.text.len()), file.len() - 3);
    }

    #[test]
    fn escapes_map_to_their_start_and_later_text_stays_exact() {
        let file = "s = \"k\\n\\x41 z\"";
        let start = file.find('"').unwrap_or(0);
        let d = decode(&file[start..], start).expect("decoded");
        assert_eq!(d.text, "k\nA z");
        assert_eq!(d.map.to_file(1), file.find("\\n").unwrap_or(0));
        assert_eq!(d.map.to_file(2), file.find("\\x").unwrap_or(0));
        let z = d.text.find('z').unwrap_or(0);
        assert_eq!(&file[d.map.to_file(z)..d.map.to_file(z) + 1], "z");
    }

    #[test]
    fn fstrings_without_substitutions_are_read_and_with_them_are_not() {
        let d = decode("f'void k() {{ }}'", 0).expect("decoded");
        assert_eq!(d.text, "void k() { }");
        assert_eq!(d.map.to_file(d.text.find('}').unwrap_or(0)), "f'void k() {{ ".len());
        assert!(decode("f'{n}'", 0).is_none());
        assert!(decode("b'x'", 0).is_none());
    }

    #[test]
    fn concatenation_keeps_each_part_mapped() {
        let file = "'ab' 'cd'";
        let mut d = decode(&file[..4], 0).expect("a");
        d.append(decode(&file[5..], 5).expect("b"), "");
        assert_eq!(d.text, "abcd");
        assert_eq!(d.map.to_file(2), 6);
        let mut j = decode(&file[..4], 0).expect("a");
        j.append(decode(&file[5..], 5).expect("b"), "\n");
        assert_eq!(j.text, "ab\ncd");
        assert_eq!(j.map.to_file(2), 3);
        assert_eq!(j.map.to_file(3), 6);
    }

    #[test]
    fn unterminated_and_odd_escapes_do_not_panic() {
        for text in ["'abc", "'\\", "'\\x4'", "'\\N{bullet'", "'\\777'", "\"\"\"é\\", "'\\\u{e9}'"] {
            let _ = decode(text, 3);
        }
    }
}
