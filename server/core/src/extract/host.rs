//! What the host code around one CUDA launch says about the problem: the values names
//! hold at the launch (file constants, the launching function's locals on every path to
//! the launch, its parameters bound from the one call of it in the file), the buffers
//! allocated with `cudaMalloc` (their byte counts), and the conditions that guard the
//! launch (`if (M >= 128 and N >= 128)`).
//!
//! Read statement by statement, in order, up to the launch: a declaration with several
//! declarators (`const int M = 8192, N = 8192;`) defines each; a name set in the branches
//! of an `if` keeps its value where every path agrees and is [`Value::Unsure`] where they
//! differ; a name set in a loop is unsure; a block's own names end with it. Nesting
//! deeper than [`MAX_DEPTH`] is not followed (input depth never recurses unbounded).
//!
//! `measure::spec` builds Verify's jobs from these facts and `search::knobs` keeps the
//! problem's sizes out of the knobs; the forecaster's environment may use them too.

use crate::kernel::Language;
use crate::source::parser_for;
use std::collections::{BTreeMap, BTreeSet};
use tree_sitter::Node;

/// Statements nested deeper than this are not followed.
const MAX_DEPTH: usize = 48;
/// Callers followed to bind a launching function's parameters (main → run → launch).
const MAX_CALLERS: usize = 3;

/// A name's value at the launch.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Value {
    /// The same text on every path (evaluate it with the other values).
    Known(String),
    /// Set differently on different paths, or in a loop.
    Unsure,
    /// Declared without a value, or a parameter no call binds.
    Unknown,
}

/// What the host code says at one launch.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct HostFacts {
    /// Names with one value on every path to the launch (file constants, `#define`s,
    /// locals, parameters bound from the caller). A caller's value is its number where it
    /// evaluates, so the caller's names cannot clash with the launcher's.
    pub values: BTreeMap<String, String>,
    /// Names set differently on different paths to the launch (or in a loop).
    pub unsure: BTreeSet<String>,
    /// `cudaMalloc(&A, bytes)`: `A` → the byte count's text (a launcher's pointer
    /// parameter bound to the caller's allocation is listed under the parameter's name).
    pub allocations: BTreeMap<String, String>,
    /// Conditions that hold at the launch (`M >= 128 and N >= 128`, `!(n < 1024)`).
    pub conditions: Vec<String>,
    /// The launching function's name (empty at file level).
    pub function: String,
}

impl HostFacts {
    /// The value of `name`, if every path agrees on one.
    pub fn value(&self, name: &str) -> Option<&str> {
        self.values.get(name).map(String::as_str)
    }
}

/// The facts at byte offset `at` (a launch) of the CUDA file `text`.
pub fn facts_at(text: &str, at: usize) -> HostFacts {
    let mut parser = parser_for(Language::Cuda);
    let Some(tree) = parser.parse(text, None) else { return HostFacts::default() };
    facts_in(text, tree.root_node(), at, 0)
}

/// Names a file's host code uses as problem sizes: the byte counts of its `cudaMalloc`
/// calls and the names those counts are computed from (`bytes = M * N * sizeof(float)`
/// gives `bytes`, `M`, `N`).
pub fn allocation_names(text: &str) -> BTreeSet<String> {
    let mut parser = parser_for(Language::Cuda);
    let Some(tree) = parser.parse(text, None) else { return BTreeSet::new() };
    let mut out = BTreeSet::new();
    let mut defs: BTreeMap<String, String> = BTreeMap::new();
    let mut sizes = Vec::new();
    crate::extract::walk_preorder(tree.root_node(), |n| {
        match n.kind() {
            "init_declarator" => {
                if let (Some(d), Some(v)) = (n.child_by_field_name("declarator"), n.child_by_field_name("value")) {
                    defs.insert(slice(text, d).to_string(), slice(text, v).to_string());
                }
            }
            "call_expression" => {
                if let Some((_, bytes)) = allocation(text, n) {
                    sizes.push(bytes);
                }
            }
            _ => {}
        }
        true
    });
    let mut pending: Vec<String> = sizes;
    let mut steps = 0;
    while let Some(t) = pending.pop() {
        steps += 1;
        if steps > 256 {
            break;
        }
        for w in crate::extract::words(&t).filter(|w| w.chars().next().is_some_and(|c| c.is_alphabetic() || c == '_')) {
            if w == "sizeof" || !out.insert(w.to_string()) {
                continue;
            }
            if let Some(def) = defs.get(w) {
                pending.push(def.clone());
            }
        }
    }
    out
}

