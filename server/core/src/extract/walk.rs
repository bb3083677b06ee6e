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

/// Like [`preorder`], with each node's ancestors up to `node` (outermost first; none for
/// `node` itself), known from the walk. `Node::parent` searches down from the root, and
/// the empty nodes of error recovery make that search exponential (seconds for a few
/// kilobytes of `*/`), so a walk that needs parents takes them from here.
pub fn preorder_with_ancestors<'t>(node: Node<'t>, mut visit: impl FnMut(Node<'t>, &[Node<'t>]) -> bool) {
    let mut ancestors: Vec<Node<'t>> = Vec::new();
    let mut cursor = node.walk();
    let mut descend = visit(cursor.node(), &ancestors);
    loop {
        if descend {
            let current = cursor.node();
            if cursor.goto_first_child() {
                ancestors.push(current);
                descend = visit(cursor.node(), &ancestors);
                continue;
            }
        }
        loop {
            if cursor.node() == node {
                return;
            }
            if cursor.goto_next_sibling() {
                descend = visit(cursor.node(), &ancestors);
                break;
            }
            if !cursor.goto_parent() {
                return;
            }
            ancestors.pop();
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernel::Language;
    use crate::source::SourceText;

    #[test]
    fn ancestors_from_the_walk_are_the_parents_tree_sitter_finds() {
        let src = SourceText::new(
            Language::Cuda,
            "__global__ void k(float* a, int n) { for (int i = 0; i < n; i++) { if (i) a[i] = a[i - 1] + 1; } }\n",
        );
        let root = src.tree().expect("tree").root_node();
        let mut visited = 0;
        preorder_with_ancestors(root, |n, ancestors| {
            assert_eq!(ancestors.last().copied(), n.parent());
            if let Some(p) = ancestors.last() {
                assert_eq!(ancestors[..ancestors.len() - 1].last().copied(), p.parent());
            }
            visited += 1;
            true
        });
        assert!(visited > 40);
    }
}
