//! Launches through the runtime API instead of `<<<…>>>`: `cudaLaunchKernel` and
//! `cudaLaunchCooperativeKernel`.

use super::{draft_at, enclosing_name, host_locals, list_texts};
use crate::extract::{node_text, LaunchDraft};
use crate::source::SourceText;
use tree_sitter::Node;

/// `cudaLaunchKernel((void*)k, grid, block, args, shared, stream)` (or the cooperative
/// form): the launch of `k`, its arguments read from `void* args[] = {&a, &b, …}` where the
/// launching function declares it.
pub(super) fn launch(call: Node, item: Node, src: &SourceText) -> Option<LaunchDraft> {
    let function = call.child_by_field_name("function")?;
    let name = node_text(function, src);
    if !matches!(name.rsplit("::").next().map(str::trim), Some("cudaLaunchKernel" | "cudaLaunchCooperativeKernel")) {
        return None;
    }
    let operands = list_texts(call.child_by_field_name("arguments"), src);
    let bare = |t: &str| -> String {
        let mut t = t.trim();
        loop {
            let before = t;
            for cast in ["(void*)", "(void *)", "(const void*)", "(const void *)", "&"] {
                t = t.strip_prefix(cast).unwrap_or(t).trim();
            }
            if let Some(inner) = t.strip_prefix("reinterpret_cast<").and_then(|r| r.split_once(">(")) {
                t = inner.1.strip_suffix(')').unwrap_or(inner.1).trim();
            }
            if t == before {
                return t.to_string();
            }
        }
    };
    let callee = bare(operands.first()?).rsplit("::").next().unwrap_or_default().trim().to_string();
    let locals = host_locals(item, src, call.start_byte());
    let args = operands
        .get(3)
        .and_then(|a| locals.get(&format!("{}[]", a.trim())).or_else(|| locals.get(a.trim())))
        .and_then(|list| list.trim().strip_prefix('{').and_then(|l| l.strip_suffix('}')).map(str::to_string))
        .and_then(|inner| crate::features::expr::components(&format!("({inner},)")))
        .map(|parts| parts.iter().map(|p| bare(p)).collect())
        .unwrap_or_default();
    let config: Vec<String> = [1, 2, 4, 5].iter().filter_map(|&i| operands.get(i).cloned()).collect();
    Some(draft_at(call, item, src, callee, &config, args, locals, enclosing_name(item, src)))
}
