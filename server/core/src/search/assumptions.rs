//! What a CUDA kernel assumes of its own constants, checked with a variant's values
//! before the variant goes to the GPU: its `static_assert`s (the kernel's, its non-template
//! helpers') and the divisions its code takes to be exact (`A / B`, loops over `A` in steps
//! of `B`). A condition is judged only where every name in it has a known value; anything
//! else may hold, and the compiler decides.

use super::validate::tokens;
use crate::extract::walk_preorder;
use crate::features::expr::Env;
use crate::kernel::{HelperKind, Kernel, Language};
use crate::source::parser_for;

/// The kernel's `const`/`constexpr` locals with their initialisers, in order
/// (`constexpr uint numThreads = (BM * BN) / (TM * TN);`).
pub(super) fn kernel_constants(source: &str) -> Vec<(String, String)> {
    let mut parser = parser_for(Language::Cuda);
    let Some(tree) = parser.parse(source, None) else { return Vec::new() };
    let text = |n: tree_sitter::Node| source.get(n.byte_range()).unwrap_or("");
    let mut out = Vec::new();
    walk_preorder(tree.root_node(), |n| {
        if n.kind() != "declaration" {
            return true;
        }
        let head = text(n).trim_start().trim_start_matches("static").trim_start();
        if !(head.starts_with("const ") || head.starts_with("constexpr ")) {
            return false;
        }
        let mut cursor = n.walk();
        for d in n.children_by_field_name("declarator", &mut cursor) {
            if let (Some(name), Some(value)) = (d.child_by_field_name("declarator"), d.child_by_field_name("value")) {
                if name.kind() == "identifier" {
                    out.push((text(name).to_string(), crate::extract::squash(text(value))));
                }
            }
        }
        false
    });
    out
}

/// The environment the kernel's own code sees at the launch `launch` gives: its template
/// arguments and the file's constants, its `const` locals, and no value for its runtime
/// parameters (a host name equal to one is another variable).
pub(super) fn kernel_env(kernel: &Kernel, mut launch: Env) -> Env {
    for p in crate::measure::spec::cuda_params(kernel) {
        launch.texts.remove(&p.name);
        launch.values.remove(&p.name);
    }
    for (name, value) in kernel_constants(&kernel.source) {
        launch.define(&name, &value);
    }
    launch
}

/// The kernel's assumptions that break with the values of `env` (the launch's, with the
/// kernel's constants added), as a reason; `Ok` if none does.
pub(super) fn check(kernel: &Kernel, env: &Env) -> Result<(), String> {
    let known = |text: &str| env.eval(text).filter(|e| e.guesses == 0).map(|e| e.value);
    for (a, b) in divisions(kernel) {
        let (Some(x), Some(y)) = (known(&a), known(&b)) else { continue };
        if y < 1.0 || x < y || x % y != 0.0 {
            return Err(format!("`{b}` ({y}) must divide `{a}` ({x})"));
        }
    }
    for (cond, message) in static_asserts(kernel) {
        for part in conjuncts(&cond) {
            if known(&part) == Some(0.0) {
                let why = if message.is_empty() { String::new() } else { format!(" ({message})") };
                return Err(format!("breaks the kernel's `static_assert({cond})`{why}: `{part}` is false"));
            }
        }
    }
    Ok(())
}

/// `(A, B)` for every `A / B` and every `for (…; i < A; i += B)` where both are the
/// kernel's template parameters or constants, or the file's `#define`s and constants: its
/// code assumes `B` divides `A`.
fn divisions(kernel: &Kernel) -> Vec<(String, String)> {
    let constants = kernel_constants(&kernel.source);
    let named = |t: &str| {
        kernel.constexpr_params.iter().any(|p| p == t)
            || kernel.helpers.iter().any(|h| h.name == t && matches!(h.kind, HelperKind::Define | HelperKind::Constant))
            || constants.iter().any(|(n, _)| n == t)
    };
    let mut out = Vec::new();
    for text in assumption_texts(kernel) {
        let tokens = tokens(text);
        for w in tokens.windows(3) {
            if w[1] == "/" && named(w[0]) && named(w[2]) {
                out.push((w[0].to_string(), w[2].to_string()));
            }
        }
        for (i, t) in tokens.iter().enumerate() {
            if *t != "for" || tokens.get(i + 1) != Some(&"(") {
                continue;
            }
            let header: Vec<&str> = tokens[i + 2..].iter().take_while(|t| **t != ")" && **t != "{").copied().collect();
            let bound = header.windows(2).find(|w| w[0] == "<" && named(w[1])).map(|w| w[1]);
            let step = header.windows(3).find(|w| w[0] == "+" && w[1] == "=" && named(w[2])).map(|w| w[2]);
            if let (Some(a), Some(b)) = (bound, step) {
                out.push((a.to_string(), b.to_string()));
            }
        }
    }
    out.sort();
    out.dedup();
    out
}

