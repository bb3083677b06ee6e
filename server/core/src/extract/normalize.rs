//! Normalised token streams: what stays when comments, layout and local names go.

use super::walk;
use crate::hash::{ContentHash, Hasher};
use crate::source::SourceText;
use std::collections::{BTreeSet, HashMap, HashSet};
use tree_sitter::Node;

/// The normalised form of a definition.
#[derive(Clone, Debug)]
pub struct Normalized {
    /// Hash of the token stream with locals renamed by order of first use.
    pub hash: ContentHash,
    /// Every non-local identifier it mentions (for helper resolution).
    pub uses: BTreeSet<String>,
}

/// Tokens of `node` without comments or docstrings; identifiers in `locals` are
/// replaced by their order of first appearance, so renaming a local is not a change.
/// `renamable` says whether an `identifier` leaf (given with its parent) is a variable
/// reference (not a keyword-argument name or attribute).
pub fn normalize<'t>(
    node: Node<'t>,
    src: &SourceText,
    locals: &HashSet<String>,
    renamable: impl Fn(Node<'t>, Option<Node<'t>>) -> bool,
) -> Normalized {
    let mut hasher = Hasher::new();
    let mut renames: HashMap<String, usize> = HashMap::new();
    let mut uses = BTreeSet::new();
    walk::preorder_with_ancestors(node, |n, ancestors| {
        let kind = n.kind();
        if kind == "comment" || is_docstring(n) {
            return false;
        }
        if n.child_count() > 0 {
            return true;
        }
        let text = super::node_text(n, src);
        if kind == "identifier" && renamable(n, ancestors.last().copied()) {
            if locals.contains(text.as_ref()) {
                let next = renames.len();
                let index = *renames.entry(text.into_owned()).or_insert(next);
                hasher.str(&format!("${index}"));
                return false;
            }
            uses.insert(text.to_string());
        } else if kind == "identifier" || kind == "type_identifier" {
            uses.insert(text.to_string());
        } else if kind == "preproc_arg" {
            // `#pragma unroll UNROLL`: the names a directive's text mentions.
            uses.extend(super::names_in(&text).map(str::to_string));
        }
        hasher.str(&text);
        false
    });
    Normalized { hash: hasher.finish(), uses }
}

/// A Python string used as a statement (a docstring).
fn is_docstring(node: Node) -> bool {
    node.kind() == "expression_statement"
        && node.named_child_count() == 1
        && node.named_child(0).is_some_and(|c| c.kind() == "string")
}
