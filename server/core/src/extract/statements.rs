//! One reader of a host function's statements, in order, for both readers of host code:
//! `host.rs` (Verify's facts at a launch: the values names hold on every path) and
//! `callers.rs` (what a shape helper leaves in its reference parameters, for the
//! forecaster). They differ only in their [`Merge`] rule; how statements are read is
//! shared:
//! - a declaration defines each of its declarators (`const int M = 8192, N = 8192;`,
//!   `dim3 block(32, 8);` as `dim3(32, 8)`, `float *A;` without a value, `int v[] = {…}`
//!   without one);
//! - an assignment (`=`, a compound `+=`) sets a name already declared, an increment
//!   (`i++`) makes it unsure;
//! - an `if`'s branches are read apart and merged by the rule;
//! - a name set in a loop or a `switch` is unsure (it may run any number of times);
//! - a block's own names end with it;
//! - `cudaMalloc(&A, bytes)` records `A`'s byte count;
//! - nesting deeper than [`MAX_DEPTH`] is not followed: what it assigns is unsure (input
//!   depth never recurses unbounded).
//!
//! Reading stops at a byte offset (a launch), recording the conditions of the `if`s it
//! is inside; `usize::MAX` reads a whole body.

use super::walk;
use crate::source::SourceText;
use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet};
use tree_sitter::Node;

/// Statements nested deeper than this are not followed.
const MAX_DEPTH: usize = 48;
/// Under [`Merge::Ternary`], a value's text longer than this is not kept (unknown).
pub(super) const MAX_TEXT: usize = 2000;

/// A name's value where reading is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Value {
    /// The same text on every path (evaluate it with the other values).
    Known(String),
    /// Set differently on different paths, or in a loop.
    Unsure,
    /// Declared without a value, or a parameter no call binds.
    Unknown,
}

/// How the reader merges the paths of an `if`, and how it writes a value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Merge {
    /// Verify's (`host.rs`): a value as written (an assignment's own name replaced by its
    /// old value); after an `if`, a name keeps its value where both paths agree and is
    /// [`Value::Unsure`] where they differ.
    Agreed,
    /// A shape helper's (`callers.rs`): a value with the names it uses written out (in
    /// the function's parameters); after an `if`, a name set differently in its branches
    /// is `((cond) ? (a) : (b))`, and a branch that reports an error (`printf`, `exit`,
    /// `throw`) is the rare path and is not followed.
    Ternary,
}

/// The state of the names while reading statements.
#[derive(Clone, Default)]
pub(super) struct State {
    pub values: BTreeMap<String, Value>,
    /// `cudaMalloc(&A, bytes)`: `A` → the byte count's text.
    pub allocations: BTreeMap<String, String>,
    /// Conditions of the `if`s around the offset read up to.
    pub conditions: Vec<String>,
}

/// A text whose nodes the reader reads: a whole file (`str`) or an item's [`SourceText`].
pub(super) trait Text {
    fn of(&self, n: Node) -> Cow<'_, str>;
}

impl Text for str {
    fn of(&self, n: Node) -> Cow<'_, str> {
        Cow::Borrowed(self.get(n.byte_range()).unwrap_or(""))
    }
}

impl Text for SourceText {
    fn of(&self, n: Node) -> Cow<'_, str> {
        super::node_text(n, self)
    }
}

/// Reads statements of `text` with a merge rule.
pub(super) struct Reader<'t, T: Text + ?Sized> {
    pub text: &'t T,
    pub merge: Merge,
}

