//! CUDA items: `__global__` kernels (templates too), `__device__` helpers, `#define`s,
//! file-level constants and `<<<…>>>` launch sites.

use super::normalize::normalize;
use super::{node_range, node_text, squash, substitute, walk, words, HelperDraft, ItemFacts, KernelDraft, LaunchDraft};
use crate::hash::ContentHash;
use crate::kernel::{HelperKind, LaunchSite, LibraryCall, SET_ON_SOME_PATHS};
use crate::source::SourceText;
use std::collections::{BTreeMap, HashSet};
use tree_sitter::Node;

pub(super) fn item_facts(item: Node, src: &SourceText) -> ItemFacts {
    let mut facts = ItemFacts::default();
    match item.kind() {
        "function_definition" => function(item, item, &[], src, &mut facts),
        "template_declaration" => {
            let params = template_params(item, src);
            let mut cursor = item.walk();
            for child in item.named_children(&mut cursor) {
                match child.kind() {
                    "function_definition" => function(child, item, &params, src, &mut facts),
                    // A class template's methods' launches (`template <int B> struct Scan {
                    // static void Run(…) { k<B><<<…>>>(…); } };`).
                    "struct_specifier" | "class_specifier" => launches(child, src, &mut facts),
                    _ => {}
                }
            }
            let defaults = template_defaults(item, src);
            for l in &mut facts.launches {
                l.host_template.clone_from(&params);
                // `template <int BlockStride = 1>`: what a call that leaves it out gets.
                l.site.host_defaults.extend(defaults.iter().map(|(k, v)| (k.clone(), v.clone())));
            }
        }
        "preproc_def" | "preproc_function_def" => {
            if let Some(name) = item.child_by_field_name("name") {
                // A function-like macro is kept whole (it is not a value, and NVRTC needs its
                // parameters); an object-like one by its value.
                let (kind, text) = if item.kind() == "preproc_function_def" {
                    (HelperKind::Macro, join_continuations(&node_text(item, src)).trim().to_string())
                } else {
                    let value = item.child_by_field_name("value").map(|v| strip_comments(&node_text(v, src)));
                    (HelperKind::Define, squash(&join_continuations(&value.unwrap_or_default())))
                };
                facts.helpers.push(HelperDraft {
                    name: node_text(name, src).into_owned(),
                    kind,
                    normalized: crate::hash::Hasher::new().str(&squash(&node_text(item, src))).finish(),
                    uses: identifiers(item, src),
                    guard: Vec::new(),
                    text,
                });
            }
        }
        // `constexpr int BM = 64;`, or `using vec_t = float4;` (a type whose size
        // `sizeof(vec_t)` reads, its value the type it names: `definition_value`).
        "declaration" | "alias_declaration" => {
            let names = match item.child_by_field_name("name") {
                Some(alias) if item.kind() == "alias_declaration" => vec![node_text(alias, src).into_owned()],
                _ => declared_names(item, src),
            };
            let norm = normalize(item, src, &HashSet::new(), |_, _| true);
            for name in names {
                facts.helpers.push(HelperDraft {
                    name,
                    kind: HelperKind::Constant,
                    text: squash(&node_text(item, src)),
                    normalized: norm.hash,
                    uses: norm.uses.clone(),
                    guard: Vec::new(),
                });
            }
        }
        _ => launches(item, src, &mut facts),
    }
    if matches!(item.kind(), "function_definition" | "template_declaration") {
        facts.template_calls = template_calls(item, src);
    }
    host_functions(item, src, &mut facts);
    facts
}

/// The calls and reference-parameter results of the host functions an item defines (a
/// function, a function template, an `extern "C"` block's functions).
fn host_functions(item: Node, src: &SourceText, facts: &mut ItemFacts) {
    let defs: Vec<Node> = match item.kind() {
        "function_definition" => vec![item],
        "template_declaration" | "linkage_specification" | "declaration_list" => function_definitions(item),
        _ => Vec::new(),
    };
    let host = |def: &Node| !(has_child_kind(*def, "__global__") || has_child_kind(*def, "__device__"));
    for def in defs.iter().filter(|d| host(d)) {
        facts.calls.extend(super::callers::calls_in(*def, item, src));
        facts.out_params.extend(super::callers::out_params(*def, src));
        facts.host_defs.extend(super::reach::host_def(*def, item, src));
    }
    // A class's methods (a step's `struct Scan { static void Run(…) { k<<<…>>>(…); } };`),
    // for what the entry points reach.
    if matches!(item.kind(), "struct_specifier" | "class_specifier" | "declaration") {
        let methods = function_definitions(item);
        for def in methods.iter().filter(|d| host(d)) {
            facts.host_defs.extend(super::reach::host_def(*def, item, src));
        }
    }
}

/// The outermost function definitions under `item`.
fn function_definitions(item: Node) -> Vec<Node> {
    let mut out = Vec::new();
    walk::preorder(item, |n| {
        if n.kind() == "function_definition" {
            out.push(n);
            return false;
        }
        true
    });
    out
}

