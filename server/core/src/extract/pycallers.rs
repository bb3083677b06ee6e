//! A Python module's calls of its own functions, for [`super::callers`]: a launching
//! wrapper's parameters take what its callers pass, keyword arguments by name, and the
//! defaults a caller leaves in place (`kf_run(x, t)` → `Fn.apply(x, t, None)` →
//! `Fn.forward(ctx, _input, target, weight, label_smoothing=0.0)` →
//! `cross_entropy_forward(_input, …, label_smoothing)` → the launch: `label_smoothing` is
//! 0, not a size left to run time). `Fn.apply(…)` runs `Fn.forward(ctx, …)`.

use super::callers::CallDraft;
use super::{node_text, squash, walk};
use crate::source::SourceText;
use std::collections::BTreeMap;
use tree_sitter::Node;

/// Calls kept per function.
const MAX_CALLS: usize = 32;

/// Python's builtins and the calls that never run a wrapper of the module.
const BUILTINS: [&str; 24] = [
    "min",
    "max",
    "len",
    "range",
    "int",
    "float",
    "bool",
    "str",
    "print",
    "isinstance",
    "tuple",
    "list",
    "dict",
    "getattr",
    "setattr",
    "hasattr",
    "abs",
    "round",
    "sum",
    "zip",
    "enumerate",
    "type",
    "super",
    "iter",
];

fn undecorated(n: Node) -> Option<Node> {
    match n.kind() {
        "decorated_definition" => n.child_by_field_name("definition"),
        _ => Some(n),
    }
}

/// The calls the functions of top-level `item` (a function, or a class's methods) make.
pub(super) fn calls_in(item: Node, src: &SourceText) -> Vec<CallDraft> {
    let mut out = Vec::new();
    for def in functions(item) {
        function_calls(def, item, src, &mut out);
    }
    out
}

/// The function definitions of a top-level item: itself, or a class's methods.
fn functions(item: Node) -> Vec<Node> {
    let Some(def) = undecorated(item) else { return Vec::new() };
    match def.kind() {
        "function_definition" => vec![def],
        "class_definition" => {
            let Some(body) = def.child_by_field_name("body") else { return Vec::new() };
            let mut cursor = body.walk();
            let members: Vec<Node> = body.named_children(&mut cursor).collect();
            members.into_iter().filter_map(undecorated).filter(|m| m.kind() == "function_definition").collect()
        }
        _ => Vec::new(),
    }
}

fn function_calls(def: Node, item: Node, src: &SourceText, out: &mut Vec<CallDraft>) {
    let Some(function) = def.child_by_field_name("name").map(|n| node_text(n, src).into_owned()) else { return };
    let params = super::triton::parameters(def);
    let function_params: Vec<String> = params.iter().map(|(_, n)| node_text(*n, src).into_owned()).collect();
    let function_defaults: BTreeMap<String, String> = params
        .iter()
        .filter_map(|(p, n)| {
            Some((node_text(*n, src).into_owned(), squash(&node_text(p.child_by_field_name("value")?, src))))
        })
        .collect();
    let Some(body) = def.child_by_field_name("body") else { return };
    let mut locals: Option<BTreeMap<String, String>> = None;
    let mut kept = 0;
    walk::preorder(body, |n| {
        if kept >= MAX_CALLS {
            return false;
        }
        if n.kind() != "call" {
            return true;
        }
        let Some((callee, receiver)) = callee(n, src) else { return true };
        let Some((args, keywords)) = arguments(n, src, receiver) else { return true };
        let locals = locals.get_or_insert_with(|| super::triton::host_locals(def, src));
        out.push(CallDraft {
            callee,
            template_args: Vec::new(),
            args,
            locals: locals.clone(),
            at: n.start_byte() - item.start_byte(),
            function: function.clone(),
            function_params: function_params.clone(),
            keywords,
            function_defaults: function_defaults.clone(),
            partial: true,
        });
        kept += 1;
        true
    });
}

/// The function a call runs (`wrapper(…)`; `Fn.apply(…)` runs `forward`, whose first
/// parameter is the context the call does not pass) and whether it takes that context.
fn callee(call: Node, src: &SourceText) -> Option<(String, bool)> {
    let f = call.child_by_field_name("function")?;
    match f.kind() {
        "identifier" => {
            let name = node_text(f, src).into_owned();
            (!BUILTINS.contains(&name.as_str())).then_some((name, false))
        }
        "attribute" if f.child_by_field_name("attribute").is_some_and(|a| node_text(a, src) == "apply") => {
            Some(("forward".to_string(), true))
        }
        _ => None,
    }
}

/// A call's positional argument texts (the context `ctx` first where the callee takes
/// one) and keyword arguments (`pycall::arguments`, as texts); `None` where a `*args` or
/// `**kwargs` hides where the arguments go.
type Arguments = (Vec<String>, BTreeMap<String, String>);

fn arguments(call: Node, src: &SourceText, context: bool) -> Option<Arguments> {
    let (positional, keywords) = super::pycall::arguments(call, src);
    if positional.iter().any(|a| matches!(a.kind(), "list_splat" | "dictionary_splat")) {
        return None;
    }
    let text = |n: &Node| squash(&node_text(*n, src));
    let context = context.then(|| "ctx".to_string());
    let args = context.into_iter().chain(positional.iter().map(text)).collect();
    Some((args, keywords.iter().map(|(k, v)| (k.clone(), text(v))).collect()))
}