fn slice<'a>(text: &'a str, n: Node) -> &'a str {
    text.get(n.byte_range()).unwrap_or("")
}

fn squash(t: &str) -> String {
    crate::extract::squash(t)
}

/// `cudaMalloc(&A, bytes)`, `cudaMalloc((void**)&A, bytes)`, `cudaMallocManaged(&A, n)`:
/// (`A`, bytes text).
fn allocation(text: &str, call: Node) -> Option<(String, String)> {
    let f = call.child_by_field_name("function")?;
    let name = slice(text, f).trim();
    if !matches!(name, "cudaMalloc" | "cudaMallocManaged" | "cudaMallocAsync") {
        return None;
    }
    let list = call.child_by_field_name("arguments")?;
    let mut c = list.walk();
    let args: Vec<Node> = list.named_children(&mut c).filter(|a| a.kind() != "comment").collect();
    let (ptr, bytes) = (args.first()?, args.get(1)?);
    let p = slice(text, *ptr);
    let amp = p.rfind('&')?;
    let var = p[amp + 1..].trim().trim_end_matches(')').trim();
    (!var.is_empty() && var.chars().all(|c| c.is_alphanumeric() || c == '_'))
        .then(|| (var.to_string(), squash(slice(text, *bytes))))
}

/// The function definition enclosing `at`, if any.
fn enclosing_function<'t>(root: Node<'t>, at: usize) -> Option<Node<'t>> {
    let mut n = root.descendant_for_byte_range(at, at)?;
    loop {
        if n.kind() == "function_definition" {
            return Some(n);
        }
        n = n.parent()?;
    }
}

/// The parameter names of the function of `text` (parsed as `root`) whose body holds `at`.
pub(crate) fn params_at(text: &str, root: Node, at: usize) -> Vec<String> {
    enclosing_function(root, at).map(|def| signature(text, def).1).unwrap_or_default()
}

/// A function definition's name and parameter names.
fn signature(text: &str, def: Node) -> (String, Vec<String>) {
    let mut d = def.child_by_field_name("declarator");
    while let Some(n) = d {
        if n.kind() == "function_declarator" {
            break;
        }
        d = n.child_by_field_name("declarator");
    }
    let Some(fd) = d else { return (String::new(), Vec::new()) };
    let name = fd
        .child_by_field_name("declarator")
        .map(|n| slice(text, n).rsplit("::").next().unwrap_or("").trim().to_string())
        .unwrap_or_default();
    let mut params = Vec::new();
    if let Some(list) = fd.child_by_field_name("parameters") {
        let mut c = list.walk();
        for p in list.named_children(&mut c) {
            if let Some(n) = p.child_by_field_name("declarator").and_then(crate::extract::declarator_name) {
                params.push(slice(text, n).to_string());
            }
        }
    }
    (name, params)
}

/// The state of the names while reading statements.
#[derive(Clone, Default)]
struct State {
    values: BTreeMap<String, Value>,
    allocations: BTreeMap<String, String>,
    conditions: Vec<String>,
}

fn facts_in(text: &str, root: Node, at: usize, callers: usize) -> HostFacts {
    let mut st = State::default();
    // File level: `#define N 4096`, `const int M = 8192, N = 8192;`.
    let mut c = root.walk();
    for item in root.named_children(&mut c) {
        if item.start_byte() > at {
            break;
        }
        match item.kind() {
            "preproc_def" => {
                if let (Some(n), Some(v)) = (item.child_by_field_name("name"), item.child_by_field_name("value")) {
                    let value = super::cuda::strip_comments(slice(text, v));
                    st.values.insert(slice(text, n).to_string(), Value::Known(squash(&value)));
                }
            }
            "declaration" => declare(text, item, &mut st),
            _ => {}
        }
    }
    let Some(def) = enclosing_function(root, at) else { return finish(st, String::new()) };
    let (name, params) = signature(text, def);
    for p in &params {
        st.values.insert(p.clone(), Value::Unknown);
    }
    // Parameters: bound from the first call of this function elsewhere in the file.
    if callers < MAX_CALLERS && !name.is_empty() {
        if let Some(call) = first_call(text, root, &name, def) {
            let caller = facts_in(text, root, call.start_byte(), callers + 1);
            bind(text, call, &params, &caller, &mut st);
        }
    }
    if let Some(body) = def.child_by_field_name("body") {
        block(text, body, at, &mut st, 0);
    }
    finish(st, name)
}

