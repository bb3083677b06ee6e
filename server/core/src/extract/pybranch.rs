//! A Python assignment made in one branch of an `if` (`if BLOCK > 16384: BLOCK = 16384`):
//! the name's value after it is a conditional expression of its new and old values, not the
//! new value whatever the condition.

use super::{node_text, squash, substitute, SourceText};
use tree_sitter::Node;

/// Words that make a condition more than arithmetic (`x is None`, `a and b`): such a branch
/// is read as taken, as before.
const NOT_ARITHMETIC: [&str; 8] = ["and", "or", "not", "is", "in", "None", "lambda", "isinstance"];

/// `value`, the new value `name` is given by `assignment` inside the function `top`, as a
/// conditional of it and `old` where it lies in branches of `if` statements whose
/// conditions are arithmetic (`BLOCK > 16384 ? 16384 : BLOCK`, in C's form, which the size
/// evaluator reads); `value` unchanged otherwise.
pub(super) fn conditional(
    assignment: Node,
    top: Node,
    src: &SourceText,
    name: &str,
    value: String,
    old: &str,
) -> String {
    let old = format!("({old})");
    let condition = |n: Node| -> Option<String> {
        let text = squash(&node_text(n, src));
        let arithmetic = !super::words(&text).any(|w| NOT_ARITHMETIC.contains(&w));
        arithmetic.then(|| format!("({})", substitute(&text, name, &old)))
    };
    let mut value = value;
    let mut node = assignment;
    while let Some(parent) = node.parent() {
        if parent.id() == top.id() {
            break;
        }
        let branch = match parent.kind() {
            "if_statement" if parent.child_by_field_name("consequence").is_some_and(|c| c.id() == node.id()) => {
                Some(parent)
            }
            "elif_clause" | "else_clause" => parent.parent().filter(|p| p.kind() == "if_statement"),
            _ => None,
        };
        if let Some(statement) = branch {
            // The conditions of the branches before this one, each false, then its own.
            let mut before = Vec::new();
            let own = match parent.kind() {
                "if_statement" => parent.child_by_field_name("condition"),
                "elif_clause" => parent.child_by_field_name("condition"),
                _ => None,
            };
            let mut cursor = statement.walk();
            for clause in statement.children(&mut cursor) {
                if clause.id() == parent.id() || clause.id() == node.id() {
                    break;
                }
                if clause.kind() == "elif_clause" {
                    before.extend(clause.child_by_field_name("condition"));
                }
            }
            if parent.kind() != "if_statement" {
                before.insert(0, statement.child_by_field_name("condition").unwrap_or(statement));
            }
            let Some(own) = own.map(condition).unwrap_or(Some(String::new())) else { return value };
            let mut inner = if own.is_empty() { value.clone() } else { format!("{own} ? ({value}) : {old}") };
            for c in before.iter().rev() {
                let Some(c) = condition(*c) else { return value };
                inner = format!("{c} ? {old} : ({inner})");
            }
            value = inner;
        }
        node = parent;
    }
    value
}

/// Whether `assignment` (`name = name[0]`) takes an element of a sequence that an enclosing
/// `if isinstance(name, …)` found: a normalisation of an argument given as a tuple or a number.
pub(super) fn normalises(assignment: Node, top: Node, src: &SourceText, name: &str, value: &str) -> bool {
    let element = squash(value).strip_prefix(name).is_some_and(|rest| rest.starts_with('[') && rest.ends_with(']'));
    if !element {
        return false;
    }
    let check = format!("isinstance({name},");
    let mut node = assignment;
    while let Some(parent) = node.parent() {
        if parent.id() == top.id() {
            break;
        }
        if matches!(parent.kind(), "if_statement" | "elif_clause") {
            let tested = parent.child_by_field_name("condition").map(|c| squash(&node_text(c, src)).replace(' ', ""));
            if tested.is_some_and(|c| c.contains(&check)) {
                return true;
            }
        }
        node = parent;
    }
    false
}
