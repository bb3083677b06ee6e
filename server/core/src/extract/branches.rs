//! The branches of its launching function a launch lies in (see
//! [`crate::kernel::LaunchSite::taken`]): an `if`'s or an `else`'s (C++ and Python, with
//! Python's `elif`s), a `switch`'s `case`, and the `if (…) { …; return; }` before it that
//! it runs only past. Of `if (n < T) small<<<…>>>(…); else big<<<…>>>(…);` one launch runs.

use super::{node_text, squash};
use crate::kernel::Branch;
use crate::source::SourceText;
use tree_sitter::Node;

/// The branches between `launch` and `top` (its function), outermost first.
pub(crate) fn branches(launch: Node, top: Node, src: &SourceText) -> Vec<Branch> {
    let mut out = Vec::new();
    let mut at = launch;
    // C++'s `(n < T)` (its parentheses included) or Python's `n < T`.
    let condition = |n: Node| -> Option<String> {
        Some(squash(&node_text(n.child_by_field_name("condition")?, src))).filter(|t| !t.is_empty())
    };
    let branch = |condition: String, holds: bool, if_unknown: bool| Branch { condition, holds, if_unknown };
    while let Some(parent) = at.parent() {
        if parent.id() == top.id() || matches!(parent.kind(), "function_definition" | "lambda_expression") {
            break;
        }
        let field_is = |p: Node, field: &str| p.child_by_field_name(field).is_some_and(|c| c.id() == at.id());
        match parent.kind() {
            "if_statement" if field_is(parent, "consequence") => {
                out.extend(condition(parent).map(|c| branch(c, true, true)));
            }
            // An older C++ grammar's `else` statement, without a clause around it.
            "if_statement"
                if field_is(parent, "alternative") && !matches!(at.kind(), "else_clause" | "elif_clause") =>
            {
                out.extend(condition(parent).map(|c| branch(c, false, false)));
            }
            "else_clause" | "elif_clause" => {
                if let Some(statement) = parent.parent().filter(|p| p.kind() == "if_statement") {
                    // Every branch written before this one is not taken, then its own is.
                    let mut cursor = statement.walk();
                    for clause in statement.children(&mut cursor) {
                        if clause.id() == parent.id() {
                            break;
                        }
                        if clause.kind() == "elif_clause" {
                            out.extend(condition(clause).map(|c| branch(c, false, false)));
                        }
                    }
                    out.extend(condition(statement).map(|c| branch(c, false, false)));
                    if parent.kind() == "elif_clause" {
                        out.extend(condition(parent).map(|c| branch(c, true, true)));
                    }
                }
            }
            "case_statement" => out.extend(case(parent, src)),
            "compound_statement" | "block" => out.extend(early_returns(parent, at, &condition)),
            _ => {}
        }
        at = parent;
    }
    out.reverse();
    out
}

/// `case 2: k<<<…>>>(…);` in `switch (mode)`: runs where `mode == 2` (where the variable
/// has no value, every case counts, as a switch over a block size's instances is picked
/// elsewhere); `default:` where no case matches.
fn case(case: Node, src: &SourceText) -> Vec<Branch> {
    let Some(switch) = case.parent().and_then(|b| b.parent()).filter(|s| s.kind() == "switch_statement") else {
        return Vec::new();
    };
    let Some(variable) = switch.child_by_field_name("condition").map(|c| squash(&node_text(c, src))) else {
        return Vec::new();
    };
    let equals = |value: Node| format!("({variable}) == ({})", squash(&node_text(value, src)));
    match case.child_by_field_name("value") {
        Some(value) => vec![Branch { condition: equals(value), holds: true, if_unknown: true }],
        None => {
            let Some(body) = switch.child_by_field_name("body") else { return Vec::new() };
            let mut cursor = body.walk();
            let values: Vec<Node> = body
                .named_children(&mut cursor)
                .filter(|c| c.kind() == "case_statement")
                .filter_map(|c| c.child_by_field_name("value"))
                .collect();
            values.into_iter().map(|v| Branch { condition: equals(v), holds: false, if_unknown: true }).collect()
        }
    }
}

/// `if (n == 0) return;` (or `{ small<<<…>>>(…); return; }`) before `at` in `block`: `at`
/// runs only where its condition is false.
fn early_returns(block: Node, at: Node, condition: &dyn Fn(Node) -> Option<String>) -> Vec<Branch> {
    let mut out = Vec::new();
    let mut cursor = block.walk();
    for statement in block.named_children(&mut cursor) {
        if statement.id() == at.id() || statement.start_byte() >= at.start_byte() {
            break;
        }
        let returns = statement.kind() == "if_statement"
            && statement.child_by_field_name("alternative").is_none()
            && statement.child_by_field_name("consequence").is_some_and(ends_in_return);
        if returns {
            out.extend(condition(statement).map(|c| Branch { condition: c, holds: false, if_unknown: true }));
        }
    }
    // Outermost first once the whole list is reversed.
    out.reverse();
    out
}

/// A statement that is a `return`, or a block whose last statement is one.
fn ends_in_return(statement: Node) -> bool {
    if statement.kind() == "return_statement" {
        return true;
    }
    let mut cursor = statement.walk();
    let last = statement.named_children(&mut cursor).filter(|c| c.kind() != "comment").last();
    last.is_some_and(|l| l.kind() == "return_statement")
}
