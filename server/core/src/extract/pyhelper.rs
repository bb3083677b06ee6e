//! A helper function of the same file called for a tuple of settings
//! (`BLOCK, num_warps = calculate_settings(n_cols)`): each returned item as an expression of
//! the call's arguments, the helper's assignments substituted and its `if` ladders (and early
//! returns) folded into `cond ? a : b`, so the launch's environment evaluates it.

use super::pycall::{arguments, assignment};
use super::{node_text, python_parameters, squash, substitute, words};
use crate::source::SourceText;
use std::collections::BTreeMap;
use tree_sitter::Node;

/// Statements a helper's body may take to read (its branches walked once each).
const BUDGET: usize = 256;

/// The items `call` returns, as expressions of its arguments; None where the callee is no
/// function of the file or its body is more than assignments, `if`s and a return.
pub(super) fn returned(call: Node, src: &SourceText) -> Option<Vec<String>> {
    let f = call.child_by_field_name("function").filter(|f| f.kind() == "identifier")?;
    let name = node_text(f, src);
    let mut root = call;
    while let Some(p) = root.parent() {
        root = p;
    }
    let mut cursor = root.walk();
    let def = root.named_children(&mut cursor).find_map(|item| {
        let item = if item.kind() == "decorated_definition" { item.child_by_field_name("definition")? } else { item };
        (item.kind() == "function_definition"
            && item.child_by_field_name("name").is_some_and(|n| node_text(n, src) == name))
        .then_some(item)
    })?;
    let (positional, keywords) = arguments(call, src);
    let mut values = BTreeMap::new();
    for (i, (p, n)) in python_parameters(def).into_iter().enumerate() {
        let n = node_text(n, src).into_owned();
        let given = positional.get(i).or(keywords.get(&n)).copied().or_else(|| p.child_by_field_name("value"))?;
        values.insert(n, format!("({})", squash(&node_text(given, src))));
    }
    // Module constants (`MAX_FUSED_SIZE = 65536`) the helper compares with.
    for (k, v) in super::pycall::module(root, src).constants {
        values.entry(k).or_insert_with(|| format!("({v})"));
    }
    let body = def.child_by_field_name("body")?;
    let mut budget = BUDGET;
    run(&statements(body), &values, src, &mut budget)
}

fn statements(block: Node) -> Vec<Node> {
    let mut cursor = block.walk();
    block.named_children(&mut cursor).filter(|s| s.kind() != "comment").collect()
}

/// `text` with the names `values` holds replaced by their values.
fn put(text: &str, values: &BTreeMap<String, String>) -> String {
    let mut out = squash(text).replace(" and ", " & ").replace(" or ", " | ");
    let found: Vec<String> = words(&out).filter(|w| values.contains_key(*w)).map(str::to_string).collect();
    for w in found {
        out = substitute(&out, &w, &values[&w]);
    }
    out
}

/// What `stmts` return, run with `values`.
fn run(stmts: &[Node], values: &BTreeMap<String, String>, src: &SourceText, budget: &mut usize) -> Option<Vec<String>> {
    let mut values = values.clone();
    for (i, s) in stmts.iter().enumerate() {
        *budget = budget.checked_sub(1)?;
        match s.kind() {
            "expression_statement" => {
                let Some((left, right)) = assignment(*s) else { continue };
                match (left.kind(), right.kind()) {
                    ("identifier", _) => {
                        let v = format!("({})", put(&node_text(right, src), &values));
                        values.insert(node_text(left, src).into_owned(), v);
                    }
                    ("pattern_list" | "tuple_pattern", "expression_list" | "tuple") => {
                        let (mut lc, mut rc) = (left.walk(), right.walk());
                        let pairs: Vec<(Node, Node)> =
                            left.named_children(&mut lc).zip(right.named_children(&mut rc)).collect();
                        let new: Vec<(String, String)> = pairs
                            .iter()
                            .map(|(l, r)| {
                                (node_text(*l, src).into_owned(), format!("({})", put(&node_text(*r, src), &values)))
                            })
                            .collect();
                        values.extend(new);
                    }
                    _ => return None,
                }
            }
            "return_statement" => {
                let value = s.named_child(0)?;
                let items = match value.kind() {
                    "expression_list" | "tuple" => {
                        let mut c = value.walk();
                        value.named_children(&mut c).map(|v| put(&node_text(v, src), &values)).collect()
                    }
                    _ => vec![put(&node_text(value, src), &values)],
                };
                return Some(items);
            }
            "if_statement" => return branches(*s, &stmts[i + 1..], &values, src, budget),
            "pass_statement" | "raise_statement" | "assert_statement" => {}
            _ => return None,
        }
    }
    None
}

/// An `if`/`elif`/`else` followed by `rest`: each branch run with the rest after it, the
/// returns joined as `cond ? a : b`.
fn branches(
    s: Node,
    rest: &[Node],
    values: &BTreeMap<String, String>,
    src: &SourceText,
    budget: &mut usize,
) -> Option<Vec<String>> {
    let mut clauses: Vec<(Option<String>, Vec<Node>)> = Vec::new();
    let cond = s.child_by_field_name("condition")?;
    clauses.push((Some(put(&node_text(cond, src), values)), statements(s.child_by_field_name("consequence")?)));
    let mut cursor = s.walk();
    for alt in s.children_by_field_name("alternative", &mut cursor) {
        match alt.kind() {
            "elif_clause" => {
                let c = put(&node_text(alt.child_by_field_name("condition")?, src), values);
                clauses.push((Some(c), statements(alt.child_by_field_name("consequence")?)));
            }
            _ => clauses.push((None, statements(alt.child_by_field_name("body")?))),
        }
    }
    if clauses.last().is_some_and(|(c, _)| c.is_some()) {
        clauses.push((None, Vec::new()));
    }
    let mut joined: Option<Vec<String>> = None;
    for (cond, body) in clauses.into_iter().rev() {
        let mut all = body;
        all.extend_from_slice(rest);
        // A branch that only raises returns nothing: the others hold.
        let raises = all.first().is_some_and(|n| n.kind() == "raise_statement");
        let items = if raises { None } else { run(&all, values, src, budget) };
        joined = match (cond, items, joined) {
            (_, Some(items), None) => Some(items),
            (None, None, _) if !raises => return None,
            (Some(c), Some(items), Some(other)) if items.len() == other.len() => {
                Some(items.iter().zip(&other).map(|(a, b)| format!("(({c}) ? ({a}) : ({b}))")).collect())
            }
            (_, None, other) if raises => other,
            _ => return None,
        };
    }
    joined
}
