//! Finding a knob's literals in the file text: decimal literals, bracketed argument
//! lists, lines, whole words, file-level constants (`#define`, `constexpr`) and the
//! assignments of a launching function's locals.

use crate::kernel::TextRange;

/// A decimal integer starting exactly at `at`: (value, end).
pub(super) fn int_at(text: &str, at: usize) -> Option<(i64, usize)> {
    let bytes = text.as_bytes();
    let mut end = at;
    while end < bytes.len() && bytes[end].is_ascii_digit() {
        end += 1;
    }
    if end == at || end - at > 9 {
        return None;
    }
    // `0x10`, `1.5`, `10u` are not plain decimal literals.
    if end < bytes.len() && (bytes[end].is_ascii_alphanumeric() || bytes[end] == b'.' || bytes[end] == b'_') {
        return None;
    }
    Some((text[at..end].parse().ok()?, end))
}

/// The whole of `text[range]` is one decimal literal (surrounding spaces allowed).
pub(super) fn literal_in(text: &str, start: usize, end: usize) -> Option<(i64, TextRange)> {
    let slice = text.get(start..end)?;
    let lead = slice.len() - slice.trim_start().len();
    let trimmed = slice.trim();
    let (v, e) = int_at(text, start + lead)?;
    (e - (start + lead) == trimmed.len()).then_some((v, TextRange::new(start + lead, e)))
}

/// The top-level arguments between the bracket at `open` and its partner, as byte
/// ranges (untrimmed), and the closing bracket's offset.
pub(super) fn split_args(text: &str, open: usize) -> Option<(Vec<(usize, usize)>, usize)> {
    let bytes = text.as_bytes();
    let (opener, closer) = match bytes.get(open)? {
        b'(' => (b'(', b')'),
        b'<' => (b'<', b'>'),
        b'{' => (b'{', b'}'),
        b'[' => (b'[', b']'),
        _ => return None,
    };
    let mut depth = 0i32;
    let mut parts = Vec::new();
    let mut start = open + 1;
    let mut quote: Option<u8> = None;
    for (i, &c) in bytes.iter().enumerate().skip(open) {
        if let Some(q) = quote {
            if c == q {
                quote = None;
            }
            continue;
        }
        match c {
            b'"' | b'\'' => quote = Some(c),
            c if c == opener || (opener != b'<' && matches!(c, b'(' | b'[' | b'{')) => depth += 1,
            c if c == closer || (opener != b'<' && matches!(c, b')' | b']' | b'}')) => {
                depth -= 1;
                if depth == 0 {
                    if text[start..i].trim().is_empty() && parts.is_empty() {
                        return Some((parts, i));
                    }
                    parts.push((start, i));
                    return Some((parts, i));
                }
            }
            b',' if depth == 1 => {
                parts.push((start, i));
                start = i + 1;
            }
            _ => {}
        }
    }
    None
}

/// Line starts and texts of `text[start..end]`.
pub(super) fn lines_in(text: &str, start: usize, end: usize) -> impl Iterator<Item = (usize, &str)> {
    let slice = text.get(start..end).unwrap_or("");
    let mut at = start;
    slice.split_inclusive('\n').map(move |l| {
        let here = at;
        at += l.len();
        (here, l.trim_end_matches('\n'))
    })
}

/// 1-based line of a byte offset.
pub(in crate::search) fn line_number(text: &str, offset: usize) -> usize {
    text.get(..offset).map(|t| t.matches('\n').count() + 1).unwrap_or(1)
}

pub(super) fn ident_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

/// `NAME` as a whole word at `at` in `text`.
pub(super) fn word_at(text: &str, at: usize, name: &str) -> bool {
    let bytes = text.as_bytes();
    text.get(at..at + name.len()) == Some(name)
        && (at == 0 || !ident_char(bytes[at - 1]))
        && bytes.get(at + name.len()).is_none_or(|c| !ident_char(*c))
}

/// `#define NAME 32` or `constexpr int NAME = 32;` at file level: the literal.
pub(super) fn constant_literal(text: &str, name: &str) -> Option<(i64, TextRange)> {
    for (start, line) in lines_in(text, 0, text.len()) {
        let trimmed = line.trim_start();
        let lead = line.len() - trimmed.len();
        if let Some(rest) = trimmed.strip_prefix("#define") {
            let after = rest.trim_start();
            let name_at = start + lead + 7 + (rest.len() - after.len());
            if word_at(text, name_at, name) {
                let value_at = name_at + name.len();
                let gap = text[value_at..].len() - text[value_at..].trim_start_matches([' ', '\t']).len();
                let (v, e) = int_at(text, value_at + gap)?;
                let tail = text[e..].split('\n').next().unwrap_or("").trim();
                return (tail.is_empty() || tail.starts_with("//") || tail.starts_with("/*"))
                    .then_some((v, TextRange::new(value_at + gap, e)));
            }
        } else if (trimmed.starts_with("constexpr") || trimmed.starts_with("const ") || trimmed.starts_with("static"))
            && !trimmed.contains('(')
        {
            let Some(eq) = trimmed.find('=') else { continue };
            let head = trimmed[..eq].trim_end();
            if !head.ends_with(name) || !word_at(text, start + lead + head.len() - name.len(), name) {
                continue;
            }
            let value_at = start + lead + eq + 1;
            let gap = text[value_at..].len() - text[value_at..].trim_start().len();
            let (v, e) = int_at(text, value_at + gap)?;
            return text[e..].trim_start().starts_with(';').then_some((v, TextRange::new(value_at + gap, e)));
        }
    }
    None
}

/// The last `NAME = <int>` (C or Python) before `before` in the enclosing function,
/// if there is exactly one such assignment there.
pub(super) fn local_literal(text: &str, name: &str, before: usize) -> Option<(i64, TextRange)> {
    let found = local_literals(text, name, before);
    (found.len() == 1).then(|| found[0])
}

/// Every `NAME = <int>` and `A, NAME = 1, <int>` between the start of the enclosing
/// function and `before`.
pub(super) fn local_literals(text: &str, name: &str, before: usize) -> Vec<(i64, TextRange)> {
    let window = text.get(..before).unwrap_or("");
    let start =
        ["\ndef ", "\nasync def ", "\n}"].iter().filter_map(|p| window.rfind(p)).max().map(|i| i + 1).unwrap_or(0);
    let mut out = Vec::new();
    for (line_start, line) in lines_in(text, start, before) {
        let code = line.split("//").next().unwrap_or(line);
        let code = code.split('#').next().unwrap_or(code);
        let Some(eq) = code.find('=') else { continue };
        if code[eq + 1..].starts_with('=') || code[..eq].ends_with(['<', '>', '!', '+', '-', '*', '/']) {
            continue;
        }
        let targets: Vec<&str> = code[..eq].split(',').map(|t| t.split_whitespace().last().unwrap_or("")).collect();
        let Some(slot) = targets.iter().position(|t| *t == name) else { continue };
        // The value list, split like the targets.
        let mut value_at = line_start + eq + 1;
        for (i, part) in code[eq + 1..].split(',').enumerate() {
            if i == slot {
                let v = part.trim().trim_end_matches(';').trim();
                let lead = part.len() - part.trim_start().len();
                if let Some((value, end)) = int_at(text, value_at + lead) {
                    if end - (value_at + lead) == v.len() && targets.len() == code[eq + 1..].split(',').count() {
                        out.push((value, TextRange::new(value_at + lead, end)));
                    }
                }
                break;
            }
            value_at += part.len() + 1;
        }
    }
    out
}