fn finish(st: State, function: String) -> HostFacts {
    let mut out =
        HostFacts { function, allocations: st.allocations, conditions: st.conditions, ..HostFacts::default() };
    for (k, v) in st.values {
        match v {
            Value::Known(t) => {
                out.values.insert(k, t);
            }
            Value::Unsure => {
                out.unsure.insert(k);
            }
            Value::Unknown => {}
        }
    }
    out
}

/// The first call of `name` outside `def` (not a launch of a kernel of that name).
fn first_call<'t>(text: &str, root: Node<'t>, name: &str, def: Node<'t>) -> Option<Node<'t>> {
    let mut found = None;
    crate::extract::walk_preorder(root, |n| {
        if found.is_some() || n == def {
            return false;
        }
        if n.kind() == "call_expression"
            && n.child_by_field_name("function").is_some_and(|f| slice(text, f).trim() == name)
        {
            let mut c = n.walk();
            if !n.children(&mut c).any(|ch| ch.kind() == "kernel_call_syntax") {
                found = Some(n);
                return false;
            }
        }
        true
    });
    found
}

/// The caller's arguments as the launcher's parameters: numbers where they evaluate (so
/// the caller's names cannot clash with the launcher's), the caller's allocation of a
/// pointer passed straight through.
fn bind(text: &str, call: Node, params: &[String], caller: &HostFacts, st: &mut State) {
    let Some(list) = call.child_by_field_name("arguments") else { return };
    let env = crate::features::expr::Env::of_texts(&caller.values);
    let exact = |t: &str| env.eval(t).filter(|e| e.guesses == 0).map(|e| e.value);
    let mut c = list.walk();
    let args: Vec<String> = list.named_children(&mut c).map(|a| squash(slice(text, a))).collect();
    for (p, a) in params.iter().zip(&args) {
        let value = match exact(a) {
            Some(v) => Value::Known(number(v)),
            None if caller.unsure.contains(a.as_str()) => Value::Unsure,
            None => Value::Unknown,
        };
        st.values.insert(p.clone(), value);
        if let Some(bytes) = caller.allocations.get(a.as_str()) {
            let bytes = exact(bytes).map(number).unwrap_or_else(|| bytes.clone());
            st.allocations.insert(p.clone(), bytes);
        }
    }
}

pub(super) fn number(v: f64) -> String {
    if v.fract() == 0.0 && v.abs() < 1e18 {
        format!("{}", v as i64)
    } else {
        format!("{v}")
    }
}

/// Reads a compound statement's statements up to `at`; true once the launch is reached.
fn block(text: &str, node: Node, at: usize, st: &mut State, depth: usize) -> bool {
    if node.kind() != "compound_statement" {
        return statement(text, node, at, st, depth);
    }
    let outer: BTreeSet<String> = st.values.keys().cloned().collect();
    let mut c = node.walk();
    let mut reached = false;
    for s in node.named_children(&mut c) {
        if s.start_byte() > at {
            break;
        }
        if statement(text, s, at, st, depth + 1) {
            reached = true;
            break;
        }
    }
    if !reached {
        // The block's own names end with it.
        st.values.retain(|k, _| outer.contains(k));
    }
    reached
}

