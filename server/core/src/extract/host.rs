//! What the host code around one CUDA launch says about the problem: the values names
//! hold at the launch (file constants, the launching function's locals on every path to
//! the launch, its parameters bound from the one call of it in the file), the buffers
//! allocated with `cudaMalloc` (their byte counts), and the conditions that guard the
//! launch (`if (M >= 128 and N >= 128)`).
//!
//! Read statement by statement, in order, up to the launch, by `statements.rs`'s reader
//! under its [`Merge::Agreed`] rule: a name set in the branches of an `if` keeps its value
//! where every path agrees and is unsure where they differ; a name set in a loop is unsure.
//!
//! `measure::spec` builds Verify's jobs from these facts and `search::knobs` keeps the
//! problem's sizes out of the knobs; the forecaster's environment may use them too.

use super::squash;
use super::statements::{allocation, Merge, Reader, State, Value};
use crate::kernel::Language;
use crate::source::parser_for;
use std::collections::{BTreeMap, BTreeSet};
use tree_sitter::Node;

/// Callers followed to bind a launching function's parameters (main → run → launch).
const MAX_CALLERS: usize = 3;

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

fn facts_in(text: &str, root: Node, at: usize, callers: usize) -> HostFacts {
    let reader = Reader { text, merge: Merge::Agreed };
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
            "declaration" => reader.declare(item, &mut st),
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
        reader.block(body, at, &mut st, 0);
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
    let args: Vec<String> = super::list_items(list).into_iter().map(|a| squash(slice(text, a))).collect();
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