/// The parameter names of the function definition around `n`, if any.
fn enclosing_params(n: Node, src: &SourceText) -> Vec<String> {
    let mut at = n;
    while let Some(parent) = at.parent() {
        if parent.kind() == "function_definition" {
            return super::callers::signature(parent, src).map(|s| s.1).unwrap_or_default();
        }
        at = parent;
    }
    Vec::new()
}

/// Calls of function templates with explicit arguments in `item` (`launch_dot<256, 8>(…)`),
/// not kernel launches.
fn template_calls(item: Node, src: &SourceText) -> Vec<(String, Vec<String>)> {
    let mut out = Vec::new();
    walk::preorder(item, |n| {
        if n.kind() != "call_expression" || has_child_kind(n, "kernel_call_syntax") {
            return true;
        }
        let Some(function) = n.child_by_field_name("function").filter(|f| f.kind() == "template_function") else {
            return true;
        };
        let name = function.child_by_field_name("name").map(|c| node_text(c, src).into_owned());
        let args = function.child_by_field_name("arguments").map(|list| list_texts(Some(list), src));
        if let (Some(name), Some(args)) = (name, args) {
            out.push((name.rsplit("::").next().unwrap_or_default().trim().to_string(), args));
        }
        out.len() < 64
    });
    out
}

/// A macro's text on one line: each backslash-newline becomes a space.
fn join_continuations(text: &str) -> String {
    text.replace("\\\r\n", " ").replace("\\\n", " ")
}

/// A macro body without its trailing `// …` or `/* … */` comments.
pub(super) fn strip_comments(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find('/') {
        let tail = &rest[i..];
        if tail.starts_with("//") {
            out.push_str(&rest[..i]);
            rest = tail.find('\n').map(|j| &tail[j..]).unwrap_or("");
        } else if tail.starts_with("/*") {
            out.push_str(&rest[..i]);
            rest = tail.find("*/").map(|j| &tail[j + 2..]).unwrap_or("");
        } else {
            out.push_str(&rest[..=i]);
            rest = &rest[i + 1..];
        }
    }
    out.push_str(rest);
    out.trim().to_string()
}

/// The texts of a list's items (a call's arguments, a template's arguments), squashed.
pub(super) fn list_texts(list: Option<Node>, src: &SourceText) -> Vec<String> {
    list.map_or_else(Vec::new, |l| super::list_items(l).into_iter().map(|a| squash(&node_text(a, src))).collect())
}

/// A host function that returns one expression of its parameters (`int NUM_BLOCKS(int n)
/// { return (n + T - 1) / T; }`), read as the function-like macro it amounts to, so that a
/// launch written with it (`<<<NUM_BLOCKS(N), T>>>`) is evaluated.
fn host_formula(def: Node, name: &str, src: &SourceText) -> Option<HelperDraft> {
    if name.is_empty() || !name.chars().all(|c| c.is_alphanumeric() || c == '_') {
        return None;
    }
    let body = def.child_by_field_name("body")?;
    let mut cursor = body.walk();
    let statements: Vec<Node> = body.named_children(&mut cursor).filter(|n| n.kind() != "comment").collect();
    let [ret] = statements.as_slice() else { return None };
    if ret.kind() != "return_statement" {
        return None;
    }
    let value = ret.named_child(0)?;
    let declarator = function_declarator(def)?;
    let params = declarator.child_by_field_name("parameters")?;
    let mut cursor = params.walk();
    let mut names = Vec::new();
    for p in params.named_children(&mut cursor) {
        let declarator = p.child_by_field_name("declarator")?;
        if declarator.kind() != "identifier" {
            return None;
        }
        names.push(node_text(declarator, src).into_owned());
    }
    let text = format!("#define {name}({}) ({})", names.join(", "), squash(&node_text(value, src)));
    Some(HelperDraft {
        name: name.to_string(),
        kind: HelperKind::Macro,
        normalized: crate::hash::Hasher::new().str(&text).finish(),
        uses: identifiers(value, src),
        guard: Vec::new(),
        text,
    })
}

fn has_child_kind(node: Node, kind: &str) -> bool {
    let mut cursor = node.walk();
    let found = node.children(&mut cursor).any(|c| c.kind() == kind);
    found
}

