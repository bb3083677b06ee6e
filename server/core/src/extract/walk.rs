//! Iterative tree walks (no recursion, so deeply nested input cannot overflow the stack).

use crate::kernel::TextRange;
use tree_sitter::Node;

/// Visits `node` and its descendants in document order. `visit` returns whether to
/// descend into the node's children.
pub fn preorder<'t>(node: Node<'t>, mut visit: impl FnMut(Node<'t>) -> bool) {
    let mut cursor = node.walk();
    let mut descend = visit(cursor.node());
    loop {
        if descend && cursor.goto_first_child() {
            descend = visit(cursor.node());
            continue;
        }
        loop {
            if cursor.node() == node {
                return;
            }
            if cursor.goto_next_sibling() {
                descend = visit(cursor.node());
                break;
            }
            if !cursor.goto_parent() {
                return;
            }
        }
    }
}

/// Ranges of ERROR and MISSING nodes under `node`, at most `limit`.
pub fn errors(node: Node, out: &mut Vec<TextRange>, limit: usize) {
    preorder(node, |n| {
        if out.len() >= limit {
            return false;
        }
        if n.is_error() || n.is_missing() {
            out.push(TextRange::new(n.start_byte(), n.end_byte()));
            return false;
        }
        n.has_error()
    });
}
