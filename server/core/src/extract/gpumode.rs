//! A GPU MODE-style program: `custom_kernel(data)` unpacks a tuple (`x, w = data`) that
//! `generate_input(M, N, seed)` makes (`x = torch.randn(M, N, …)`, `return x, w`), the
//! sizes given by a call of `generate_input` in the file or its parameters' defaults.
//! Read as text, so that Verify can call the wrapper with tensors of those shapes.

use super::pycall::{arguments, assignment, callee_name, module};
use super::{node_text, squash, walk};
use crate::kernel::Language;
use crate::source::SourceText;
use std::collections::BTreeMap;
use tree_sitter::Node;

/// What the file says about calling `wrapper(data)`.
#[derive(Clone, Debug, PartialEq)]
pub struct DataCall {
    /// The wrapper (`custom_kernel`).
    pub wrapper: String,
    /// The names `data` is unpacked into, in order (`x`, `w`).
    pub parts: Vec<String>,
    /// Each part's shape (dimension texts) and dtype (`f32`, `f16`, `bf16`, `i32`, …).
    pub tensors: BTreeMap<String, (Vec<String>, String)>,
    /// The sizes the shapes use (`M` → `4096`), from the call of `generate_input` or the
    /// defaults of its parameters.
    pub sizes: BTreeMap<String, String>,
}

/// The data call of the Python function `wrapper` in `text`, if it takes one tuple that it
/// unpacks and `generate_input` makes.
pub fn data_call(text: &str, wrapper: &str) -> Option<DataCall> {
    read(text, wrapper, false)
}

/// Like [`data_call`], but `data` may also be the one tensor `generate_input` makes
/// (`data.numel()`): then it is the one part, named as the parameter. For sizes only: a
/// call of `wrapper` passes such data as itself, not as a tuple.
pub(super) fn data_input(text: &str, wrapper: &str) -> Option<DataCall> {
    read(text, wrapper, true)
}

fn read(text: &str, wrapper: &str, whole: bool) -> Option<DataCall> {
    let src = SourceText::new(Language::Triton, text);
    let tree = src.tree()?;
    let root = tree.root_node();
    let m = module(root, &src);
    let def = *m.functions.get(wrapper)?;
    let params = parameter_names(def, &src);
    let [data] = &params[..] else { return None };
    let generator = *m.functions.get("generate_input")?;
    let made = returned_tensors(generator, &src)?;
    // `x, w = data`, or `data` itself where `generate_input` makes one tensor.
    let parts = match unpacked(def, &src, &data.0) {
        Some(parts) => parts,
        None if whole && made.len() == 1 => vec![data.0.clone()],
        None => return None,
    };
    if made.len() != parts.len() {
        return None;
    }
    let mut tensors = BTreeMap::new();
    for (part, made) in parts.iter().zip(made) {
        tensors.insert(part.clone(), made);
    }
    // Sizes: the defaults, then a call's arguments.
    let gen_params = parameter_names(generator, &src);
    let mut sizes: BTreeMap<String, String> =
        gen_params.iter().filter_map(|(n, d)| Some((n.clone(), d.clone()?))).collect();
    walk::preorder(root, |n| {
        if n.kind() != "call" || callee_name(n, &src).as_deref() != Some("generate_input") {
            return true;
        }
        let (positional, keywords) = arguments(n, &src);
        for ((name, _), a) in gen_params.iter().zip(&positional) {
            sizes.insert(name.clone(), squash(&node_text(*a, &src)));
        }
        for (k, v) in keywords {
            sizes.insert(k, squash(&node_text(v, &src)));
        }
        false
    });
    for (k, v) in &m.constants {
        sizes.entry(k.clone()).or_insert_with(|| v.clone());
    }
    Some(DataCall { wrapper: wrapper.to_string(), parts, tensors, sizes })
}

/// A function's parameter names with their default texts.
pub(super) fn parameter_names(def: Node, src: &SourceText) -> Vec<(String, Option<String>)> {
    let Some(list) = def.child_by_field_name("parameters") else { return Vec::new() };
    let mut out = Vec::new();
    let mut cursor = list.walk();
    for p in list.named_children(&mut cursor) {
        let (name, default) = match p.kind() {
            "identifier" => (Some(p), None),
            "typed_parameter" => (p.named_child(0), None),
            "default_parameter" | "typed_default_parameter" => {
                (p.child_by_field_name("name"), p.child_by_field_name("value"))
            }
            _ => continue,
        };
        if let Some(name) = name {
            out.push((node_text(name, src).into_owned(), default.map(|d| squash(&node_text(d, src)))));
        }
    }
    out
}

/// `a, b = data` in the function's body: `[a, b]`.
pub(super) fn unpacked(def: Node, src: &SourceText, data: &str) -> Option<Vec<String>> {
    let mut out = None;
    walk::preorder(def, |n| {
        if out.is_some() {
            return false;
        }
        let Some((left, right)) = assignment(n) else { return true };
        if right.kind() != "identifier" || node_text(right, src) != data {
            return true;
        }
        if matches!(left.kind(), "pattern_list" | "tuple_pattern" | "list_pattern") {
            let mut cursor = left.walk();
            let names: Vec<String> = left.named_children(&mut cursor).map(|c| node_text(c, src).into_owned()).collect();
            out = Some(names);
        }
        false
    });
    out
}

