//! The element size of a tensor where a Python program makes it: `torch.randn(n,
//! dtype=torch.bfloat16)`, `torch.rand(n).half()`, `x.to(torch.float16)`; a factory without
//! a dtype makes float32. Put on a launch as `x.element_size()`, so bytes are counted at the
//! width the program's tensors have, not assumed 4.

use super::node_text;
use super::pycall::{arguments, callee_name};
use crate::source::SourceText;
use std::collections::HashMap;
use tree_sitter::Node;

/// Bytes per element of a dtype name (`torch.float16`, `float16`, `"bf16"`).
pub fn dtype_bytes(name: &str) -> Option<f64> {
    let last = name.trim().trim_matches(|c| c == '"' || c == '\'').rsplit('.').next().unwrap_or("");
    Some(match last {
        "float16" | "half" | "bfloat16" | "f16" | "bf16" | "int16" | "short" => 2.0,
        "float32" | "float" | "f32" | "int32" | "int" | "i32" => 4.0,
        "float64" | "double" | "f64" | "int64" | "long" | "i64" => 8.0,
        "int8" | "uint8" | "bool" | "i8" | "u8" | "float8_e4m3fn" | "float8_e5m2" => 1.0,
        _ => return None,
    })
}

/// Factories that make a tensor (float32 unless a dtype says otherwise).
const FACTORIES: [&str; 8] = ["randn", "rand", "zeros", "ones", "empty", "full", "arange", "randn_like"];

/// The element size of the tensor `node` makes (`locals` resolves a name to what it was
/// assigned); None where nothing says (a tensor passed in, an unknown call).
pub(super) fn element_size(node: Node, src: &SourceText, locals: &HashMap<String, Node>, depth: usize) -> Option<f64> {
    if depth > 8 {
        return None;
    }
    match node.kind() {
        "identifier" => element_size(*locals.get(node_text(node, src).as_ref())?, src, locals, depth + 1),
        "parenthesized_expression" => element_size(node.named_child(0)?, src, locals, depth + 1),
        "call" => {
            let name = callee_name(node, src)?;
            let (positional, keywords) = arguments(node, src);
            if let Some(d) = keywords.get("dtype") {
                return dtype_bytes(&node_text(*d, src));
            }
            let object = node
                .child_by_field_name("function")
                .filter(|f| f.kind() == "attribute")
                .and_then(|f| f.child_by_field_name("object"));
            match name.as_ref() {
                "half" => Some(2.0),
                "bfloat16" => Some(2.0),
                "float" => Some(4.0),
                "double" => Some(8.0),
                // `.to(torch.float16)`, `.to(device, torch.bfloat16)`; `.to("cuda")` keeps it.
                "to" | "type" => positional
                    .iter()
                    .find_map(|a| dtype_bytes(&node_text(*a, src)))
                    .or_else(|| element_size(object?, src, locals, depth + 1)),
                f if FACTORIES.contains(&f) && object.is_none_or(|o| node_text(o, src) == "torch") => Some(4.0),
                // `.cuda()`, `.contiguous()`, `.t()`: the tensor it is called on.
                _ => element_size(object?, src, locals, depth + 1),
            }
        }
        // `torch.randn(n) * 2 + 1`: its first operand.
        "binary_operator" => element_size(node.child_by_field_name("left")?, src, locals, depth + 1),
        _ => None,
    }
}

/// The element size all of `sizes` agree on (None if they differ or none is known).
pub fn agreed(sizes: impl IntoIterator<Item = f64>) -> Option<f64> {
    let mut it = sizes.into_iter();
    let first = it.next()?;
    it.all(|s| s == first).then_some(first)
}
