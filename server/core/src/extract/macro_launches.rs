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

use super::macros::Macro;
use super::{cuda, ItemFacts};
use crate::hash::ContentHash;
use crate::kernel::{HelperKind, Language};
use crate::source::SourceText;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

/// Items read again per file, at most.
const MAX_ITEMS: usize = 64;
/// Expansions whose facts are kept; past it the cache starts over.
const MAX_CACHED: usize = 512;
/// An expansion longer than this is not read.
const MAX_EXPANSION: usize = 64 * 1024;

/// The items the file's launch macros make where they are used: (offset, facts). An item
/// (a function, or a file-level instantiation) that uses a macro holding a launch, or a
/// macro that uses one (`DISPATCH(N, K)` → `LAUNCH(64)` → `k<64><<<…>>>`), is read again
/// with those macros expanded; the launches it did not have before are kept.
pub(super) fn items(placed: &[(usize, Arc<ItemFacts>)], src: &SourceText) -> Vec<(usize, Arc<ItemFacts>)> {
    let all: Vec<Macro> = placed
        .iter()
        .flat_map(|(_, f)| &f.helpers)
        .filter(|h| h.kind == HelperKind::Macro)
        .filter_map(|h| Macro::parse(&h.text))
        .collect();
    // Macros that launch, directly or through another (a few levels).
    let mut launching: Vec<&Macro> = all.iter().filter(|m| m.body.contains("<<<")).collect();
    for _ in 0..3 {
        let more: Vec<&Macro> = all
            .iter()
            .filter(|m| !launching.iter().any(|l| l.name == m.name))
            .filter(|m| launching.iter().any(|l| super::words(&m.body).any(|w| w == l.name)))
            .collect();
        if more.is_empty() {
            break;
        }
        launching.extend(more);
    }
    if launching.is_empty() {
        return Vec::new();
    }
    let mut bases: Vec<usize> = placed.iter().map(|(b, _)| *b).collect();
    bases.sort_unstable();
    let mut out = Vec::new();
    for (base, facts) in placed {
        let end = bases.iter().copied().find(|b| b > base).unwrap_or(src.len_bytes());
        let item = src.slice(*base, end);
        if item.trim_start().starts_with('#') || !launching.iter().any(|m| !m.uses(&item).is_empty()) {
            continue;
        }
        let Some(expanded) = expand_all(&item, &launching) else { continue };
        let line = src.rope().byte_to_line(src.snap(*base)) + 1;
        if let Some(read) = read(&expanded, facts, line) {
            out.push((*base, read));
        }
        if out.len() >= MAX_ITEMS {
            break;
        }
    }
    out
}

/// `item` with the launching macros it uses expanded, a few levels deep; `None` past
/// [`MAX_EXPANSION`].
fn expand_all(item: &str, launching: &[&Macro]) -> Option<String> {
    let mut expanded = item.to_string();
    for _ in 0..4 {
        let mut changed = false;
        for m in launching {
            for (at, args, end) in m.uses(&expanded) {
                expanded.replace_range(at..end, &format!(" {} ", m.expand(&args)));
                changed = true;
            }
        }
        if !changed || expanded.len() > MAX_EXPANSION {
            break;
        }
    }
    (expanded.len() <= MAX_EXPANSION).then_some(expanded)
}

/// The launches (and host calls) of an expanded item that the item did not have, read
/// once per expansion: the same expansion gives the same facts (and so the same
/// kernels at assembly) on every edit elsewhere.
fn read(expanded: &str, facts: &ItemFacts, line: usize) -> Option<Arc<ItemFacts>> {
    static CACHE: OnceLock<Mutex<HashMap<ContentHash, Option<Arc<ItemFacts>>>>> = OnceLock::new();
    let had: Vec<&str> = facts.launches.iter().map(|l| l.callee.as_str()).collect();
    let mut h = crate::hash::Hasher::new();
    h.str(expanded).str(&line.to_string());
    for c in &had {
        h.str(c);
    }
    let key = h.finish();
    let cache = CACHE.get_or_init(Default::default);
    if let Some(found) = cache.lock().unwrap_or_else(|e| e.into_inner()).get(&key) {
        return found.clone();
    }
    let snippet = SourceText::new(Language::Cuda, expanded);
    let tree = snippet.tree()?;
    let mut read = ItemFacts::default();
    let root = tree.root_node();
    let mut c = root.walk();
    for node in root.named_children(&mut c) {
        let f = cuda::item_facts(node, &snippet);
        read.launches.extend(f.launches.into_iter().filter(|l| !had.contains(&l.callee.as_str())));
        read.calls.extend(f.calls);
        read.out_params.extend(f.out_params);
    }
    for l in &mut read.launches {
        // Read from the expansion; its text is the macros', so nothing is edited here.
        l.site.range = crate::kernel::TextRange { start: 0, end: 0 };
        l.site.external = Some(format!("macros expanded in the item on line {line}"));
    }
    let read = (!read.launches.is_empty()).then(|| Arc::new(read));
    let mut cache = cache.lock().unwrap_or_else(|e| e.into_inner());
    if cache.len() >= MAX_CACHED {
        cache.clear();
    }
    cache.insert(key, read.clone());
    read
}
