//! A PyTorch-only program: a module (`class Model(nn.Module)`) whose `forward` runs torch
//! operations and no kernel of its own, read as one [`Kernel`] flagged `torch_program` whose
//! launch holds `forward`'s assignments (its `return` too), with the shapes `get_inputs()`
//! gives its tensors; a program forecast costs it as the torch operations it runs.

use super::pycall::{function_locals, module};
use super::{node_range, node_text, python_parameters, squash, walk};
use crate::hash::ContentHash;
use crate::kernel::{Kernel, Language, LaunchSite};
use crate::source::SourceText;

/// The torch program of a Python text, if a class of it has a `forward` method.
pub fn torch_program(text: &str) -> Option<Kernel> {
    let src = SourceText::new(Language::Triton, text);
    let tree = src.tree()?;
    let root = tree.root_node();
    let mut forward = None;
    walk::preorder(root, |n| {
        if forward.is_some() {
            return false;
        }
        if n.kind() == "function_definition"
            && n.child_by_field_name("name").is_some_and(|m| node_text(m, &src) == "forward")
            && n.parent().and_then(|b| b.parent()).is_some_and(|c| c.kind() == "class_definition")
        {
            forward = Some(n);
            return false;
        }
        true
    });
    let def = forward?;
    let class = def.parent().and_then(|b| b.parent())?;
    let m = module(root, &src);
    let mut locals = m.constants.clone();
    // `__init__`'s attributes (`self.dim = dim`) first.
    walk::preorder(class, |n| {
        if n.kind() == "function_definition" && n != def {
            let name = n.child_by_field_name("name").map(|m| node_text(m, &src).into_owned()).unwrap_or_default();
            if name == "__init__" {
                walk::preorder(n, |a| {
                    if let Some((l, r)) = super::pycall::assignment(a).filter(|_| a.kind() == "assignment") {
                        if l.kind() == "attribute" {
                            locals.insert(squash(&node_text(l, &src)), squash(&node_text(r, &src)));
                        }
                    }
                    true
                });
            }
            return false;
        }
        true
    });
    locals.extend(function_locals(def, &src, def.end_byte()));
    // `return torch.softmax(x, dim=1)`: what is returned runs too.
    walk::preorder(def, |n| {
        if n.kind() == "return_statement" {
            if let Some(v) = n.named_child(0) {
                locals.insert("return".into(), squash(&node_text(v, &src)));
            }
        }
        !matches!(n.kind(), "function_definition" | "class_definition" | "lambda") || n == def
    });
    let host_params: Vec<String> = python_parameters(def)
        .into_iter()
        .map(|(_, n)| node_text(n, &src).into_owned())
        .filter(|p| p != "self")
        .collect();
    let mut site = LaunchSite {
        range: node_range(def),
        locals,
        host_params,
        host_name: "forward".into(),
        ..LaunchSite::default()
    };
    super::pyshapes::bind_site(root, &src, &mut site);
    let source = node_text(def, &src).into_owned();
    let name = def.child_by_field_name("name")?;
    let mut k = Kernel {
        name: "forward".into(),
        language: Language::Triton,
        range: node_range(def),
        name_range: node_range(name),
        signature_end: def.child_by_field_name("parameters").map_or(def.start_byte(), |p| p.end_byte()),
        raw_hash: ContentHash::of(source.as_bytes()),
        normalized_hash: ContentHash::of(squash(&source).as_bytes()),
        source: source.into(),
        identity: ContentHash::default(),
        helpers: Vec::new(),
        launch_bounds: Vec::new(),
        constexpr_params: Vec::new(),
        launches: vec![site],
        autotune: Vec::new(),
        has_errors: def.has_error(),
        declared: Default::default(),
        companions: Vec::new(),
        torch_program: true,
    };
    k.identity = k.compute_identity();
    Some(k)
}
