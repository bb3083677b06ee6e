//! Sizes one version of a program borrows from the version it is compared with. A
//! KernelBench `ModelNew` file has no `get_inputs()` (the harness runs it with the
//! reference problem's), a GPU MODE submission no `generate_input(…)` (the task's
//! reference makes the data): compared with a version that has them, both run on the
//! same inputs, so the sizes that version gives are this one's too.

use super::pycall::{assignment, callee_name, module};
use super::{node_text, walk};
use crate::kernel::Language;
use crate::source::SourceText;
use std::collections::BTreeSet;

/// The functions that say what a program runs on.
const SIZING: [&str; 3] = ["get_inputs", "get_init_inputs", "generate_input"];

/// `text` with what `other` says of the inputs appended (its `get_inputs()`,
/// `get_init_inputs()` and `generate_input(…)` that `text` lacks, the module constants they
/// use, and its module-level calls of them), where `text` (Python) has neither
/// `get_inputs` nor `generate_input` and `other` has one. `None`: nothing to borrow.
/// Appended at the end, so every offset of `text` stays where it was.
pub fn borrow_inputs(text: &str, other: &str) -> Option<String> {
    // Most pairs have nothing to borrow: parse neither version for them.
    if !["get_inputs", "generate_input"].iter().any(|f| other.contains(f)) {
        return None;
    }
    let mine = SourceText::new(Language::Triton, text);
    let theirs = SourceText::new(Language::Triton, other);
    let (mine_tree, their_tree) = (mine.tree()?, theirs.tree()?);
    let m = module(mine_tree.root_node(), &mine);
    if m.functions.contains_key("get_inputs") || m.functions.contains_key("generate_input") {
        return None;
    }
    let root = their_tree.root_node();
    let o = module(root, &theirs);
    let defs: Vec<&str> =
        SIZING.iter().copied().filter(|f| o.functions.contains_key(*f) && !m.functions.contains_key(*f)).collect();
    if !defs.iter().any(|f| *f != "get_init_inputs") {
        return None;
    }
    // Top-level statements of `other`, in order: which to take, by what they define and use.
    let mut cursor = root.walk();
    let items: Vec<_> = root.named_children(&mut cursor).collect();
    let defined = |item: tree_sitter::Node| -> Option<String> {
        let def = if item.kind() == "decorated_definition" { item.child_by_field_name("definition")? } else { item };
        let name = match def.kind() {
            "function_definition" | "class_definition" => def.child_by_field_name("name")?,
            _ => assignment(item)?.0,
        };
        (name.kind() == "identifier").then(|| node_text(name, &theirs).into_owned())
    };
    let mut take = vec![false; items.len()];
    let mut wanted: BTreeSet<String> = defs.iter().map(|f| f.to_string()).collect();
    // A module-level call of a sizing function (`data = generate_input(m=4096, …)`) says
    // which sizes run.
    for (i, item) in items.iter().enumerate() {
        let calls_sizing = !matches!(item.kind(), "function_definition" | "class_definition" | "decorated_definition")
            && contains_call(*item, &theirs, &defs);
        if calls_sizing {
            take[i] = true;
            uses(*item, &theirs, &mut wanted);
        }
    }
    // The sizing functions and what they use, transitively, where `text` does not define it.
    loop {
        let mut grew = false;
        for (i, item) in items.iter().enumerate() {
            if take[i] {
                continue;
            }
            let Some(name) = defined(*item) else { continue };
            let sizing = defs.contains(&name.as_str());
            let shared = m.functions.contains_key(&name) || m.assigns.contains_key(&name);
            if wanted.contains(&name) && (sizing || (!shared && !is_class_or_def(*item))) {
                take[i] = true;
                uses(*item, &theirs, &mut wanted);
                grew = true;
            }
        }
        if !grew {
            break;
        }
    }
    let mut out = text.to_string();
    out.push_str("\n\n# kforecast: the inputs of the version this one is compared with\n");
    for (item, _) in items.iter().zip(&take).filter(|(_, t)| **t) {
        out.push_str(&theirs.slice(item.start_byte(), item.end_byte()));
        out.push('\n');
    }
    Some(out)
}

fn is_class_or_def(item: tree_sitter::Node) -> bool {
    matches!(item.kind(), "function_definition" | "class_definition" | "decorated_definition")
}

/// Whether `node` calls one of `functions`.
fn contains_call(node: tree_sitter::Node, src: &SourceText, functions: &[&str]) -> bool {
    let mut found = false;
    walk::preorder(node, |n| {
        if found {
            return false;
        }
        if n.kind() == "call" && callee_name(n, src).is_some_and(|c| functions.contains(&c.as_ref())) {
            found = true;
        }
        true
    });
    found
}

/// Adds the identifiers `node` uses to `names`.
fn uses(node: tree_sitter::Node, src: &SourceText, names: &mut BTreeSet<String>) {
    walk::preorder(node, |n| {
        if n.kind() == "identifier" {
            names.insert(node_text(n, src).into_owned());
        }
        true
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    const PROBLEM: &str = "import torch\nimport torch.nn as nn\n\nclass Model(nn.Module):\n    \
        def forward(self, x):\n        return torch.softmax(x, dim=1)\n\nbatch_size = 4096\ndim = 16384\n\
        unused = 3\n\ndef get_inputs():\n    x = torch.rand(batch_size, dim)\n    return [x]\n\n\
        def get_init_inputs():\n    return []\n";

    const NEW: &str = "import torch\nimport torch.nn as nn\n\nclass ModelNew(nn.Module):\n    \
        def forward(self, x):\n        return softmax_cuda(x)\n";

    #[test]
    fn a_module_without_get_inputs_borrows_the_problems_and_its_sizes() {
        let text = borrow_inputs(NEW, PROBLEM).expect("borrowed");
        assert!(text.starts_with(NEW), "the version's own text stays where it was");
        assert!(text.contains("def get_inputs():") && text.contains("def get_init_inputs():"));
        assert!(text.contains("batch_size = 4096") && text.contains("dim = 16384"));
        assert!(!text.contains("unused = 3"), "only what the inputs use");
        assert!(!text.contains("class Model("), "never the other version's code");
    }

    #[test]
    fn a_module_with_its_own_inputs_or_a_partner_without_any_borrows_nothing() {
        assert!(borrow_inputs(PROBLEM, NEW).is_none());
        assert!(borrow_inputs(NEW, NEW).is_none());
        assert!(borrow_inputs(PROBLEM, PROBLEM).is_none());
    }

    #[test]
    fn a_constant_the_version_sets_itself_is_its_own() {
        let new = format!("{NEW}\nbatch_size = 16\n");
        let text = borrow_inputs(&new, PROBLEM).expect("borrowed");
        assert!(!text.contains("batch_size = 4096"), "its own batch_size wins");
        assert!(text.contains("dim = 16384"));
    }

    #[test]
    fn a_gpu_mode_submission_borrows_generate_input_and_the_call_that_sizes_it() {
        let reference = "import torch\n\ndef generate_input(m, n, seed):\n    \
            return torch.randn(m, n, device='cuda')\n\ndef ref_kernel(data):\n    return data.sum()\n\n\
            DATA = generate_input(m=4096, n=8192, seed=1)\n";
        let submission = "import torch\n\ndef custom_kernel(data):\n    return my_sum(data)\n";
        let text = borrow_inputs(submission, reference).expect("borrowed");
        assert!(text.contains("def generate_input(m, n, seed):"));
        assert!(text.contains("DATA = generate_input(m=4096, n=8192, seed=1)"));
        assert!(!text.contains("def ref_kernel"));
    }
}