/// Reads one statement; true if it holds the launch (read up to it).
fn statement(text: &str, s: Node, at: usize, st: &mut State, depth: usize) -> bool {
    let holds = s.start_byte() <= at && at < s.end_byte();
    if depth > MAX_DEPTH {
        if !holds {
            unsure_assigned(text, s, st);
        }
        return holds;
    }
    match s.kind() {
        "declaration" => {
            declare(text, s, st);
            holds
        }
        "compound_statement" => block(text, s, at, st, depth),
        "if_statement" => {
            let cond = s
                .child_by_field_name("condition")
                .map(|c| {
                    let t = squash(slice(text, c));
                    t.strip_prefix('(').and_then(|t| t.strip_suffix(')')).map(str::to_string).unwrap_or(t)
                })
                .unwrap_or_default();
            let cons = s.child_by_field_name("consequence");
            // `else_clause` wraps the statement in newer grammars.
            let alt = s.child_by_field_name("alternative").map(|a| {
                if a.kind() == "else_clause" {
                    let mut c = a.walk();
                    let inner = a.named_children(&mut c).last();
                    inner.unwrap_or(a)
                } else {
                    a
                }
            });
            let inside = |n: Option<Node>| n.is_some_and(|n| n.start_byte() <= at && at < n.end_byte());
            if inside(cons) {
                st.conditions.push(cond);
                return cons.is_some_and(|n| block(text, n, at, st, depth + 1));
            }
            if inside(alt) {
                st.conditions.push(format!("!({cond})"));
                return alt.is_some_and(|n| block(text, n, at, st, depth + 1));
            }
            if holds {
                return true;
            }
            let mut then = st.clone();
            if let Some(n) = cons {
                block(text, n, usize::MAX, &mut then, depth + 1);
            }
            let mut other = st.clone();
            if let Some(n) = alt {
                block(text, n, usize::MAX, &mut other, depth + 1);
            }
            for (k, v) in st.values.iter_mut() {
                let (a, b) = (then.values.get(k), other.values.get(k));
                if a != b || a.is_none() {
                    *v = Value::Unsure;
                } else if let Some(a) = a {
                    *v = a.clone();
                }
            }
            for (k, v) in then.allocations.into_iter().chain(other.allocations) {
                st.allocations.entry(k).or_insert(v);
            }
            false
        }
        "for_statement" | "while_statement" | "do_statement" | "for_range_loop" | "switch_statement" => {
            unsure_assigned(text, s, st);
            if holds {
                if let Some(body) = s.child_by_field_name("body") {
                    // The loop's own variables are unsure inside it.
                    let mut inner = st.clone();
                    if let Some(init) = s.child_by_field_name("initializer") {
                        declare(text, init, &mut inner);
                    }
                    let loop_vars: Vec<String> =
                        inner.values.keys().filter(|k| !st.values.contains_key(*k)).cloned().collect();
                    for v in loop_vars {
                        inner.values.insert(v, Value::Unsure);
                    }
                    *st = inner;
                    return block(text, body, at, st, depth + 1);
                }
            }
            holds
        }
        _ => {
            if holds {
                return true;
            }
            effects(text, s, st);
            false
        }
    }
}

/// Every name assigned under `s` becomes unsure (a loop may run any number of times).
fn unsure_assigned(text: &str, s: Node, st: &mut State) {
    crate::extract::walk_preorder(s, |n| {
        if matches!(n.kind(), "assignment_expression" | "update_expression") {
            let target = n.child_by_field_name("left").or_else(|| n.child_by_field_name("argument"));
            if let Some(v) = target.and_then(|t| st.values.get_mut(slice(text, t).trim())) {
                *v = Value::Unsure;
            }
        }
        if n.kind() == "call_expression" {
            if let Some((var, bytes)) = allocation(text, n) {
                st.allocations.entry(var).or_insert(bytes);
            }
        }
        true
    });
}

/// Assignments and allocations in an expression statement.
fn effects(text: &str, s: Node, st: &mut State) {
    crate::extract::walk_preorder(s, |n| {
        match n.kind() {
            "assignment_expression" => {
                let (Some(left), Some(right)) = (n.child_by_field_name("left"), n.child_by_field_name("right")) else {
                    return true;
                };
                let name = slice(text, left).trim().to_string();
                let op = n.child_by_field_name("operator").map(|o| slice(text, o).to_string()).unwrap_or("=".into());
                let right = squash(slice(text, right));
                let Some(old) = st.values.get(&name).cloned() else { return true };
                let new = match (op.strip_suffix('='), old) {
                    (Some(""), Value::Known(old)) => {
                        Value::Known(crate::extract::substitute(&right, &name, &format!("({old})")))
                    }
                    (Some(""), _) if !crate::extract::words(&right).any(|w| w == name) => Value::Known(right),
                    (Some(bin), Value::Known(old)) if !bin.is_empty() => {
                        Value::Known(format!("({old}) {bin} ({right})"))
                    }
                    _ => Value::Unsure,
                };
                st.values.insert(name, new);
            }
            "update_expression" => {
                if let Some(v) =
                    n.child_by_field_name("argument").and_then(|a| st.values.get_mut(slice(text, a).trim()))
                {
                    *v = Value::Unsure;
                }
            }
            "call_expression" => {
                if let Some((var, bytes)) = allocation(text, n) {
                    st.allocations.insert(var, bytes);
                }
            }
            _ => {}
        }
        true
    });
}

