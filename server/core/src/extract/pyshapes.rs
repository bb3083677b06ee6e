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
    let put_all = |site: &mut LaunchSite| {
        let sizes = element_sizes(root, src, &m, site);
        put(site, &shapes(root, src, &m, site)) | put_sizes(site, &sizes)
    };
    for k in kernels.iter_mut().filter(|k| undeclared(k)) {
        let mut changed = false;
        for site in &mut k.launches {
            changed |= put_all(site);
        }
        for c in &mut k.companions {
            let mut any = false;
            for site in &mut c.launches {
                any |= put_all(site);
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
    let sizes = element_sizes(root, src, &m, site);
    put_sizes(site, &sizes);
}

/// Binds on a torch program's launch site the shapes `generate_input` gives the parts of
/// `function`'s data, where it gives every dimension a value: a size left to run time
/// (`generate_input(size, seed)`, sized by the task's tests) leaves its tensor to the size
/// assumed for the program, like a version without `generate_input` (`A, B = data`), so
/// the two read alike (`torch.randn(size, size)` is not the prior's size squared).
pub(super) fn bind_data(src: &SourceText, site: &mut LaunchSite, function: &str) {
    put_sizes(site, &data_element_sizes(src, function));
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

/// Puts each tensor's element size on `site` as `x.element_size()` where it has none;
/// whether any was put.
fn put_sizes(site: &mut LaunchSite, sizes: &BTreeMap<String, f64>) -> bool {
    let mut any = false;
    for (name, bytes) in sizes {
        if let std::collections::btree_map::Entry::Vacant(e) = site.locals.entry(format!("{name}.element_size()")) {
            e.insert(bytes.to_string());
            any = true;
        }
    }
    any
}

/// The element sizes of the launching function's tensors where the file makes them: a
/// module's `forward` parameters from `get_inputs()`, a GPU MODE function's parts from
/// `generate_input`.
fn element_sizes(root: Node, src: &SourceText, m: &pycall::Module, site: &LaunchSite) -> BTreeMap<String, f64> {
    let Some(def) = root
        .descendant_for_byte_range(site.range.start, site.range.start)
        .and_then(|n| std::iter::successors(Some(n), |n| n.parent()).find(|n| n.kind() == "function_definition"))
    else {
        return BTreeMap::new();
    };
    let name = def.child_by_field_name("name").map(|n| node_text(n, src).into_owned()).unwrap_or_default();
    if !takes_inputs(root, src, m, &name) {
        return data_element_sizes(src, &name);
    }
    let params = python_parameters(def)
        .into_iter()
        .map(|(_, n)| node_text(n, src).into_owned())
        .filter(|p| p != "self" && p != "ctx");
    params.zip(pycall::get_input_element_sizes(src, m)).filter_map(|(p, bytes)| Some((p, bytes?))).collect()
}

/// Whether the harness passes function `name` `get_inputs()`'s tensors itself: a module's
/// `forward`, or an input entry the file never calls (`kernel_function`, `kf_run`).
fn takes_inputs(root: Node, src: &SourceText, m: &pycall::Module, name: &str) -> bool {
    name == "forward" || (pycall::INPUT_ENTRIES.contains(&name) && pycall::host_call(root, src, m, name).is_none())
}

/// The element sizes of a GPU MODE wrapper's parts, from the dtypes `generate_input` makes
/// them with (whether or not their sizes are known).
fn data_element_sizes(src: &SourceText, wrapper: &str) -> BTreeMap<String, f64> {
    let text = src.slice(0, src.len_bytes());
    let Some(call) = super::gpumode::data_input(&text, wrapper) else { return BTreeMap::new() };
    call.tensors
        .into_iter()
        .filter_map(|(part, (_, dtype))| Some((part, super::pydtype::dtype_bytes(&dtype)?)))
        .collect()
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
        .filter(|p| p != "self" && p != "ctx")
        .collect();
    let values = if takes_inputs(root, src, m, &name) {
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
