//! Sizes a Python program gives its Triton wrappers' tensors at run time: what
//! `get_inputs()` returns (KernelBench: `forward`'s tensors, or those `forward` passes to a
//! wrapper) and what `generate_input(…)` makes (GPU MODE: the parts `custom_kernel(data)`
//! unpacks). Each tensor's `x.shape[i]`, `x.size(i)`, `x.stride(i)` and `x.numel()` are put
//! on the launch as locals, so `n_rows, n_cols = x.shape` and `x.numel()` have values; a
//! `kforecast:` declaration wins.

use super::pycall::{self, PyValue};
use super::{node_text, python_parameters, squash};
use crate::declaration::Declared;
use crate::kernel::{Kernel, LaunchSite};
use crate::source::SourceText;
use std::collections::BTreeMap;
use tree_sitter::Node;

/// Binds the input shapes the file gives on each launch of `kernels` (and their companions').
pub(super) fn bind(root: Node, src: &SourceText, kernels: &mut [Kernel]) {
    let undeclared = |k: &Kernel| k.declared.shapes.is_empty() && k.declared.wrapper.is_empty();
    if !kernels.iter().any(undeclared) {
        return;
    }
    let m = pycall::module(root, src);
    if !m.functions.contains_key("get_inputs") && !m.functions.contains_key("generate_input") {
        return;
    }
    let shapes_of = |site: &LaunchSite| shapes(root, src, &m, site);
    for k in kernels.iter_mut().filter(|k| undeclared(k)) {
        let mut changed = false;
        for site in &mut k.launches {
            changed |= put(site, &shapes_of(site));
        }
        for c in &mut k.companions {
            let mut any = false;
            for site in &mut c.launches {
                any |= put(site, &shapes_of(site));
            }
            if any {
                c.identity = c.compute_identity();
                changed = true;
            }
        }
        if changed {
            k.identity = k.compute_identity();
        }
    }
}

/// Binds the input shapes the file gives on one launch site (a torch program's `forward`).
pub(super) fn bind_site(root: Node, src: &SourceText, site: &mut LaunchSite) {
    let m = pycall::module(root, src);
    let shapes = shapes(root, src, &m, site);
    put(site, &shapes);
}

/// Binds on a torch program's launch site the shapes `generate_input` gives the parts of
/// `function`'s data, where it gives every dimension a value: a size left to run time
/// (`generate_input(size, seed)`, sized by the task's tests) leaves its tensor to the size
/// assumed for the program, like a version without `generate_input` (`A, B = data`), so
/// the two read alike (`torch.randn(size, size)` is not the prior's size squared).
pub(super) fn bind_data(src: &SourceText, site: &mut LaunchSite, function: &str) {
    let known = data_shapes(src, function)
        .into_iter()
        .filter(|(_, dims)| {
            dims.iter().all(|d| super::words(d).all(|w| w.is_empty() || w.starts_with(|c: char| c.is_ascii_digit())))
        })
        .collect();
    put(site, &known);
}

/// Puts each tensor's definitions on `site` where it has none; whether any was put.
fn put(site: &mut LaunchSite, shapes: &BTreeMap<String, Vec<String>>) -> bool {
    if shapes.is_empty() {
        return false;
    }
    let declared = Declared { shapes: shapes.clone(), ..Declared::default() };
    let mut any = false;
    for (k, v) in declared.definitions() {
        if let std::collections::btree_map::Entry::Vacant(e) = site.locals.entry(k) {
            e.insert(v);
            any = true;
        }
    }
    any
}

/// The shapes of the launching function's tensors, by parameter name.
fn shapes(root: Node, src: &SourceText, m: &pycall::Module, site: &LaunchSite) -> BTreeMap<String, Vec<String>> {
    let mut out = BTreeMap::new();
    let Some(def) = root
        .descendant_for_byte_range(site.range.start, site.range.start)
        .and_then(|n| std::iter::successors(Some(n), |n| n.parent()).find(|n| n.kind() == "function_definition"))
    else {
        return out;
    };
    let name = def.child_by_field_name("name").map(|n| node_text(n, src).into_owned()).unwrap_or_default();
    let params: Vec<String> = python_parameters(def)
        .into_iter()
        .map(|(_, n)| node_text(n, src).into_owned())
        .filter(|p| p != "self")
        .collect();
    let values = if name == "forward" {
        pycall::get_inputs(src, m)
    } else if let Some((_, values)) = pycall::host_call(root, src, m, &name) {
        values
    } else {
        return data_shapes(src, &name);
    };
    for (p, v) in params.iter().zip(values) {
        if let PyValue::Shape(dims) = v {
            if dims.iter().all(|d| d != "?") {
                out.insert(p.clone(), dims.iter().map(|d| inline(d, &m.constants)).collect());
            }
        }
    }
    out
}

/// A GPU MODE wrapper's unpacked parts (`x, w = data`, or `data` itself) with the shapes
/// `generate_input` makes.
fn data_shapes(src: &SourceText, wrapper: &str) -> BTreeMap<String, Vec<String>> {
    let text = src.slice(0, src.len_bytes());
    let Some(call) = super::gpumode::data_input(&text, wrapper) else { return BTreeMap::new() };
    call.tensors
        .into_iter()
        .map(|(part, (dims, _))| (part, dims.iter().map(|d| inline(d, &call.sizes)).collect()))
        .collect()
}

/// `text` with the names `values` gives replaced by their values (in parentheses).
fn inline(text: &str, values: &BTreeMap<String, String>) -> String {
    let mut out = squash(text);
    for _ in 0..8 {
        let found: Vec<String> = super::words(&out).filter(|w| values.contains_key(*w)).map(str::to_string).collect();
        if found.is_empty() {
            break;
        }
        for w in found {
            out = super::substitute(&out, &w, &format!("({})", values[&w]));
        }
    }
    out
}