/// `const int M = 8192, N = 8192;`, `dim3 block(32, 8);`, `float *A;`: each declarator.
fn declare(text: &str, decl: Node, st: &mut State) {
    let ty = decl.child_by_field_name("type").map(|t| slice(text, t).to_string()).unwrap_or_default();
    let mut c = decl.walk();
    for d in decl.children_by_field_name("declarator", &mut c) {
        let (name, value) = match d.kind() {
            "init_declarator" => (d.child_by_field_name("declarator"), d.child_by_field_name("value")),
            // `dim3 block(32, 8);` parses as a function declarator (C++'s vexing parse).
            "function_declarator" => (d.child_by_field_name("declarator"), d.child_by_field_name("parameters")),
            _ => (Some(d), None),
        };
        let Some(name) = name.and_then(crate::extract::declarator_name) else { continue };
        let value = match value {
            Some(v) if matches!(v.kind(), "argument_list" | "parameter_list") => {
                Value::Known(format!("{ty}{}", squash(slice(text, v))))
            }
            Some(v) if v.kind() == "initializer_list" => Value::Unknown,
            Some(v) => Value::Known(squash(slice(text, v))),
            None => Value::Unknown,
        };
        st.values.insert(slice(text, name).to_string(), value);
        if let Some(v) = d.child_by_field_name("value").filter(|v| v.kind() == "call_expression") {
            if let Some((var, bytes)) = allocation(text, v) {
                st.allocations.insert(var, bytes);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MATVEC: &str = r#"
__global__ void matvec(const float* A, const float* x, float* y, int M, int N) {}
void run() {
    const int M = 8192, N = 8192;
    float *A, *x, *y;
    cudaMalloc(&A, sizeof(float) * M * N);
    cudaMalloc((void**)&x, N * sizeof(float));
    size_t ybytes = M * sizeof(float);
    cudaMalloc(&y, ybytes);
    matvec<<<M / 256, 256>>>(A, x, y, M, N);
}
"#;

    #[test]
    fn several_declarators_and_allocations() {
        let at = MATVEC.find("matvec<<<").unwrap_or(0);
        let f = facts_at(MATVEC, at);
        assert_eq!(f.value("M"), Some("8192"));
        assert_eq!(f.value("N"), Some("8192"));
        assert_eq!(f.allocations.get("A").map(String::as_str), Some("sizeof(float) * M * N"));
        assert_eq!(f.allocations.get("x").map(String::as_str), Some("N * sizeof(float)"));
        assert_eq!(f.allocations.get("y").map(String::as_str), Some("ybytes"));
        assert_eq!(f.function, "run");
        let names = allocation_names(MATVEC);
        assert!(["M", "N", "ybytes"].iter().all(|n| names.contains(*n)), "{names:?}");
    }

    const BRANCHES: &str = r#"
template <const int BM, const int BN>
__global__ void k(int M, int N, float* C) {}
void launch(int M, int N, float* C) {
    const uint BK = 8;
    int threads;
    if (M > 4096) { threads = 256; } else { threads = 256; }
    int tile = 64;
    if (N > 4096) tile = 128;
    if (M >= 128 and N >= 128) {
        const uint BM = 128;
        const uint BN = 128;
        k<BM, BN><<<dim3(N / BN, M / BM), threads>>>(M, N, C);
    } else {
        const uint BM = 64;
        const uint BN = 64;
        k<BM, BN><<<dim3(N / BN, M / BM), threads>>>(M, N, C);
    }
}
int main() {
    const int M = 4096, N = 2048;
    float *C;
    cudaMalloc(&C, sizeof(float) * M * N);
    launch(M, N, C);
}
"#;

    #[test]
    fn branch_values_paths_and_the_caller() {
        let first = BRANCHES.find("k<BM, BN><<<").unwrap_or(0);
        let f = facts_at(BRANCHES, first);
        assert_eq!(f.value("BM"), Some("128"));
        assert_eq!(f.value("threads"), Some("256"), "every path agrees");
        assert!(f.unsure.contains("tile"), "{f:?}");
        assert_eq!(f.conditions, vec!["M >= 128 and N >= 128".to_string()]);
        assert_eq!(f.value("M"), Some("4096"), "bound from main's call");
        assert_eq!(f.value("N"), Some("2048"));
        assert_eq!(f.allocations.get("C").map(String::as_str), Some("33554432"));
        let second = BRANCHES.rfind("k<BM, BN><<<").unwrap_or(0);
        let g = facts_at(BRANCHES, second);
        assert_eq!(g.value("BM"), Some("64"));
        assert_eq!(g.conditions, vec!["!(M >= 128 and N >= 128)".to_string()]);
    }
}
