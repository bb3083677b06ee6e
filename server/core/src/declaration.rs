//! The `kforecast:` declaration lines above a kernel, read as text.
//!
//! Comment lines directly above a kernel (or its decorators) that start with
//! `kforecast:` hold `;`-separated items: `n = 1 << 24` (a size or scalar argument, or
//! a setting such as `grid`, `rtol`, `wrapper`) and `x: f32[rows, cols] randn` (a buffer
//! or tensor). `measure::spec` builds GPU jobs from them; the profiles read the sizes,
//! so a kernel whose file declares its problem is costed at that size.

use crate::kernel::TextRange;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// One `key = value` or `name: type[shape] init` item and where it is.
#[derive(Clone, Debug, PartialEq)]
pub struct Item {
    pub key: String,
    pub value: String,
    /// `true` for `name: …` (a buffer or tensor), `false` for `name = …`.
    pub typed: bool,
    pub range: TextRange,
}

/// What starts a declaration in a comment line.
pub const PREFIX: &str = "kforecast:";

/// Items that configure a measurement rather than name a size.
pub const SETTINGS: [&str; 7] = ["grid", "block", "smem", "outputs", "rtol", "atol", "wrapper"];

/// The declaration items in the comment block that ends at `start` in `text` (the
/// start of a kernel's definition). Ranges are byte offsets in `text`.
pub fn items_before(text: &str, start: usize) -> Vec<Item> {
    let mut start = start.min(text.len());
    while !text.is_char_boundary(start) {
        start -= 1;
    }
    let mut line_starts: Vec<usize> = Vec::new();
    // Walk back over the comment lines directly above the kernel.
    let mut end = text[..start].rfind('\n').map(|i| i + 1).unwrap_or(0);
    if !text[end..start].trim().is_empty() {
        end = start;
    }
    let mut cursor = end;
    while cursor > 0 {
        // The end of the line above (`cursor` is inside a line when `start` was).
        let mut prev_end = cursor - 1;
        while !text.is_char_boundary(prev_end) {
            prev_end -= 1;
        }
        let prev_start = text[..prev_end].rfind('\n').map(|i| i + 1).unwrap_or(0);
        if !is_comment_line(&text[prev_start..prev_end]) {
            break;
        }
        line_starts.push(prev_start);
        cursor = prev_start;
    }
    line_starts.reverse();
    let mut out = Vec::new();
    for ls in line_starts {
        let le = text[ls..].find('\n').map(|i| ls + i).unwrap_or(text.len());
        let line = &text[ls..le];
        let Some(p) = line.find(PREFIX) else { continue };
        let mut offset = ls + p + PREFIX.len();
        let body = &text[offset..le];
        let body = body.trim_end().trim_end_matches("*/");
        for part in split_top(body, ';') {
            let trimmed = part.trim();
            let lead = part.len() - part.trim_start().len();
            let range = TextRange::new(offset + lead, offset + lead + trimmed.len());
            offset += part.len() + 1;
            if trimmed.is_empty() {
                continue;
            }
            let eq = trimmed.find('=');
            let colon = trimmed.find(':');
            let (key, value, typed) = match (colon, eq) {
                (Some(c), Some(e)) if c < e => (&trimmed[..c], &trimmed[c + 1..], true),
                (Some(c), None) => (&trimmed[..c], &trimmed[c + 1..], true),
                (_, Some(e)) => (&trimmed[..e], &trimmed[e + 1..], false),
                _ => (trimmed, "", false),
            };
            out.push(Item { key: key.trim().to_string(), value: value.trim().to_string(), typed, range });
        }
    }
    out
}

/// Whether a line is a comment line a declaration may sit in (C, Python, block comments).
pub fn is_comment_line(line: &str) -> bool {
    let line = line.trim();
    line.starts_with("//") || line.starts_with('#') || line.starts_with("/*") || line.starts_with('*')
}

/// The non-empty items of a comma-separated list (`rows, cols`; `x, 1e-5`), trimmed.
pub fn list(text: &str) -> Vec<String> {
    split_top(text, ',').into_iter().map(|s| s.trim().to_string()).filter(|s| !s.is_empty()).collect()
}

/// A call's name and arguments: `softmax(x, 1e-5)` → (`softmax`, [`x`, `1e-5`]).
pub fn call(text: &str) -> (String, Vec<String>) {
    match text.split_once('(') {
        Some((name, rest)) => {
            let inner = rest.trim_end().strip_suffix(')').unwrap_or(rest);
            (name.trim().to_string(), list(inner))
        }
        None => (text.trim().to_string(), Vec::new()),
    }
}

/// Splits `s` at `sep` outside brackets and parentheses.
pub fn split_top(s: &str, sep: char) -> Vec<&str> {
    let mut parts = Vec::new();
    let mut depth = 0i32;
    let mut start = 0;
    for (i, c) in s.char_indices() {
        match c {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => depth -= 1,
            c if c == sep && depth == 0 => {
                parts.push(&s[start..i]);
                start = i + c.len_utf8();
            }
            _ => {}
        }
    }
    parts.push(&s[start..]);
    parts
}

