//! CUDA items: `__global__` kernels (templates too), `__device__` helpers, `#define`s,
//! file-level constants and `<<<…>>>` launch sites.

use super::normalize::normalize;
use super::{node_range, node_text, squash, substitute, walk, words, HelperDraft, ItemFacts, KernelDraft, LaunchDraft};
use crate::hash::ContentHash;
use crate::kernel::{HelperKind, LaunchSite, SET_ON_SOME_PATHS};
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
                if child.kind() == "function_definition" {
                    function(child, item, &params, src, &mut facts);
                }
            }
            for l in &mut facts.launches {
                l.host_template.clone_from(&params);
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
                    text,
                });
            }
        }
        "declaration" => {
            let text = node_text(item, src);
            let norm = normalize(item, src, &HashSet::new(), |_, _| true);
            for name in declared_names(item, src) {
                facts.helpers.push(HelperDraft {
                    name,
                    kind: HelperKind::Constant,
                    text: squash(&text),
                    normalized: norm.hash,
                    uses: norm.uses.clone(),
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
        "template_declaration" | "linkage_specification" | "declaration_list" => {
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
        _ => Vec::new(),
    };
    for def in defs {
        if has_child_kind(def, "__global__") || has_child_kind(def, "__device__") {
            continue;
        }
        facts.calls.extend(super::callers::calls_in(def, item, src));
        facts.out_params.extend(super::callers::out_params(def, src));
    }
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
        let args = function.child_by_field_name("arguments").map(|list| {
            let mut c = list.walk();
            list.named_children(&mut c).map(|a| squash(&node_text(a, src))).collect::<Vec<_>>()
        });
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
    let Some(list) = list else { return Vec::new() };
    let mut c = list.walk();
    let out = list.named_children(&mut c).map(|a| squash(&node_text(a, src))).collect();
    out
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

/// `kernel<<<grid, block, shared, stream>>>(args)` sites under `node`.
fn launches(node: Node, src: &SourceText, facts: &mut ItemFacts) {
    let mut host_name: Option<String> = None;
    let first = facts.launches.len();
    let mut cases: Vec<Option<super::SwitchCase>> = Vec::new();
    walk::preorder(node, |n| {
        if n.kind() != "call_expression" {
            return true;
        }
        let mut cursor = n.walk();
        let Some(config) = n.children(&mut cursor).find(|c| c.kind() == "kernel_call_syntax") else {
            if let Some(draft) = api::launch(n, node, src) {
                facts.launches.push(draft);
                cases.push(None);
            }
            return true;
        };
        let Some(function) = n.child_by_field_name("function") else {
            return true;
        };
        let (callee, template_args) = match function.kind() {
            "template_function" => {
                let name = function.child_by_field_name("name").map(|c| node_text(c, src).into_owned());
                let args = list_texts(function.child_by_field_name("arguments"), src);
                (name.unwrap_or_default(), args)
            }
            _ => {
                let text = node_text(function, src);
                (text.rsplit("::").next().unwrap_or_default().trim().to_string(), Vec::new())
            }
        };
        let mut c = config.walk();
        let operands: Vec<String> = config.named_children(&mut c).map(|o| squash(&node_text(o, src))).collect();
        let args = list_texts(n.child_by_field_name("arguments"), src);
        // The locals this launch sees: a branch's `const uint BM = 64;` is not the other
        // branch's.
        let locals = host_locals(node, src, n.start_byte());
        let host_name = host_name.get_or_insert_with(|| enclosing_name(node, src)).clone();
        let mut draft = draft_at(n, node, src, callee, &operands, args, locals, host_name);
        draft.template_args = template_args;
        facts.launches.push(draft);
        cases.push(switch_case(n, src));
        true
    });
    mark_block_cases(&mut facts.launches, first, cases);
}

/// The launch of `callee` by the call `at` in `item`, its configuration (grid, block, shared
/// bytes, stream) as written.
#[allow(clippy::too_many_arguments)]
fn draft_at(
    at: Node,
    item: Node,
    src: &SourceText,
    callee: String,
    config: &[String],
    args: Vec<String>,
    locals: BTreeMap<String, String>,
    host_name: String,
) -> LaunchDraft {
    LaunchDraft {
        callee,
        template_args: Vec::new(),
        host_template: Vec::new(),
        host_fn_params: enclosing_params(at, src),
        case: None,
        site: LaunchSite {
            range: node_range(at),
            grid: config.first().cloned(),
            block: config.get(1).cloned(),
            shared_mem: config.get(2).cloned(),
            stream: config.get(3).cloned(),
            meta: BTreeMap::new(),
            args,
            locals,
            host_params: Vec::new(),
            host_defaults: BTreeMap::new(),
            host_name,
            external: None,
            allocations: BTreeMap::new(),
            trips: super::trips::loop_trips(at, item, src),
            taken: super::branches::branches(at, item, src),
        },
    }
}

/// Where a launch is one case of a `switch (threads) { case 512: k<512><<<…>>>(…); … }`.
fn switch_case(launch: Node, src: &SourceText) -> Option<super::SwitchCase> {
    let mut at = launch;
    while let Some(parent) = at.parent() {
        if parent.kind() == "function_definition" {
            return None;
        }
        if parent.kind() == "case_statement" {
            let switch = parent.parent().and_then(|b| b.parent()).filter(|s| s.kind() == "switch_statement")?;
            let variable = node_text(switch.child_by_field_name("condition")?, src);
            let variable = variable.trim().trim_start_matches('(').trim_end_matches(')').trim().to_string();
            let body = switch.child_by_field_name("body")?;
            let mut cursor = body.walk();
            let values: Vec<f64> = body
                .named_children(&mut cursor)
                .filter(|c| c.kind() == "case_statement")
                .filter_map(|c| c.child_by_field_name("value"))
                .filter_map(|v| node_text(v, src).trim().parse::<f64>().ok())
                .collect();
            let value = parent.child_by_field_name("value")?;
            let value = node_text(value, src).trim().parse::<f64>().ok()?;
            return Some(super::SwitchCase { variable, value, values });
        }
        at = parent;
    }
    None
}

/// A switch over block sizes launches one of its cases at run time: each case's launch
/// keeps its case, and assembly keeps the one the switch's variable picks (see
/// `assemble::pick_cases`).
fn mark_block_cases(drafts: &mut [LaunchDraft], first: usize, cases: Vec<Option<super::SwitchCase>>) {
    for (i, case) in cases.into_iter().enumerate() {
        let case = case.filter(|c| c.values.len() >= 2 && c.values.iter().any(|v| *v >= 32.0));
        if let (Some(d), Some(case)) = (drafts.get_mut(first + i), case) {
            d.case = Some(case);
        }
    }
}

/// The name of the function an item defines (its last `::` part), or "".
fn enclosing_name(node: Node, src: &SourceText) -> String {
    let def = if node.kind() == "function_definition" {
        Some(node)
    } else {
        let mut cursor = node.walk();
        let found = node.named_children(&mut cursor).find(|c| c.kind() == "function_definition");
        found
    };
    def.and_then(|d| super::callers::signature(d, src)).map(|(name, _)| name).unwrap_or_default()
}

/// `int threads = 256;`, `dim3 block(32, 8);`: local values a launch (or call) at byte `at`
/// may refer to: declared in a block that holds it (not in another branch).
pub(super) fn host_locals(node: Node, src: &SourceText, at: usize) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    walk::preorder_with_ancestors(node, |n, ancestors| {
        if n.kind() == "assignment_expression" {
            // After the launch, an assignment reaches it only around a loop holding both.
            let reaches = n.start_byte() < at
                || ancestors.iter().any(|a| {
                    matches!(a.kind(), "for_statement" | "while_statement" | "do_statement")
                        && a.start_byte() <= at
                        && at < a.end_byte()
                });
            if reaches {
                reassign(n, ancestors, src, &mut out);
            }
            return true;
        }
        if n.kind() == "call_expression" {
            sm_count_query(n, src, &mut out);
            return true;
        }
        if n.kind() != "declaration" {
            return true;
        }
        if n.parent().is_some_and(|scope| !(scope.start_byte() <= at && at < scope.end_byte())) {
            return false;
        }
        let ty = n.child_by_field_name("type").map(|t| node_text(t, src).into_owned()).unwrap_or_default();
        let mut cursor = n.walk();
        for decl in n.children_by_field_name("declarator", &mut cursor) {
            // `dim3 block(32, 8);` parses as a function declarator (C++'s vexing parse).
            let (name, value) = match decl.kind() {
                "init_declarator" => (decl.child_by_field_name("declarator"), decl.child_by_field_name("value")),
                "function_declarator" => {
                    (decl.child_by_field_name("declarator"), decl.child_by_field_name("parameters"))
                }
                _ => continue,
            };
            let (Some(name), Some(value)) = (name, value) else { continue };
            let value_text = squash(&node_text(value, src));
            let value_text = if matches!(value.kind(), "argument_list" | "parameter_list") {
                format!("{ty}{value_text}")
            } else {
                value_text
            };
            out.insert(node_text(name, src).into_owned(), value_text);
        }
        false
    });
    out
}

/// `cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev)` sets `sms` to the
/// device's SM count (a device query, `num_sms()`), whatever it was initialised with.
fn sm_count_query(call: Node, src: &SourceText, out: &mut BTreeMap<String, String>) {
    let Some(function) = call.child_by_field_name("function") else { return };
    if node_text(function, src).trim() != "cudaDeviceGetAttribute" {
        return;
    }
    let Some(args) = call.child_by_field_name("arguments") else { return };
    let (Some(target), Some(attr)) = (args.named_child(0), args.named_child(1)) else { return };
    if node_text(attr, src).trim() == "cudaDevAttrMultiProcessorCount" {
        let name = node_text(target, src).trim().trim_start_matches('&').trim().to_string();
        out.insert(name, "num_sms()".to_string());
    }
}

/// A later assignment to a local: `blocks = min(blocks, cap);` and `blocks += 1;` update
/// its value, `if (blocks > cap) blocks = cap;` caps it; any other conditional
/// assignment marks it [`SET_ON_SOME_PATHS`] (so a launch that uses it cannot be taken as
/// written, and a job asks for `grid =` instead of launching the wrong shape).
fn reassign(n: Node, ancestors: &[Node], src: &SourceText, out: &mut BTreeMap<String, String>) {
    let (Some(left), Some(right)) = (n.child_by_field_name("left"), n.child_by_field_name("right")) else {
        return;
    };
    let name = node_text(left, src).into_owned();
    let Some(old) = out.get(&name).cloned() else {
        return;
    };
    let right = squash(&node_text(right, src));
    let op = n.child_by_field_name("operator").map(|o| node_text(o, src).into_owned()).unwrap_or_else(|| "=".into());
    let value = match op.strip_suffix('=') {
        Some("") => substitute(&right, &name, &format!("({old})")),
        Some(binary) => format!("({old}) {binary} ({right})"),
        None => return,
    };
    // Conditional: inside an `if`, a loop or a `switch` of the launching function.
    let mut guard = None;
    for p in ancestors.iter().rev() {
        if matches!(p.kind(), "function_definition" | "lambda_expression") {
            break;
        }
        if matches!(
            p.kind(),
            "if_statement"
                | "for_statement"
                | "while_statement"
                | "do_statement"
                | "switch_statement"
                | "conditional_expression"
        ) {
            guard = Some(*p);
            break;
        }
    }
    let value = match guard {
        None => Some(value),
        Some(g) if g.kind() == "if_statement" && g.child_by_field_name("alternative").is_none() => {
            let cond = g.child_by_field_name("condition").map(|c| squash(&node_text(c, src))).unwrap_or_default();
            let cond = cond.trim_start_matches('(').trim_end_matches(')').trim().to_string();
            let cap = [(">", "min"), (">=", "min"), ("<", "max"), ("<=", "max")].into_iter().find_map(|(cmp, f)| {
                let (l, r) = cond.split_once(&format!(" {cmp} "))?;
                (l.trim() == name && r.trim() == right && !r.contains(['<', '>', '='])).then_some(f)
            });
            cap.map(|f| format!("{f}({old}, {right})"))
        }
        Some(_) => None,
    };
    out.insert(name, value.unwrap_or_else(|| SET_ON_SOME_PATHS.to_string()));
}

/// Calls of the host function `host` in a CUDA/C++ text (not kernel launches): their
/// arguments and the calling function's locals.
pub(super) fn host_calls(text: &str, host: &str) -> Vec<super::workspace::HostCall> {
    let src = SourceText::new(crate::kernel::Language::Cuda, text);
    let Some(tree) = src.tree() else { return Vec::new() };
    let mut out = Vec::new();
    let root = tree.root_node();
    let mut cursor = root.walk();
    for item in root.named_children(&mut cursor) {
        if !node_text(item, &src).contains(host) {
            continue;
        }
        walk::preorder(item, |n| {
            if n.kind() != "call_expression" || out.len() >= 16 {
                return true;
            }
            let Some(function) = n.child_by_field_name("function") else { return true };
            if function.kind() != "identifier" || node_text(function, &src) != host {
                return true;
            }
            let mut c = n.walk();
            if n.children(&mut c).any(|ch| ch.kind() == "kernel_call_syntax") {
                return true;
            }
            let args: Vec<String> = n
                .child_by_field_name("arguments")
                .map(|list| {
                    let mut c = list.walk();
                    list.named_children(&mut c).map(|a| squash(&node_text(a, &src))).collect()
                })
                .unwrap_or_default();
            let locals = host_locals(item, &src, n.start_byte());
            out.push(super::workspace::HostCall { args, locals, at: n.start_byte() });
            true
        });
    }
    out
}

mod api;
#[cfg(test)]
mod tests;