/// A function definition; `outer` is the template declaration around it, if any.
fn function(def: Node, outer: Node, template: &[String], src: &SourceText, facts: &mut ItemFacts) {
    let global = has_child_kind(def, "__global__");
    let device = has_child_kind(def, "__device__");
    let Some(declarator) = function_declarator(def) else {
        launches(def, src, facts);
        return;
    };
    let name_node = declarator.child_by_field_name("declarator");
    let name = name_node.map(|n| node_text(n, src).into_owned()).unwrap_or_default();
    if !global {
        if !device {
            if let Some(helper) = host_formula(def, &name, src) {
                facts.helpers.push(helper);
            }
        }
        if device && !name.is_empty() {
            let norm = normalize(outer, src, &local_names(def, template, src), renamable);
            facts.helpers.push(HelperDraft {
                name,
                kind: HelperKind::DeviceFunction,
                text: node_text(outer, src).into_owned(),
                normalized: norm.hash,
                uses: norm.uses,
                guard: Vec::new(),
            });
        }
        launches(def, src, facts);
        return;
    }
    let (Some(name_node), Some(params)) = (name_node, declarator.child_by_field_name("parameters")) else {
        return;
    };
    let norm = normalize(outer, src, &local_names(def, template, src), renamable);
    let mut launch_bounds = Vec::new();
    let mut cursor = def.walk();
    for child in def.children(&mut cursor) {
        if child.kind() == "launch_bounds" {
            let mut inner = child.walk();
            launch_bounds = child.named_children(&mut inner).map(|n| squash(&node_text(n, src))).collect();
        }
    }
    let source = node_text(outer, src).into_owned();
    facts.kernels.push(KernelDraft {
        raw_hash: ContentHash::of(source.as_bytes()),
        source: source.into(),
        name,
        range: node_range(outer),
        name_range: node_range(name_node),
        signature_end: params.end_byte(),
        normalized: norm.hash,
        uses: norm.uses,
        launch_bounds,
        constexpr_params: template.to_vec(),
        autotune: Vec::new(),
        has_errors: outer.has_error(),
    });
}

/// Identifiers that name variables (not fields, types or labels) are renamable.
fn renamable(node: Node, _parent: Option<Node>) -> bool {
    node.kind() == "identifier"
}

pub(super) fn function_declarator(def: Node) -> Option<Node> {
    let mut node = def.child_by_field_name("declarator")?;
    for _ in 0..8 {
        if node.kind() == "function_declarator" {
            return Some(node);
        }
        node = node.child_by_field_name("declarator")?;
    }
    None
}

fn template_params(decl: Node, src: &SourceText) -> Vec<String> {
    let Some(list) = decl.child_by_field_name("parameters") else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let mut cursor = list.walk();
    for param in list.named_children(&mut cursor) {
        let name = param
            .child_by_field_name("declarator")
            .or_else(|| param.child_by_field_name("name"))
            .or_else(|| param.named_child(param.named_child_count().saturating_sub(1) as u32));
        if let Some(name) = name {
            out.push(node_text(declarator_name(name).unwrap_or(name), src).into_owned());
        }
    }
    out
}

/// The default values of a template's value parameters (`int BlockStride = 1`).
fn template_defaults(decl: Node, src: &SourceText) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    let Some(list) = decl.child_by_field_name("parameters") else { return out };
    let mut cursor = list.walk();
    for param in list.named_children(&mut cursor).filter(|p| p.kind() == "optional_parameter_declaration") {
        let name = param.child_by_field_name("declarator").and_then(declarator_name);
        if let (Some(name), Some(value)) = (name, param.child_by_field_name("default_value")) {
            out.insert(node_text(name, src).into_owned(), squash(&node_text(value, src)));
        }
    }
    out
}

/// The identifier at the bottom of a declarator chain (`*p`, `a[4]`, `x = 1`, `&r`).
pub(crate) fn declarator_name(mut node: Node) -> Option<Node> {
    for _ in 0..16 {
        match node.kind() {
            "identifier" | "field_identifier" | "type_identifier" => return Some(node),
            "init_declarator"
            | "pointer_declarator"
            | "array_declarator"
            | "reference_declarator"
            | "parenthesized_declarator"
            | "attributed_declarator" => {
                node = node.child_by_field_name("declarator").or_else(|| node.named_child(0))?;
            }
            _ => return None,
        }
    }
    None
}

fn declared_names(decl: Node, src: &SourceText) -> Vec<String> {
    let mut cursor = decl.walk();
    decl.children_by_field_name("declarator", &mut cursor)
        .filter_map(declarator_name)
        .map(|n| node_text(n, src).into_owned())
        .collect()
}

/// Parameters and local variables of a function, plus its template parameters.
fn local_names(def: Node, template: &[String], src: &SourceText) -> HashSet<String> {
    let mut names: HashSet<String> = template.iter().cloned().collect();
    walk::preorder(def, |n| {
        if matches!(n.kind(), "parameter_declaration" | "declaration" | "optional_parameter_declaration") {
            names.extend(declared_names(n, src));
        }
        true
    });
    names
}

fn identifiers(node: Node, src: &SourceText) -> std::collections::BTreeSet<String> {
    let mut out = std::collections::BTreeSet::new();
    walk::preorder(node, |n| {
        if n.kind() == "identifier" {
            out.insert(node_text(n, src).into_owned());
        }
        // A macro body is one preproc_arg token: split it into identifiers by hand.
        if n.kind() == "preproc_arg" {
            for word in words(&node_text(n, src)) {
                if word.chars().next().is_some_and(|c| c.is_alphabetic() || c == '_') {
                    out.insert(word.to_string());
                }
            }
        }
        true
    });
    out
}

mod api;
mod launch_sites;
mod library_program;
#[cfg(test)]
mod tests;

use launch_sites::{draft_at, enclosing_name, launches};
pub(super) use launch_sites::{host_calls, host_locals, kernel_pointer, library_call_at};
pub use library_program::library_program;