/// The tensors `generate_input` returns, in order: shape texts and dtype. Each returned
/// item is the first tensor it is made from (`(data * scale + offset).contiguous()` is
/// `data`, `_make_spd(a, eps)` is `a`); of several `return`s, the first whose items all are.
fn returned_tensors(def: Node, src: &SourceText) -> Option<Vec<(Vec<String>, String)>> {
    let mut made: BTreeMap<String, (Vec<String>, String)> = BTreeMap::new();
    let mut returns: Vec<Vec<Node>> = Vec::new();
    walk::preorder(def, |n| {
        if let Some((left, right)) = assignment(n) {
            if left.kind() == "identifier" && right.kind() == "call" {
                let name = node_text(left, src).into_owned();
                if let Some(t) = factory(right, src) {
                    made.insert(name, t);
                }
            }
            return false;
        }
        if n.kind() == "return_statement" {
            if let Some(e) = n.named_child(0) {
                let e = if e.kind() == "parenthesized_expression" { e.named_child(0).unwrap_or(e) } else { e };
                let mut cursor = e.walk();
                let items = if matches!(e.kind(), "expression_list" | "tuple") {
                    e.named_children(&mut cursor).collect()
                } else {
                    vec![e]
                };
                returns.push(items);
            }
            return false;
        }
        !matches!(n.kind(), "function_definition" | "lambda") || n == def
    });
    let made_from = |item: Node| {
        let mut found = None;
        walk::preorder(item, |x| {
            if found.is_none() && x.kind() == "identifier" {
                found = made.get(node_text(x, src).as_ref()).cloned();
            }
            found.is_none()
        });
        found
    };
    returns.into_iter().find_map(|items| items.into_iter().map(made_from).collect())
}

/// `torch.randn(M, N, dtype=torch.float16, …)` (and `rand`, `empty`, `zeros`, `ones`, a
/// tuple or a `size=` for the shape; `.contiguous()` of one): its shape texts and dtype.
fn factory(call: Node, src: &SourceText) -> Option<(Vec<String>, String)> {
    let name = callee_name(call, src)?;
    if !["randn", "rand", "empty", "zeros", "ones"].contains(&name.as_ref()) {
        // `torch.randn(M, N, …).contiguous()`: the tensor the method is called on.
        let receiver = call.child_by_field_name("function").and_then(|f| f.child_by_field_name("object"));
        return receiver.filter(|r| r.kind() == "call" && name == "contiguous").and_then(|r| factory(r, src));
    }
    let (positional, keywords) = arguments(call, src);
    let shape_node = keywords.get("size").copied().or(match positional.as_slice() {
        [s] if matches!(s.kind(), "tuple" | "list") => Some(*s),
        _ => None,
    });
    let dims: Vec<String> = match (shape_node, positional.as_slice()) {
        (Some(s), _) if matches!(s.kind(), "tuple" | "list") => {
            let mut cursor = s.walk();
            s.named_children(&mut cursor).map(|c| squash(&node_text(c, src))).collect()
        }
        (Some(s), _) => vec![squash(&node_text(s, src))],
        (None, dims) => dims.iter().map(|c| squash(&node_text(*c, src))).collect(),
    };
    if dims.is_empty() {
        return None;
    }
    let dtype = keywords.get("dtype").map(|d| node_text(*d, src).into_owned()).unwrap_or_default();
    let dtype = match dtype.rsplit('.').next().unwrap_or("") {
        "float16" | "half" => "f16",
        "bfloat16" => "bf16",
        "float64" | "double" => "f64",
        "int32" | "int" => "i32",
        "int64" | "long" => "i64",
        "int8" => "i8",
        "uint8" => "u8",
        _ => "f32",
    };
    Some((dims, dtype.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tuple_from_generate_input_is_read_with_its_sizes() {
        let text = "import torch\n\ndef generate_input(M: int, N: int = 8192, seed: int = 0):\n    \
                    x = torch.randn(M, N, device='cuda', dtype=torch.float16)\n    w = torch.ones((N,), device='cuda')\n    \
                    return x, w\n\ndef custom_kernel(data):\n    x, w = data\n    return x * w\n\n\
                    if __name__ == '__main__':\n    custom_kernel(generate_input(M=4096, seed=1))\n";
        let d = data_call(text, "custom_kernel").expect("a data call");
        assert_eq!(d.parts, ["x", "w"]);
        assert_eq!(d.tensors["x"], (vec!["M".to_string(), "N".to_string()], "f16".to_string()));
        assert_eq!(d.tensors["w"], (vec!["N".to_string()], "f32".to_string()));
        assert_eq!(d.sizes["M"], "4096");
        assert_eq!(d.sizes["N"], "8192");
        assert!(data_call(text, "generate_input").is_none());
        // One tensor, not unpacked: its shape for sizes, no tuple for a call.
        let one = text.replace("return x, w", "return x").replace("x, w = data\n    return x * w", "return data * 2");
        assert!(data_call(&one, "custom_kernel").is_none());
        let d = data_input(&one, "custom_kernel").expect("the tensor itself");
        assert_eq!(d.parts, ["data"]);
        assert_eq!(d.tensors["data"].0, ["M", "N"]);
    }
}
