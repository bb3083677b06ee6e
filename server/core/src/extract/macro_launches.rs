//! Launches written inside a function-like macro and made by instantiating it at file
//! level, as torch-extension files do:
//!
//! ```text
//! #define BINDING(name, T, n) void add_##name(torch::Tensor a) { … add_##name##_kernel<<<g, b>>>(…); }
//! BINDING(f16x8, half, 8)
//! ```
//!
//! Each instantiation is expanded (parameters replaced, `##` pasted, `#x` made a string)
//! and read as CUDA; its launches (and the host function's calls) join the file's
//! items at the instantiation, marked as read from an expansion (never edited there).

use super::{cuda, ItemFacts};
use crate::kernel::{HelperKind, Language};
use crate::source::SourceText;
use std::sync::Arc;

/// Macro uses expanded per item, and items read again per file, at most.
const MAX_INSTANCES: usize = 64;
/// An expansion longer than this is not read.
const MAX_EXPANSION: usize = 64 * 1024;

/// The items the file's launch macros make where they are used: (offset, facts). An item
/// (a function, or a file-level instantiation) that uses a macro holding a launch, or a
/// macro that uses one (`DISPATCH(N, K)` → `LAUNCH(64)` → `k<64><<<…>>>`), is read again
/// with those macros expanded; the launches it did not have before are kept.
pub(super) fn items(placed: &[(usize, Arc<ItemFacts>)], src: &SourceText) -> Vec<(usize, Arc<ItemFacts>)> {
    let all: Vec<(String, Vec<String>, String)> = placed
        .iter()
        .flat_map(|(_, f)| &f.helpers)
        .filter(|h| h.kind == HelperKind::Macro)
        .filter_map(|h| definition(&h.text))
        .collect();
    // Macros that launch, directly or through another (a few levels).
    let mut launching: Vec<&(String, Vec<String>, String)> = all.iter().filter(|m| m.2.contains("<<<")).collect();
    for _ in 0..3 {
        let more: Vec<&(String, Vec<String>, String)> = all
            .iter()
            .filter(|m| !launching.iter().any(|l| l.0 == m.0))
            .filter(|m| launching.iter().any(|l| super::words(&m.2).any(|w| w == l.0)))
            .collect();
        if more.is_empty() {
            break;
        }
        launching.extend(more);
    }
    if launching.is_empty() {
        return Vec::new();
    }
    let text = src.text();
    let mut bases: Vec<usize> = placed.iter().map(|(b, _)| *b).collect();
    bases.sort_unstable();
    let mut out = Vec::new();
    for (base, facts) in placed {
        let end = bases.iter().copied().find(|b| b > base).unwrap_or(text.len());
        let Some(item) = text.get(*base..end) else { continue };
        if item.trim_start().starts_with('#') || !launching.iter().any(|m| !instances(item, &m.0).is_empty()) {
            continue;
        }
        let mut expanded = item.to_string();
        for _ in 0..4 {
            let mut changed = false;
            for (name, params, body) in launching.iter().map(|m| (&m.0, &m.1, &m.2)) {
                let found = instances(&expanded, name);
                for (at, args, end) in found.into_iter().rev() {
                    if args.len() == params.len() {
                        expanded.replace_range(at..end, &format!(" {} ", expand(body, params, &args)));
                        changed = true;
                    }
                }
            }
            if !changed || expanded.len() > MAX_EXPANSION {
                break;
            }
        }
        if expanded.len() > MAX_EXPANSION {
            continue;
        }
        let had: Vec<&str> = facts.launches.iter().map(|l| l.callee.as_str()).collect();
        let snippet = SourceText::new(Language::Cuda, &expanded);
        let Some(tree) = snippet.tree() else { continue };
        let mut read = ItemFacts::default();
        let root = tree.root_node();
        let mut c = root.walk();
        for node in root.named_children(&mut c) {
            let f = cuda::item_facts(node, &snippet);
            read.launches.extend(f.launches.into_iter().filter(|l| !had.contains(&l.callee.as_str())));
            read.calls.extend(f.calls);
            read.out_params.extend(f.out_params);
        }
        let line = text.as_bytes().iter().take(*base).filter(|&&b| b == b'\n').count() + 1;
        for l in &mut read.launches {
            // Read from the expansion; its text is the macros', so nothing is edited here.
            l.site.range = crate::kernel::TextRange { start: 0, end: 0 };
            l.site.external = Some(format!("macros expanded in the item on line {line}"));
        }
        if !read.launches.is_empty() {
            out.push((*base, Arc::new(read)));
        }
        if out.len() >= MAX_INSTANCES {
            break;
        }
    }
    out
}

/// `#define NAME(a, b) body` (one line, continuations joined): name, parameters, body.
fn definition(text: &str) -> Option<(String, Vec<String>, String)> {
    let rest = text.trim_start().strip_prefix('#')?.trim_start().strip_prefix("define")?.trim_start();
    let open = rest.find('(')?;
    let name = rest[..open].trim();
    if name.is_empty() || !name.chars().all(|c| c.is_alphanumeric() || c == '_') {
        return None;
    }
    let close = rest[open..].find(')')? + open;
    let params = rest[open + 1..close].split(',').map(|p| p.trim().to_string()).filter(|p| !p.is_empty()).collect();
    Some((name.to_string(), params, rest[close + 1..].trim().to_string()))
}

/// Uses of the macro `name` in `text` (a whole name followed by `(`): offset, arguments
/// and the offset after the `)`.
fn instances(text: &str, name: &str) -> Vec<(usize, Vec<String>, usize)> {
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
        let Some((args, end)) = crate::features::cuda::macro_args(&text[open..]) else { continue };
        let args: Vec<String> = args.into_iter().map(|a| a.trim().to_string()).collect();
        out.push((i, args, open + end));
        from = open + end;
        if out.len() >= MAX_INSTANCES {
            break;
        }
    }
    out
}

/// The body with each parameter replaced by its argument, `#p` made `"arg"` and `##`
/// pasting the tokens around it.
fn expand(body: &str, params: &[String], args: &[String]) -> String {
    let mut out = String::with_capacity(body.len() * 2);
    let chars: Vec<char> = body.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c.is_alphabetic() || c == '_' {
            let start = i;
            while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            let word: String = chars[start..i].iter().collect();
            match params.iter().position(|p| *p == word) {
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
            if let Some(k) = params.iter().position(|p| *p == word) {
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
