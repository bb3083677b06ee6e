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

/// Instantiations expanded per file, at most.
const MAX_INSTANCES: usize = 64;
/// An expansion longer than this is not read.
const MAX_EXPANSION: usize = 64 * 1024;

/// The items the file's launch macros make where they are instantiated: (offset, facts).
pub(super) fn items(placed: &[(usize, Arc<ItemFacts>)], src: &SourceText) -> Vec<(usize, Arc<ItemFacts>)> {
    let macros: Vec<(String, Vec<String>, String)> = placed
        .iter()
        .flat_map(|(_, f)| &f.helpers)
        .filter(|h| h.kind == HelperKind::Macro && h.text.contains("<<<"))
        .filter_map(|h| definition(&h.text))
        .collect();
    if macros.is_empty() {
        return Vec::new();
    }
    let text = src.text();
    let mut out = Vec::new();
    for (name, params, body) in &macros {
        for (at, args) in instances(&text, name) {
            if args.len() != params.len() || out.len() >= MAX_INSTANCES {
                continue;
            }
            let expanded = expand(body, params, &args);
            if expanded.len() > MAX_EXPANSION {
                continue;
            }
            let snippet = SourceText::new(Language::Cuda, &expanded);
            let Some(tree) = snippet.tree() else { continue };
            let mut facts = ItemFacts::default();
            let root = tree.root_node();
            let mut c = root.walk();
            for item in root.named_children(&mut c) {
                let f = cuda::item_facts(item, &snippet);
                facts.launches.extend(f.launches);
                facts.calls.extend(f.calls);
                facts.out_params.extend(f.out_params);
            }
            let line = text.as_bytes().iter().take(at).filter(|&&b| b == b'\n').count() + 1;
            for l in &mut facts.launches {
                // Read at the instantiation; its text is the macro's, so nothing is edited.
                l.site.range = crate::kernel::TextRange { start: 0, end: name.len() };
                l.site.external = Some(format!("{name}(…) on line {line}"));
            }
            if !facts.launches.is_empty() {
                out.push((at, Arc::new(facts)));
            }
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

/// Instantiations of `name` at the start of a line (not its `#define`, not a use inside an
/// expression): offset and arguments.
fn instances(text: &str, name: &str) -> Vec<(usize, Vec<String>)> {
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(i) = text[from..].find(name).map(|i| i + from) {
        from = i + name.len();
        let line_start = text[..i].rfind('\n').map_or(0, |n| n + 1);
        if !text[line_start..i].trim().is_empty() {
            continue;
        }
        let after = &text[i + name.len()..];
        let Some(rest) = after.trim_start().strip_prefix('(') else { continue };
        let open = i + name.len() + (after.len() - rest.len());
        let Some((args, end)) = crate::features::cuda::macro_args(&text[open..]) else { continue };
        let args: Vec<String> = args.into_iter().map(|a| a.trim().to_string()).collect();
        out.push((i, args));
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