/// The kernel's text and its helpers' (a template helper's own parameters are not the
/// kernel's, so its text is left out).
fn assumption_texts(kernel: &Kernel) -> Vec<&str> {
    let mut texts = vec![&*kernel.source];
    texts.extend(
        kernel.helpers.iter().filter(|h| !h.text.trim_start().starts_with("template")).map(|h| h.text.as_str()),
    );
    texts
}

/// `static_assert(cond, "message")` of the kernel and its helpers: (cond, message).
fn static_asserts(kernel: &Kernel) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for text in assumption_texts(kernel) {
        let mut rest = text;
        while let Some(p) = rest.find("static_assert") {
            let after = &rest[p + "static_assert".len()..];
            rest = after;
            let Some(open) = after.strip_prefix(|c: char| c == '(' || c.is_whitespace()) else { continue };
            let open = open.trim_start_matches(|c: char| c == '(' || c.is_whitespace());
            let start = after.len() - open.len();
            let Some(args) = balanced_args(&after[start..]) else { continue };
            let cond = args.first().map(|c| crate::extract::squash(c)).unwrap_or_default();
            let message = args.get(1).map(|m| m.trim().trim_matches('"').to_string()).unwrap_or_default();
            if !cond.is_empty() {
                out.push((cond, message));
            }
        }
    }
    out
}

/// The comma-separated arguments up to the `)` that closes the call whose arguments start
/// `text`, or None if it does not close.
fn balanced_args(text: &str) -> Option<Vec<&str>> {
    let bytes = text.as_bytes();
    let mut depth = 0usize;
    let mut args = Vec::new();
    let mut start = 0;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            // A string literal: on past its closing quote (`\"` does not close it).
            b'"' => {
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
            }
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' if depth > 0 => depth -= 1,
            b')' => {
                args.push(text.get(start..i)?);
                return Some(args);
            }
            b',' if depth == 0 => {
                args.push(text.get(start..i)?);
                start = i + 1;
            }
            b';' => return None,
            _ => {}
        }
        i += 1;
    }
    None
}

/// The parts of a condition joined by `&&` (or `and`) outside parentheses; a condition
/// with `||`, `or` or `!` outside them is one part (not judged unless it evaluates).
fn conjuncts(cond: &str) -> Vec<String> {
    let c = format!(" {cond} ").replace(" and ", " && ");
    let mut parts = Vec::new();
    let mut depth = 0i32;
    let mut start = 0;
    let bytes = c.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'(' => depth += 1,
            b')' => depth -= 1,
            b'&' if depth == 0 && bytes.get(i + 1) == Some(&b'&') => {
                parts.push(c[start..i].trim().to_string());
                start = i + 2;
                i += 1;
            }
            _ => {}
        }
        i += 1;
    }
    parts.push(c[start..].trim().to_string());
    parts.retain(|p| !p.is_empty());
    parts
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conditions_split_at_top_level_ands() {
        assert_eq!(conjuncts("a >= b && a % b == 0"), ["a >= b", "a % b == 0"]);
        assert_eq!(conjuncts("(a && b) and c"), ["(a && b)", "c"]);
        let k = "template <int BM> __global__ void k() { static_assert(BM % (4 * 2) == 0, \"whole, (tiles\"); }";
        let kernel = crate::extract::extract_text(Language::Cuda, k).kernels.remove(0);
        assert_eq!(static_asserts(&kernel), [("BM % (4 * 2) == 0".to_string(), "whole, (tiles".to_string())]);
    }

    #[test]
    fn kernel_constants_are_read_with_their_values() {
        let src = "template <int BM> __global__ void k(int n) {\n  constexpr uint t = BM * 2, u = t / 4;\n  const uint row = threadIdx.x / t;\n  int x = 3;\n}";
        let got = kernel_constants(src);
        let names: Vec<&str> = got.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names, ["t", "u", "row"]);
        assert_eq!(got[0].1, "BM * 2");
    }
}