/// What a kernel's declaration says about its problem: sizes and scalars by name, and
/// the shapes of its buffers (unevaluated texts, in the declaration's own names).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Declared {
    pub values: BTreeMap<String, String>,
    pub shapes: BTreeMap<String, Vec<String>>,
    /// The Triton wrapper call's arguments (`wrapper = softmax(x, 1e-5)` → `x`, `1e-5`).
    pub wrapper_args: Vec<String>,
    /// The Triton wrapper's name (`softmax`).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub wrapper: String,
    /// A declared launch shape (`grid = …`, `block = …`), for a kernel whose launch the
    /// file does not show.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub grid: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub block: Option<String>,
}

impl Declared {
    pub fn from_items(items: &[Item]) -> Self {
        let mut d = Declared::default();
        for it in items {
            if it.typed {
                if let (Some(open), Some(close)) = (it.value.find('['), it.value.rfind(']')) {
                    if open < close {
                        d.shapes.insert(it.key.clone(), list(&it.value[open + 1..close]));
                    }
                }
            } else if it.key == "wrapper" {
                (d.wrapper, d.wrapper_args) = call(&it.value);
            } else if it.key == "grid" {
                d.grid = Some(it.value.clone());
            } else if it.key == "block" {
                d.block = Some(it.value.clone());
            } else if !SETTINGS.contains(&it.key.as_str()) && !it.key.is_empty() {
                d.values.insert(it.key.clone(), it.value.clone());
            }
        }
        d
    }

    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
            && self.shapes.is_empty()
            && self.wrapper_args.is_empty()
            && self.wrapper.is_empty()
            && self.grid.is_none()
            && self.block.is_none()
    }

    /// Definitions for an expression environment: each size by name, and for each
    /// buffer `x` its `x.shape[i]` (also negative), `x.size(i)`, `x.stride(i)` (row
    /// major) and `x.numel()`.
    pub fn definitions(&self) -> Vec<(String, String)> {
        let mut out: Vec<(String, String)> = self.values.iter().map(|(k, v)| (k.clone(), v.clone())).collect();
        for (name, dims) in &self.shapes {
            let n = dims.len() as i64;
            for (i, d) in dims.iter().enumerate() {
                let i = i as i64;
                let value = format!("({d})");
                for idx in [i, i - n] {
                    out.push((format!("{name}.shape[{idx}]"), value.clone()));
                    out.push((format!("{name}.size({idx})"), value.clone()));
                }
                let later: Vec<String> = dims[(i as usize + 1)..].iter().map(|d| format!("({d})")).collect();
                let stride = if later.is_empty() { "1".to_string() } else { later.join(" * ") };
                out.push((format!("{name}.stride({i})"), stride.clone()));
                out.push((format!("{name}.stride({})", i - n), stride));
            }
            let all: Vec<String> = dims.iter().map(|d| format!("({d})")).collect();
            out.push((format!("{name}.numel()"), if all.is_empty() { "1".to_string() } else { all.join(" * ") }));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_sizes_shapes_and_the_wrapper() {
        let text = "#include <x>\n// a comment\n// kforecast: rows = 4096; cols = 2 * rows; x: f32[rows, cols] randn; \
                    rtol = 1e-3\n# kforecast: wrapper = f(x, 2)\n__global__ void k() {}\n";
        let start = text.find("__global__").unwrap_or(0);
        let d = Declared::from_items(&items_before(text, start));
        assert_eq!(d.values.get("cols").map(String::as_str), Some("2 * rows"));
        assert!(!d.values.contains_key("rtol"));
        assert_eq!(d.shapes.get("x").map(Vec::len), Some(2));
        assert_eq!(d.wrapper_args, vec!["x".to_string(), "2".to_string()]);
        let defs: BTreeMap<_, _> = d.definitions().into_iter().collect();
        assert_eq!(defs.get("x.shape[-1]").map(String::as_str), Some("(cols)"));
        assert_eq!(defs.get("x.stride(0)").map(String::as_str), Some("(cols)"));
        assert_eq!(defs.get("x.numel()").map(String::as_str), Some("(rows) * (cols)"));
    }

    #[test]
    fn a_kernel_without_comments_declares_nothing() {
        let text = "int a;\n__global__ void k() {}";
        let start = text.find("__global__").unwrap_or(0);
        assert!(Declared::from_items(&items_before(text, start)).is_empty());
        assert!(items_before("", 10).is_empty());
        // Found by the `declaration` fuzz target: a start right after a multi-byte
        // character in the middle of a comment line.
        let text = "// kforecast: n = 1; BLOCK = 12\u{FFFD}\u{FFFD}\u{FFFD}";
        for start in 0..=text.len() {
            let _ = items_before(text, start);
        }
    }
}