impl<T: Text + ?Sized> Reader<'_, T> {
    fn squashed(&self, n: Node) -> String {
        super::squash(&self.text.of(n))
    }

    /// Reads a compound statement's statements up to `at`; true once `at` is reached.
    pub fn block(&self, node: Node, at: usize, st: &mut State, depth: usize) -> bool {
        if node.kind() != "compound_statement" {
            return self.statement(node, at, st, depth);
        }
        let outer: BTreeSet<String> = st.values.keys().cloned().collect();
        let mut c = node.walk();
        let mut reached = false;
        for s in node.named_children(&mut c) {
            if s.start_byte() > at {
                break;
            }
            if self.statement(s, at, st, depth + 1) {
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

    /// Reads one statement; true if it holds `at` (read up to it).
    fn statement(&self, s: Node, at: usize, st: &mut State, depth: usize) -> bool {
        let holds = s.start_byte() <= at && at < s.end_byte();
        if depth > MAX_DEPTH {
            if !holds {
                self.unsure_assigned(s, st);
            }
            return holds;
        }
        match s.kind() {
            "declaration" => {
                self.declare(s, st);
                holds
            }
            "compound_statement" => self.block(s, at, st, depth),
            "if_statement" => self.if_statement(s, at, holds, st, depth),
            "for_statement" | "while_statement" | "do_statement" | "for_range_loop" | "switch_statement" => {
                self.unsure_assigned(s, st);
                if holds {
                    if let Some(body) = s.child_by_field_name("body") {
                        // The loop's own variables are unsure inside it.
                        let mut inner = st.clone();
                        if let Some(init) = s.child_by_field_name("initializer") {
                            self.declare(init, &mut inner);
                        }
                        let loop_vars: Vec<String> =
                            inner.values.keys().filter(|k| !st.values.contains_key(*k)).cloned().collect();
                        for v in loop_vars {
                            inner.values.insert(v, Value::Unsure);
                        }
                        *st = inner;
                        return self.block(body, at, st, depth + 1);
                    }
                }
                holds
            }
            _ => {
                if holds {
                    return true;
                }
                self.effects(s, st);
                false
            }
        }
    }

    fn if_statement(&self, s: Node, at: usize, holds: bool, st: &mut State, depth: usize) -> bool {
        let cond = s.child_by_field_name("condition").map(|c| {
            let t = self.squashed(c);
            t.strip_prefix('(').and_then(|t| t.strip_suffix(')')).map(str::to_string).unwrap_or(t)
        });
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
            st.conditions.push(cond.unwrap_or_default());
            return cons.is_some_and(|n| self.block(n, at, st, depth + 1));
        }
        if inside(alt) {
            st.conditions.push(format!("!({})", cond.unwrap_or_default()));
            return alt.is_some_and(|n| self.block(n, at, st, depth + 1));
        }
        if holds {
            return true;
        }
        let cold = |n: Option<Node>| self.merge == Merge::Ternary && n.is_some_and(|n| reports_error(n, self.text));
        let (cold_then, cold_else) = (cold(cons), cold(alt));
        let mut then = st.clone();
        if let Some(n) = cons.filter(|_| !cold_then) {
            self.block(n, usize::MAX, &mut then, depth + 1);
        }
        let mut other = st.clone();
        if let Some(n) = alt.filter(|_| !cold_else) {
            self.block(n, usize::MAX, &mut other, depth + 1);
        }
        // The error path is the rare one: the other path's values hold after the `if`.
        if cold_then && !cold_else {
            *st = other;
            return false;
        }
        if cold_else && !cold_then {
            *st = then;
            return false;
        }
        let cond = match self.merge {
            Merge::Agreed => None,
            Merge::Ternary => cond.and_then(|c| close(&st.values, &c)),
        };
        for (k, v) in st.values.iter_mut() {
            let (a, b) = (then.values.get(k), other.values.get(k));
            *v = match (self.merge, a, b, &cond) {
                (Merge::Agreed, Some(a), Some(b), _) if a == b => a.clone(),
                (Merge::Ternary, Some(Value::Known(a)), Some(Value::Known(b)), _) if a == b => Value::Known(a.clone()),
                (Merge::Ternary, Some(Value::Known(a)), Some(Value::Known(b)), Some(c)) => {
                    let t = format!("(({c}) ? ({a}) : ({b}))");
                    if t.len() <= MAX_TEXT {
                        Value::Known(t)
                    } else {
                        Value::Unknown
                    }
                }
                (Merge::Agreed, _, _, _) => Value::Unsure,
                (Merge::Ternary, _, _, _) => Value::Unknown,
            };
        }
        for (k, v) in then.allocations.into_iter().chain(other.allocations) {
            st.allocations.entry(k).or_insert(v);
        }
        false
    }

    /// Every name assigned under `s` becomes unsure (a loop may run any number of times).
    fn unsure_assigned(&self, s: Node, st: &mut State) {
        walk::preorder(s, |n| {
            if matches!(n.kind(), "assignment_expression" | "update_expression") {
                let target = n.child_by_field_name("left").or_else(|| n.child_by_field_name("argument"));
                if let Some(v) = target.and_then(|t| st.values.get_mut(self.text.of(t).trim())) {
                    *v = Value::Unsure;
                }
            }
            if n.kind() == "call_expression" {
                if let Some((var, bytes)) = allocation(self.text, n) {
                    st.allocations.entry(var).or_insert(bytes);
                }
            }
            true
        });
    }

    /// Assignments and allocations in an expression statement.
    fn effects(&self, s: Node, st: &mut State) {
        walk::preorder(s, |n| {
            match n.kind() {
                "assignment_expression" => {
                    let (Some(left), Some(right)) = (n.child_by_field_name("left"), n.child_by_field_name("right"))
                    else {
                        return true;
                    };
                    let name = self.text.of(left).trim().to_string();
                    let op = n.child_by_field_name("operator").map(|o| self.text.of(o).into_owned());
                    let right = self.squashed(right);
                    let Some(old) = st.values.get(&name) else { return true };
                    // `=` → "", `+=` → "+"; `None` for an operator written as a word (`or_eq`).
                    let bin = op.as_deref().unwrap_or("=").strip_suffix('=');
                    let new = self.assigned(&st.values, &name, old, bin, right);
                    st.values.insert(name, new);
                }
                "update_expression" => {
                    if let Some(v) =
                        n.child_by_field_name("argument").and_then(|a| st.values.get_mut(self.text.of(a).trim()))
                    {
                        *v = Value::Unsure;
                    }
                }
                "call_expression" => {
                    if let Some((var, bytes)) = allocation(self.text, n) {
                        st.allocations.insert(var, bytes);
                    }
                }
                _ => {}
            }
            true
        });
    }

    /// The value `name` (now `old`) has after `name bin= right`.
    fn assigned(
        &self,
        values: &BTreeMap<String, Value>,
        name: &str,
        old: &Value,
        bin: Option<&str>,
        right: String,
    ) -> Value {
        match self.merge {
            Merge::Agreed => match (bin, old) {
                (Some(""), Value::Known(old)) => Value::Known(super::substitute(&right, name, &format!("({old})"))),
                (Some(""), _) if !super::words(&right).any(|w| w == name) => Value::Known(right),
                (Some(bin), Value::Known(old)) if !bin.is_empty() => Value::Known(format!("({old}) {bin} ({right})")),
                _ => Value::Unsure,
            },
            Merge::Ternary => {
                let right = close(values, &right);
                let value = match (bin, right) {
                    (Some(""), r) => r,
                    (Some(bin), Some(r)) => match old {
                        Value::Known(old) => Some(format!("({old}) {bin} ({r})")),
                        _ => None,
                    },
                    _ => None,
                };
                value.filter(|v| v.len() <= MAX_TEXT).map_or(Value::Unknown, Value::Known)
            }
        }
    }

    /// The value a declarator's text gives its name.
    fn initial(&self, values: &BTreeMap<String, Value>, text: String) -> Value {
        match self.merge {
            Merge::Agreed => Value::Known(text),
            Merge::Ternary => close(values, &text).map_or(Value::Unknown, Value::Known),
        }
    }

    /// `const int M = 8192, N = 8192;`, `dim3 block(32, 8);`, `float *A;`: each declarator.
    pub fn declare(&self, decl: Node, st: &mut State) {
        let ty = decl.child_by_field_name("type").map(|t| self.text.of(t).into_owned()).unwrap_or_default();
        let mut c = decl.walk();
        for d in decl.children_by_field_name("declarator", &mut c) {
            let (name, value) = match d.kind() {
                "init_declarator" => (d.child_by_field_name("declarator"), d.child_by_field_name("value")),
                // `dim3 block(32, 8);` parses as a function declarator (C++'s vexing parse).
                "function_declarator" => (d.child_by_field_name("declarator"), d.child_by_field_name("parameters")),
                _ => (Some(d), None),
            };
            let Some(name) = name.and_then(super::declarator_name) else { continue };
            let value = match value {
                Some(v) if matches!(v.kind(), "argument_list" | "parameter_list") => {
                    self.initial(&st.values, format!("{ty}{}", self.squashed(v)))
                }
                // `int n{1024};`, `dim3 block{32, 8};`
                Some(v) if v.kind() == "initializer_list" => match super::brace_value(&ty, &self.squashed(v)) {
                    Some(value) => self.initial(&st.values, value),
                    None => Value::Unknown,
                },
                Some(v) => self.initial(&st.values, self.squashed(v)),
                None => Value::Unknown,
            };
            st.values.insert(self.text.of(name).into_owned(), value);
            if let Some(v) = d.child_by_field_name("value").filter(|v| v.kind() == "call_expression") {
                if let Some((var, bytes)) = allocation(self.text, v) {
                    st.allocations.insert(var, bytes);
                }
            }
        }
    }
}

/// `text` with the names it uses written out in their values (a name whose value is
/// itself stays); `None` if it uses one without a known value, or grows past [`MAX_TEXT`].
fn close(values: &BTreeMap<String, Value>, text: &str) -> Option<String> {
    let mut unknown = false;
    let out = replace_words(text, |w| match values.get(w) {
        Some(Value::Known(v)) if v == w => None,
        Some(Value::Known(v)) => Some(format!("({v})")),
        Some(_) => {
            unknown = true;
            None
        }
        None => None,
    });
    (!unknown && out.len() <= MAX_TEXT).then_some(out)
}

/// `cudaMalloc(&A, bytes)`, `cudaMalloc((void**)&A, bytes)`, `cudaMallocManaged(&A, n)`:
/// (`A`, bytes text).
pub(super) fn allocation<T: Text + ?Sized>(text: &T, call: Node) -> Option<(String, String)> {
    let f = call.child_by_field_name("function")?;
    let name = text.of(f);
    if !matches!(name.trim(), "cudaMalloc" | "cudaMallocManaged" | "cudaMallocAsync") {
        return None;
    }
    let list = call.child_by_field_name("arguments")?;
    let args = super::list_items(list);
    let (ptr, bytes) = (args.first()?, args.get(1)?);
    let p = text.of(*ptr);
    let amp = p.rfind('&')?;
    let var = p[amp + 1..].trim().trim_end_matches(')').trim();
    (!var.is_empty() && var.chars().all(|c| c.is_alphanumeric() || c == '_'))
        .then(|| (var.to_string(), super::squash(&text.of(*bytes))))
}

/// Whether a branch reports an error: it prints, exits, aborts or throws.
fn reports_error<T: Text + ?Sized>(n: Node, text: &T) -> bool {
    let mut found = false;
    walk::preorder(n, |c| {
        if found {
            return false;
        }
        found = c.kind() == "throw_statement"
            || c.kind() == "call_expression"
                && c.child_by_field_name("function").is_some_and(|f| {
                    matches!(
                        text.of(f).trim(),
                        "printf" | "fprintf" | "puts" | "perror" | "exit" | "abort" | "std::abort" | "std::exit"
                    )
                });
        !found
    });
    found
}

/// `text` with each whole name (not a member `a.b`'s parts, not a number) that `with`
/// maps replaced, all at once.
pub(super) fn replace_words(text: &str, mut with: impl FnMut(&str) -> Option<String>) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c.is_alphabetic() || c == '_' {
            let start = i;
            while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            let word: String = chars[start..i].iter().collect();
            let member = start > 0 && matches!(chars[start - 1], '.' | '>')
                || chars.get(i).is_some_and(|c| *c == '.' || *c == '(')
                || chars.get(i..i + 2).is_some_and(|s| s == ['-', '>'] || s == [':', ':']);
            match (!member).then(|| with(&word)).flatten() {
                Some(r) => out.push_str(&r),
                None => out.push_str(&word),
            }
        } else if c.is_ascii_digit() {
            while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '.' || chars[i] == '_') {
                out.push(chars[i]);
                i += 1;
            }
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernel::Language;

    const SHAPE: &str = r#"
void shape(int n, int &blocks, int &threads) {
    int t = 256;
    if (n < 1024) t = 128;
    if (n < 0) { printf("bad size\n"); exit(1); }
    blocks = (n + t - 1) / t;
    blocks += 1;
    threads = t;
}
"#;

    /// Reads `SHAPE`'s body with `merge`, its parameters starting as `param`.
    fn read(merge: Merge, param: impl Fn(&str) -> Value) -> State {
        let tree = crate::source::parse_snippet(Language::Cuda, SHAPE).expect("parses");
        let def = tree.root_node().named_child(0).expect("the function");
        let body = def.child_by_field_name("body").expect("a body");
        let values = ["n", "blocks", "threads"].iter().map(|p| (p.to_string(), param(p))).collect();
        let mut st = State { values, ..State::default() };
        Reader { text: SHAPE, merge }.block(body, usize::MAX, &mut st, 0);
        st
    }

    #[test]
    fn both_rules_read_the_same_statements_and_merge_an_if_their_own_way() {
        let agreed = read(Merge::Agreed, |_| Value::Unknown);
        assert_eq!(agreed.values.get("threads"), Some(&Value::Known("t".into())), "as written");
        assert_eq!(agreed.values.get("blocks"), Some(&Value::Known("((n + t - 1) / t) + (1)".into())));
        assert!(!agreed.values.contains_key("t"), "the body's own names end with it");
        let ternary = read(Merge::Ternary, |p| Value::Known(p.into()));
        let t = "((n < 1024) ? (128) : (256))";
        assert_eq!(ternary.values.get("threads"), Some(&Value::Known(format!("({t})"))), "the error branch is skipped");
        assert_eq!(ternary.values.get("blocks"), Some(&Value::Known(format!("((n + ({t}) - 1) / ({t})) + (1)"))));
    }
}
