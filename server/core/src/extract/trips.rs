//! How many times a launch inside loops of its launching function runs: one trip-count
//! text per loop around it (see [`crate::kernel::LaunchSite::trips`]).

use super::{node_text, squash};
use crate::source::SourceText;
use tree_sitter::Node;

/// Trip-count texts of the loops between `launch` and `top` (its function), outermost
/// first; "" for a loop whose count is not written.
pub(crate) fn loop_trips(launch: Node, top: Node, src: &SourceText) -> Vec<String> {
    let mut out = Vec::new();
    let mut at = launch;
    while let Some(parent) = at.parent() {
        // A launch in a loop's header (its iterable, its condition) is not repeated by it.
        let in_body = parent.child_by_field_name("body").is_some_and(|b| b.id() == at.id());
        match parent.kind() {
            "for_statement" if in_body => out.push(loop_count(parent, src)),
            "for_range_loop" | "while_statement" | "do_statement" if in_body => out.push(String::new()),
            _ => {}
        }
        if parent.id() == top.id() || matches!(parent.kind(), "function_definition" | "lambda_expression") {
            break;
        }
        at = parent;
    }
    out.reverse();
    out
}

/// A `for` loop's trip count: `for (int i = A; i < B; i += S)` or `for _ in range(A, B, S)`.
fn loop_count(for_node: Node, src: &SourceText) -> String {
    let Some(body) = for_node.child_by_field_name("body") else { return String::new() };
    if let Some(right) = for_node.child_by_field_name("right") {
        return range_count(&squash(&node_text(right, src)));
    }
    let whole = node_text(for_node, src);
    let header_len = body.start_byte().saturating_sub(for_node.start_byte());
    let header = whole.get(..header_len).unwrap_or_default();
    c_for_count(header)
}

/// `range(B)`, `range(A, B)`, `range(A, B, S)`; anything else (a list of tensors) is "".
fn range_count(iter: &str) -> String {
    let Some(args) = iter.strip_prefix("range(").and_then(|r| r.strip_suffix(')')) else { return String::new() };
    let Some(parts) = crate::features::expr::components(&format!("({args},)")) else { return String::new() };
    match parts.as_slice() {
        [b] => format!("({b})"),
        [a, b] => format!("(({b}) - ({a}))"),
        [a, b, s] => format!("(({b}) - ({a}) + ({s}) - 1) / ({s})"),
        _ => String::new(),
    }
}

/// `for (int i = A; i < B; ++i)` (or `<=`, `!=`, `i += S`) from the loop's header text.
fn c_for_count(header: &str) -> String {
    let Some(open) = header.find('(') else { return String::new() };
    let Some(close) = header.rfind(')') else { return String::new() };
    let Some(inner) = header.get(open + 1..close) else { return String::new() };
    let parts: Vec<&str> = inner.split(';').map(str::trim).collect();
    let [init, cond, update] = parts.as_slice() else { return String::new() };
    let Some((var_side, start)) = init.split_once('=') else { return String::new() };
    let Some(var) = var_side.split_whitespace().last() else { return String::new() };
    let Some(rest) = cond.strip_prefix(var) else { return String::new() };
    let rest = rest.trim_start();
    let compact: String = update.chars().filter(|c| !c.is_whitespace()).collect();
    if let Some(count) = geometric_count(var, start.trim(), rest, &compact) {
        return count;
    }
    let (inclusive, bound) = if let Some(b) = rest.strip_prefix("<=") {
        (true, b)
    } else if let Some(b) = rest.strip_prefix("!=").or_else(|| rest.strip_prefix('<')) {
        (false, b)
    } else {
        return String::new();
    };
    let step = if compact == format!("++{var}") || compact == format!("{var}++") {
        "1".to_string()
    } else if let Some(s) = compact.strip_prefix(&format!("{var}+=")) {
        s.to_string()
    } else {
        return String::new();
    };
    let (start, bound) = (start.trim(), bound.trim());
    let span = if inclusive { format!("({bound}) - ({start}) + 1") } else { format!("({bound}) - ({start})") };
    match step.as_str() {
        "1" => format!("({span})"),
        s => format!("(({span}) + ({s}) - 1) / ({s})"),
    }
}

/// A loop whose variable grows or shrinks by a factor: `for (s = 1; s < n; s *= 2)` (a
/// pass per doubling: log2 n) or `for (s = n; s > 0; s >>= 1)` (log2 n + 1); `rest` is the
/// condition after the variable, `update` the update without spaces.
fn geometric_count(var: &str, start: &str, rest: &str, update: &str) -> Option<String> {
    let log_factor = |op: &str, shift: &str| -> Option<String> {
        if let Some(k) = update.strip_prefix(&format!("{var}{op}")) {
            return Some(format!("log2({k})"));
        }
        update.strip_prefix(&format!("{var}{shift}")).map(|j| format!("({j})"))
    };
    if let Some(bound) = rest.strip_prefix('<').filter(|b| !b.starts_with('=')) {
        let per = log_factor("*=", "<<=")?;
        return Some(format!("cdiv(log2(({}) / ({start})), {per})", bound.trim()));
    }
    let bound = rest.strip_prefix('>').filter(|b| !b.starts_with('='))?.trim();
    let per = log_factor("/=", ">>=")?;
    Some(match bound {
        "0" => format!("(cdiv(log2({start}), {per}) + 1)"),
        b => format!("cdiv(log2(({start}) / ({b})), {per})"),
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn loop_headers_give_their_trip_counts() {
        assert_eq!(super::c_for_count("for (int pass = 0; pass < passes; ++pass) "), "((passes) - (0))");
        assert_eq!(super::c_for_count("for (int i = 1; i <= n; i += 2)"), "(((n) - (1) + 1) + (2) - 1) / (2)");
        assert_eq!(super::c_for_count("for (int s = n; s > 0; s >>= 1)"), "(cdiv(log2(n), (1)) + 1)");
        assert_eq!(
            super::c_for_count("for (int stride = 1; stride < size; stride *= 2)"),
            "cdiv(log2((size) / (1)), log2(2))"
        );
        assert_eq!(super::c_for_count("for (int s = n; s >= 1; s /= 2)"), "");
        assert_eq!(super::range_count("range(steps)"), "(steps)");
        assert_eq!(super::range_count("range(1, n)"), "((n) - (1))");
        assert_eq!(super::range_count("zip(ema, params)"), "");
    }
}
