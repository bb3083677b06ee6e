//! Function-like C macros read as text: a definition (`#define NAME(a, b) body`), its
//! uses in a text, and one use expanded (parameters replaced, `##` pasted, `#p` made a
//! string). The forecaster expands the macros a kernel's loops and vector accesses are
//! written with (`features::cuda`), the macros that hold launches (`macro_launches`), and
//! evaluates size macros (`features::expr`).

/// Uses read per text and macro, at most.
const MAX_USES: usize = 64;

/// A function-like macro.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Macro {
    pub name: String,
    pub params: Vec<String>,
    pub body: String,
}

impl Macro {
    /// `#define NAME(a, b) body` (one line, continuations joined).
    pub fn parse(definition: &str) -> Option<Self> {
        let rest = definition.trim_start().strip_prefix('#')?.trim_start().strip_prefix("define")?.trim_start();
        let open = rest.find('(')?;
        let name = rest[..open].trim();
        if name.is_empty() || !name.chars().all(|c| c.is_alphanumeric() || c == '_') {
            return None;
        }
        let close = rest[open..].find(')')? + open;
        let params = rest[open + 1..close].split(',').map(|p| p.trim().to_string()).filter(|p| !p.is_empty()).collect();
        Some(Self { name: name.to_string(), params, body: rest[close + 1..].trim().to_string() })
    }

    /// Its uses in `text` with as many arguments as it has parameters, last first (so that
    /// each can be replaced in turn): offset, arguments, offset after the `)`.
    pub fn uses(&self, text: &str) -> Vec<(usize, Vec<String>, usize)> {
        let mut out: Vec<_> =
            uses(text, &self.name).into_iter().filter(|(_, a, _)| a.len() == self.params.len()).collect();
        out.reverse();
        out
    }

    /// The body with each parameter replaced by its argument, `#p` made `"arg"` and `##`
    /// pasting the tokens around it.
    pub fn expand(&self, args: &[String]) -> String {
        let mut out = String::with_capacity(self.body.len() * 2);
        let chars: Vec<char> = self.body.chars().collect();
        let mut i = 0;
        while i < chars.len() {
            let c = chars[i];
            if c.is_alphabetic() || c == '_' {
                let start = i;
                while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                    i += 1;
                }
                let word: String = chars[start..i].iter().collect();
                match self.params.iter().position(|p| *p == word) {
                    Some(k) => out.push_str(args.get(k).map_or("", String::as_str)),
                    None => out.push_str(&word),
                }
                continue;
            }
            if c == '#' && chars.get(i + 1) == Some(&'#') {
                // Paste: drop the `##` and the spaces around it.
                while out.ends_with(' ') {
                    out.pop();
                }
                i += 2;
                while chars.get(i) == Some(&' ') {
                    i += 1;
                }
                continue;
            }
            if c == '#' {
                // Stringify the parameter that follows.
                let mut j = i + 1;
                while chars.get(j) == Some(&' ') {
                    j += 1;
                }
                let start = j;
                while j < chars.len() && (chars[j].is_alphanumeric() || chars[j] == '_') {
                    j += 1;
                }
                let word: String = chars[start..j].iter().collect();
                if let Some(k) = self.params.iter().position(|p| *p == word) {
                    out.push('"');
                    out.push_str(args.get(k).map_or("", String::as_str));
                    out.push('"');
                    i = j;
                    continue;
                }
            }
            out.push(c);
            i += 1;
        }
        out
    }
}

/// Uses of the macro `name` in `text` (a whole name followed by `(`): offset, arguments
/// (trimmed) and the offset after the `)`.
pub(crate) fn uses(text: &str, name: &str) -> Vec<(usize, Vec<String>, usize)> {
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(i) = text.get(from..).and_then(|t| t.find(name)).map(|i| i + from) {
        from = i + name.len();
        let before = text[..i].chars().next_back();
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
            continue;
        }
        let after = &text[i + name.len()..];
        if after.starts_with(|c: char| c.is_alphanumeric() || c == '_') {
            continue;
        }
        let Some(rest) = after.trim_start().strip_prefix('(') else { continue };
        let open = i + name.len() + (after.len() - rest.len());
        let Some((args, end)) = arguments(&text[open..]) else { continue };
        out.push((i, args.into_iter().map(|a| a.trim().to_string()).collect(), open + end));
        from = open + end;
        if out.len() >= MAX_USES {
            break;
        }
    }
    out
}

/// The comma-separated arguments of a call whose `(` is just before `text`, and the
/// offset after its `)`.
pub(crate) fn arguments(text: &str) -> Option<(Vec<String>, usize)> {
    let mut depth = 0usize;
    let mut args = vec![String::new()];
    for (i, c) in text.char_indices() {
        match c {
            '(' | '[' | '{' => depth += 1,
            ')' if depth == 0 => return Some((args, i + 1)),
            ')' | ']' | '}' => depth = depth.saturating_sub(1),
            ',' if depth == 0 => {
                args.push(String::new());
                continue;
            }
            _ => {}
        }
        args.last_mut()?.push(c);
    }
    None
}
