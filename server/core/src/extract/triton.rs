//! Triton items: `@triton.jit` functions, their `@triton.autotune` configs, module
//! constants, and `kernel[grid](…)` launch sites with their meta-parameters.

use super::normalize::normalize;
use super::{node_range, node_text, squash, substitute, walk, HelperDraft, ItemFacts, KernelDraft, LaunchDraft};
use crate::hash::ContentHash;
use crate::kernel::{HelperKind, LaunchSite};
use crate::source::SourceText;
use std::collections::{BTreeMap, HashSet};
use tree_sitter::Node;

pub(super) fn item_facts(item: Node, src: &SourceText) -> ItemFacts {
    let mut facts = ItemFacts {
        host_defs: super::pyreach::host_defs(item, src),
        calls: super::pycallers::calls_in(item, src),
        ..ItemFacts::default()
    };
    match item.kind() {
        "decorated_definition" => decorated(item, src, &mut facts),
        "expression_statement" => {
            if let Some(assign) = item.named_child(0).filter(|n| n.kind() == "assignment") {
                if let (Some(left), Some(right)) =
                    (assign.child_by_field_name("left"), assign.child_by_field_name("right"))
                {
                    if left.kind() == "identifier" {
                        let norm = normalize(item, src, &HashSet::new(), |_, _| true);
                        facts.helpers.push(HelperDraft {
                            name: node_text(left, src).into_owned(),
                            kind: HelperKind::Constant,
                            text: squash(&node_text(right, src)),
                            normalized: norm.hash,
                            uses: norm.uses,
                            guard: Vec::new(),
                        });
                    }
                }
            }
            launches(item, src, &mut facts);
        }
        // `class Sum: @staticmethod @triton.jit def forward(…)`: a library's kernels as
        // static methods, launched as `Sum.forward[grid](…)`.
        "class_definition" => {
            if let Some(body) = item.child_by_field_name("body") {
                let mut cursor = body.walk();
                let members: Vec<Node> = body.named_children(&mut cursor).collect();
                for member in members.into_iter().filter(|m| m.kind() == "decorated_definition") {
                    jit_kernel(member, src, &mut facts);
                }
            }
            // The class's methods launch as a module's functions do (`ModelNew.forward`).
            launches(item, src, &mut facts);
        }
        _ => launches(item, src, &mut facts),
    }
    facts
}

fn decorated(item: Node, src: &SourceText, facts: &mut ItemFacts) {
    if !jit_kernel(item, src, facts) {
        launches(item, src, facts);
    }
}

/// Adds the decorated definition `item` as a kernel if it is a `@triton.jit` function;
/// whether it is one.
fn jit_kernel(item: Node, src: &SourceText, facts: &mut ItemFacts) -> bool {
    let Some(def) = item.child_by_field_name("definition").filter(|d| d.kind() == "function_definition") else {
        return false;
    };
    let mut cursor = item.walk();
    let jit = item.named_children(&mut cursor).filter(|c| c.kind() == "decorator").any(|decorator| {
        let expr = decorator.named_child(0);
        let callee = expr.map(|e| if e.kind() == "call" { e.child_by_field_name("function").unwrap_or(e) } else { e });
        // `@triton.jit`, `@triton.jit(…)`, or a library's own wrapper of it (Fast-LLM's
        // `@triton_jit()`, imported from its `functional.triton`).
        callee.is_some_and(|c| {
            let name = node_text(c, src);
            let last = name.rsplit('.').next().unwrap_or_default();
            last == "jit" || (last.ends_with("_jit") && last.contains("triton"))
        })
    });
    if !jit {
        return false;
    }
    let autotune = super::autotune::call(item, src).map(|call| super::autotune::configs(call, src)).unwrap_or_default();
    let (Some(name), Some(params)) = (def.child_by_field_name("name"), def.child_by_field_name("parameters")) else {
        return true;
    };
    let (locals, constexpr_params) = locals_and_constexprs(def, src);
    // Normalise the definition itself: decorators are compared through `autotune`.
    let norm = normalize(def, src, &locals, renamable);
    let source = node_text(item, src).into_owned();
    facts.kernels.push(KernelDraft {
        raw_hash: ContentHash::of(source.as_bytes()),
        source: source.into(),
        name: node_text(name, src).into_owned(),
        range: node_range(item),
        name_range: node_range(name),
        signature_end: params.end_byte(),
        normalized: norm.hash,
        uses: norm.uses,
        launch_bounds: Vec::new(),
        constexpr_params,
        autotune,
        has_errors: item.has_error(),
    });
    true
}

/// An identifier is a variable reference unless it names an attribute or a keyword.
fn renamable<'t>(node: Node<'t>, parent: Option<Node<'t>>) -> bool {
    let Some(parent) = parent else {
        return true;
    };
    match parent.kind() {
        "attribute" => parent.child_by_field_name("attribute") != Some(node),
        "keyword_argument" => parent.child_by_field_name("name") != Some(node),
        _ => true,
    }
}

/// The parameters of a Python function definition, each with its name node (`x`,
/// `x: int`, `x=1`, `BLOCK: tl.constexpr = 64`); `*args`, `**kw` and separators have no
/// plain name and are left out.
pub(crate) fn parameters<'t>(def: Node<'t>) -> Vec<(Node<'t>, Node<'t>)> {
    let Some(params) = def.child_by_field_name("parameters") else {
        return Vec::new();
    };
    let mut cursor = params.walk();
    let list: Vec<Node<'t>> = params.named_children(&mut cursor).collect();
    list.into_iter()
        .filter_map(|p| {
            let name = match p.kind() {
                "identifier" => Some(p),
                "typed_parameter" => p.named_child(0),
                _ => p.child_by_field_name("name"),
            };
            name.filter(|n| n.kind() == "identifier").map(|n| (p, n))
        })
        .collect()
}

fn locals_and_constexprs(def: Node, src: &SourceText) -> (HashSet<String>, Vec<String>) {
    let mut locals = HashSet::new();
    let mut constexprs = Vec::new();
    for (p, name) in parameters(def) {
        let name = node_text(name, src).into_owned();
        let constexpr = p.child_by_field_name("type").is_some_and(|t| node_text(t, src).contains("constexpr"));
        if constexpr {
            constexprs.push(name.clone());
        }
        locals.insert(name);
    }
    if let Some(body) = def.child_by_field_name("body") {
        walk::preorder(body, |n| {
            let target = match n.kind() {
                "assignment" | "augmented_assignment" => n.child_by_field_name("left"),
                "for_statement" => n.child_by_field_name("left"),
                _ => None,
            };
            if let Some(target) = target {
                walk::preorder_with_ancestors(target, |t, ancestors| {
                    if t.kind() == "identifier" && renamable(t, Some(*ancestors.last().unwrap_or(&n))) {
                        locals.insert(node_text(t, src).into_owned());
                    }
                    t.kind() != "attribute" && t.kind() != "subscript"
                });
            }
            true
        });
    }
    (locals, constexprs)
}

/// The kernel a launch's subscripted value names: `wrap_triton(kernel)` (a `torch.library`
/// custom op's launch) is `kernel`.
fn unwrapped<'t>(value: Node<'t>, src: &SourceText) -> Node<'t> {
    let wraps = value.kind() == "call"
        && value.child_by_field_name("function").is_some_and(|f| node_text(f, src).ends_with("wrap_triton"));
    match value.child_by_field_name("arguments").and_then(|a| a.named_child(0)).filter(|_| wraps) {
        Some(kernel) => kernel,
        None => value,
    }
}

/// `kernel[grid](args…, BLOCK_SIZE=…, num_warps=…)` sites under `node`.
fn launches(node: Node, src: &SourceText, facts: &mut ItemFacts) {
    let mut locals: Option<BTreeMap<String, String>> = None;
    // A class's locals every method shares (`self.` attributes, `__init__`'s arguments).
    let mut class_locals: Option<BTreeMap<String, String>> = None;
    let mut host: Option<HostFunction> = None;
    walk::preorder(node, |n| {
        if n.kind() != "call" {
            return true;
        }
        let Some(function) = n.child_by_field_name("function").filter(|f| f.kind() == "subscript") else {
            return true;
        };
        let Some(value) = function.child_by_field_name("value").map(|v| unwrapped(v, src)) else {
            return true;
        };
        let callee = node_text(value, src).rsplit('.').next().unwrap_or_default().trim().to_string();
        let mut cursor = function.walk();
        let grid: Vec<String> =
            function.children_by_field_name("subscript", &mut cursor).map(|s| squash(&node_text(s, src))).collect();
        let mut args = Vec::new();
        let mut meta = BTreeMap::new();
        if let Some(list) = n.child_by_field_name("arguments") {
            let mut c = list.walk();
            for arg in list.named_children(&mut c) {
                if arg.kind() == "keyword_argument" {
                    if let (Some(k), Some(v)) = (arg.child_by_field_name("name"), arg.child_by_field_name("value")) {
                        meta.insert(node_text(k, src).into_owned(), squash(&node_text(v, src)));
                    }
                } else if arg.kind() != "comment" {
                    args.push(squash(&node_text(arg, src)));
                }
            }
        }
        let item_locals = locals.get_or_insert_with(|| host_locals(node, src));
        // A class's launch is read in its own method: what another method assigns (a
        // backward pass's `n = M * twoI`) is not this launch's, while `self.` attributes
        // and `__init__`'s arguments are the class's.
        let (locals, HostFunction { name: host_name, params: host_params, defaults: host_defaults }) =
            match method_of(n, node) {
                Some(method) => {
                    let mut own = class_locals
                        .get_or_insert_with(|| {
                            let mut shared = init_arguments(node, src);
                            shared.extend(
                                item_locals
                                    .iter()
                                    .filter(|(k, _)| k.starts_with("self."))
                                    .map(|(k, v)| (k.clone(), v.clone())),
                            );
                            shared
                        })
                        .clone();
                    own.extend(host_locals(method, src));
                    (own, host_function(method, src))
                }
                None => (item_locals.clone(), host.get_or_insert_with(|| host_function(node, src)).clone()),
            };
        let callees = aliased(&callee, &locals);
        let site = LaunchSite {
            range: node_range(n),
            grid: Some(grid.join(", ")),
            block: None,
            shared_mem: None,
            stream: None,
            meta,
            args,
            locals,
            host_params,
            host_defaults,
            host_name,
            external: None,
            allocations: BTreeMap::new(),
            trips: super::trips::loop_trips(n, node, src),
            taken: super::branches::branches(n, node, src),
            library_calls: Vec::new(),
            unreached: false,
            reached: false,
        };
        for callee in callees {
            facts.launches.push(LaunchDraft {
                callee,
                template_args: Vec::new(),
                host_template: Vec::new(),
                host_fn_params: Vec::new(),
                case: None,
                site: site.clone(),
            });
        }
        true
    });
}

/// The method of class `item` that `at` lies in (`None` outside a class).
fn method_of<'t>(at: Node<'t>, item: Node<'t>) -> Option<Node<'t>> {
    if item.kind() != "class_definition" {
        return None;
    }
    let mut method = None;
    let mut cur = at.parent();
    while let Some(n) = cur.filter(|n| *n != item) {
        if n.kind() == "function_definition" {
            method = Some(n);
        }
        cur = n.parent();
    }
    method
}

/// The kernels a launched name stands for: the name itself, or the kernels a local of
/// the wrapper holds under it (`fx = _gemma_kernel if gemma else _kernel`, each;
/// `kernel = softmax_kernel.warmup(…)`, the kernel warmed up).
fn aliased(callee: &str, locals: &BTreeMap<String, String>) -> Vec<String> {
    let Some(value) = locals.get(callee) else { return vec![callee.to_string()] };
    let name = |t: &str| {
        let t = t.trim();
        let t = t.split_once(".warmup(").map_or(t, |(k, _)| k);
        let t = t.rsplit('.').next().unwrap_or(t).trim();
        (!t.is_empty() && t.chars().all(|c| c.is_alphanumeric() || c == '_')).then(|| t.to_string())
    };
    let kernels: Vec<String> =
        match value.split_once(" if ").and_then(|(a, rest)| Some((a, rest.split_once(" else ")?.1))) {
            Some((a, b)) => [a, b].into_iter().filter_map(name).collect(),
            None => name(value).into_iter().collect(),
        };
    if kernels.is_empty() {
        vec![callee.to_string()]
    } else {
        kernels
    }
}

/// Element `i` of a conditional choice between tuples (`(32, 4) if d <= 16 else ((16, 4) if
/// d <= 32 else (8, 4))`), as a conditional of the elements; `None` where a branch is not a
/// tuple literal.
fn tuple_element(node: Node, i: usize, src: &SourceText) -> Option<String> {
    match node.kind() {
        "parenthesized_expression" => tuple_element(node.named_child(0)?, i, src),
        "tuple" | "expression_list" => Some(squash(&node_text(node.named_child(u32::try_from(i).ok()?)?, src))),
        "conditional_expression" => {
            let (body, condition, alternative) = (node.named_child(0)?, node.named_child(1)?, node.named_child(2)?);
            Some(format!(
                "({} if {} else {})",
                tuple_element(body, i, src)?,
                squash(&node_text(condition, src)),
                tuple_element(alternative, i, src)?
            ))
        }
        _ => None,
    }
}

/// The first function defined in an item: the launching wrapper.
#[derive(Clone, Default)]
struct HostFunction {
    name: String,
    params: Vec<String>,
    /// The default values of the parameters that have one.
    defaults: BTreeMap<String, String>,
}

fn host_function(node: Node, src: &SourceText) -> HostFunction {
    let mut out = HostFunction::default();
    let mut done = false;
    walk::preorder(node, |n| {
        if done {
            return false;
        }
        if n.kind() != "function_definition" {
            return true;
        }
        done = true;
        out.name = n.child_by_field_name("name").map(|m| node_text(m, src).into_owned()).unwrap_or_default();
        for (p, name) in parameters(n) {
            let name = node_text(name, src).into_owned();
            if let Some(value) = p.child_by_field_name("value") {
                out.defaults.insert(name.clone(), squash(&node_text(value, src)));
            }
            out.params.push(name);
        }
        false
    });
    out
}

pub(super) fn host_locals(node: Node, src: &SourceText) -> BTreeMap<String, String> {
    let mut out = init_arguments(node, src);
    walk::preorder(node, |n| {
        if n.kind() == "function_definition" && n != node {
            // `def grid(meta): return (triton.cdiv(M, meta['BM']),)`: a grid function, as the
            // lambda it stands for.
            if let Some((name, lambda)) = one_line_function(n, src) {
                out.insert(name, lambda);
            }
            return true;
        }
        if n.kind() == "assignment" {
            if let (Some(l), Some(r)) = (n.child_by_field_name("left"), n.child_by_field_name("right")) {
                let attribute = node_text(l, src);
                if l.kind() == "attribute" && attribute.starts_with("self.") {
                    // `self.block = block` in `__init__`, read where `forward` uses `self.block`.
                    out.insert(squash(&attribute), squash(&node_text(r, src)));
                } else if l.kind() == "identifier" {
                    let name = node_text(l, src).into_owned();
                    // A class-level constant is also `self.NAME` in the class's methods.
                    if n.parent()
                        .and_then(|s| s.parent())
                        .and_then(|b| b.parent())
                        .is_some_and(|c| c.kind() == "class_definition")
                    {
                        out.insert(format!("self.{name}"), squash(&node_text(r, src)));
                    }
                    let mut value = squash(&node_text(r, src));
                    // `if isinstance(k, (tuple, list)): k = k[0]`: a number passed stays as it is.
                    if super::pybranch::normalises(n, node, src, &name, &value) {
                        return true;
                    }
                    // `BLOCK = min(BLOCK, 4096)`: the new value in terms of the old one.
                    if let Some(old) = out.get(&name) {
                        value = substitute(&value, &name, &format!("({old})"));
                        // `if BLOCK > 16384: BLOCK = 16384`: the new value where the branch is taken.
                        value = super::pybranch::conditional(n, node, src, &name, value, old);
                    }
                    if value.len() > super::statements::MAX_TEXT {
                        // `a = f(a)` over and over (a data generator's cases): no size is
                        // written out that long; the name is left unknown.
                        out.remove(&name);
                        return true;
                    }
                    out.insert(name, value);
                } else if matches!(l.kind(), "pattern_list" | "tuple_pattern") && tuple_element(r, 0, src).is_some() {
                    // `BLOCK_M, BLOCK_N = 64, 128`, or `BLOCK_M, num_warps = (32, 4) if d <= 16
                    // else (16, 4)`: each name its element (its own conditional).
                    let mut lc = l.walk();
                    let names: Vec<Node> = l.named_children(&mut lc).collect();
                    for (i, name) in names.into_iter().enumerate() {
                        if let (true, Some(value)) = (name.kind() == "identifier", tuple_element(r, i, src)) {
                            out.insert(node_text(name, src).into_owned(), value);
                        }
                    }
                } else if matches!(l.kind(), "pattern_list" | "tuple_pattern") {
                    // `M, K = a.shape` (or `a.size()`): each name is one dimension.
                    let right = squash(&node_text(r, src));
                    let shape = right.strip_suffix(".shape").or_else(|| right.strip_suffix(".size()"));
                    if let Some(tensor) = shape {
                        let mut lc = l.walk();
                        for (i, name) in l.named_children(&mut lc).enumerate() {
                            if name.kind() == "identifier" {
                                out.insert(node_text(name, src).into_owned(), format!("{tensor}.shape[{i}]"));
                            }
                        }
                    } else if let Some(items) = super::pyhelper::returned(r, src) {
                        // `BLOCK, num_warps = calculate_settings(n_cols)`: the helper's returns.
                        let mut lc = l.walk();
                        let names: Vec<Node> = l.named_children(&mut lc).collect();
                        if names.len() == items.len() {
                            for (name, value) in names.into_iter().zip(items) {
                                if name.kind() == "identifier" {
                                    out.insert(node_text(name, src).into_owned(), value);
                                }
                            }
                        }
                    }
                }
            }
        }
        true
    });
    out
}

/// A local function that only returns a value, as a lambda: `def grid(meta): return (n,)`
/// is `grid` = `lambda meta: (n,)`.
fn one_line_function(def: Node, src: &SourceText) -> Option<(String, String)> {
    let name = node_text(def.child_by_field_name("name")?, src).into_owned();
    let body = def.child_by_field_name("body")?;
    let mut cursor = body.walk();
    let statements: Vec<Node> = body.named_children(&mut cursor).filter(|s| s.kind() != "comment").collect();
    let [ret] = statements[..] else {
        return None;
    };
    let value = ret.named_child(0).filter(|_| ret.kind() == "return_statement")?;
    // A grid function takes the launch's meta-parameters, one argument (no `*args`).
    let [(_, meta)] = parameters(def)[..] else {
        return None;
    };
    if def.child_by_field_name("parameters")?.named_child_count() != 1 {
        return None;
    }
    Some((name, format!("lambda {}: {}", node_text(meta, src), squash(&node_text(value, src)))))
}

/// A class's `__init__` parameters: their defaults, replaced by what the module's
/// `get_init_inputs()` returns for them (KernelBench's convention), in order.
fn init_arguments(node: Node, src: &SourceText) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    if node.kind() != "class_definition" {
        return out;
    }
    let mut init = None;
    walk::preorder(node, |n| {
        if n.kind() == "function_definition" {
            if init.is_none() && n.child_by_field_name("name").is_some_and(|m| node_text(m, src) == "__init__") {
                init = Some(n);
            }
            return false;
        }
        true
    });
    let Some(init) = init else { return out };
    let params: Vec<(Node, Node)> = parameters(init).into_iter().skip(1).collect();
    for (p, name) in &params {
        if let Some(value) = p.child_by_field_name("value") {
            out.insert(node_text(*name, src).into_owned(), squash(&node_text(value, src)));
        }
    }
    let module = node.parent().map(|p| if p.kind() == "decorated_definition" { p.parent().unwrap_or(p) } else { p });
    let mut values = Vec::new();
    if let Some(module) = module {
        let mut cursor = module.walk();
        for def in module.named_children(&mut cursor).filter(|d| d.kind() == "function_definition") {
            if def.child_by_field_name("name").is_none_or(|m| node_text(m, src) != "get_init_inputs") {
                continue;
            }
            walk::preorder(def, |n| {
                if n.kind() == "return_statement" && values.is_empty() {
                    let returned = n.named_child(0).map(|r| squash(&node_text(r, src))).unwrap_or_default();
                    let tuple = returned.replace(['[', ']'], "");
                    values = crate::features::expr::components(&format!("({tuple},)")).unwrap_or_default();
                }
                true
            });
        }
    }
    for ((_, name), value) in params.iter().zip(values) {
        out.insert(node_text(*name, src).into_owned(), value);
    }
    out
}

#[cfg(test)]
mod tests {
    use crate::extract::extract_text;
    use crate::kernel::Language;

    const SRC: &str = r#"
import triton
import triton.language as tl

@triton.jit
def _square(x):
    return x * x

@triton.autotune(
    configs=[
        triton.Config({'BLOCK_SIZE': 1024}, num_warps=4, num_stages=2),
        triton.Config({'BLOCK_SIZE': 2048}, num_warps=8),
    ],
    key=['n_elements'],
)
@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    """Adds two vectors."""
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.load(y_ptr + offsets, mask=mask)
    tl.store(out_ptr + offsets, _square(x) + y, mask=mask)

def add(x, y):
    out = torch.empty_like(x)
    n = out.numel()
    grid = lambda meta: (triton.cdiv(n, meta['BLOCK_SIZE']),)
    add_kernel[grid](x, y, out, n, num_warps=4)
    return out
"#;

    #[test]
    fn a_wrapper_local_assigned_again_is_read_in_terms_of_its_old_value() {
        let src = r#"
import triton
import triton.language as tl

@triton.jit
def k(x_ptr, n, BLOCK: tl.constexpr):
    pass

def run(x):
    n = x.numel()
    BLOCK = 4096
    BLOCK = min(BLOCK, triton.next_power_of_2(n))
    k[(triton.cdiv(n, BLOCK),)](x, n, BLOCK=BLOCK)
"#;
        let ex = extract_text(Language::Triton, src);
        let locals = &ex.kernel("k").expect("kernel").launches[0].locals;
        assert_eq!(locals.get("BLOCK").map(String::as_str), Some("min((4096), triton.next_power_of_2(n))"));
    }

    #[test]
    fn a_grid_written_as_a_local_function_is_read_as_its_lambda() {
        let src = SRC.replace(
            "    grid = lambda meta: (triton.cdiv(n, meta['BLOCK_SIZE']),)\n",
            "    def grid(meta): return (triton.cdiv(n, meta['BLOCK_SIZE']), )\n",
        );
        let ex = extract_text(Language::Triton, &src);
        let l = &ex.kernel("add_kernel").expect("kernel").launches[0];
        assert_eq!(
            l.locals.get("grid").map(String::as_str),
            Some("lambda meta: (triton.cdiv(n, meta['BLOCK_SIZE']), )")
        );
    }

    #[test]
    fn a_librarys_own_wrapper_of_triton_jit_is_a_kernel() {
        let src = SRC
            .replace(
                "import triton\n",
                "import triton\nfrom fast_llm.functional.triton import triton_jit, tl_constexpr\n",
            )
            .replace("@triton.jit\ndef add_kernel", "@triton_jit()\ndef add_kernel")
            .replace("BLOCK_SIZE: tl.constexpr", "BLOCK_SIZE: tl_constexpr");
        let ex = extract_text(Language::Triton, &src);
        let k = ex.kernel("add_kernel").expect("a kernel");
        assert_eq!(k.constexpr_params, vec!["BLOCK_SIZE"]);
        assert_eq!(k.launches.len(), 1);
    }

    #[test]
    fn finds_jit_kernels_autotune_and_launch() {
        let ex = extract_text(Language::Triton, SRC);
        let names: Vec<_> = ex.kernels.iter().map(|k| k.name.as_str()).collect();
        assert_eq!(names, vec!["_square", "add_kernel"]);
        let k = ex.kernel("add_kernel").expect("kernel");
        assert!(k.source.starts_with("@triton.autotune"));
        assert_eq!(k.constexpr_params, vec!["BLOCK_SIZE"]);
        assert_eq!(k.autotune.len(), 2);
        assert_eq!(k.autotune[0].get("BLOCK_SIZE").map(String::as_str), Some("1024"));
        assert_eq!(k.autotune[0].get("num_stages").map(String::as_str), Some("2"));
        assert_eq!(k.helpers.iter().map(|h| h.name.as_str()).collect::<Vec<_>>(), vec!["_square"]);
        let l = &k.launches[0];
        assert_eq!(l.grid.as_deref(), Some("grid"));
        assert_eq!(l.meta.get("num_warps").map(String::as_str), Some("4"));
        assert_eq!(l.args, vec!["x", "y", "out", "n"]);
        assert!(l.locals.get("grid").is_some_and(|g| g.contains("cdiv")));
    }

    #[test]
    fn kernels_written_as_a_classs_static_methods_are_read_and_launched() {
        let src = "import torch\nimport triton\nimport triton.language as tl\n\nclass Scale:\n    @staticmethod\n    @triton.jit\n    \
                   def forward(x_ptr, y_ptr, n, BLOCK: tl.constexpr):\n        offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)\n        \
                   tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=offs < n) * 2.0, mask=offs < n)\n\n\
                   class ScaleOp(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, x):\n        y = torch.empty_like(x)\n        \
                   n = 1 << 24\n        Scale.forward[(triton.cdiv(n, 1024),)](x, y, n, BLOCK=1024)\n        return y\n";
        let ex = extract_text(Language::Triton, src);
        let k = ex.kernel("forward").expect("the static method is a kernel");
        assert_eq!(k.launches.len(), 1, "{:?}", k.launches);
        let p = crate::features::profile(k);
        assert!((p.features.load_bytes / (4.0 * 16_777_216.0) - 1.0).abs() < 0.05, "{:?}", p.features);
    }

    #[test]
    fn a_launch_through_wrap_triton_is_the_kernels_launch() {
        let src = SRC.replace("add_kernel[grid](", "wrap_triton(add_kernel)[grid](");
        let wrapped = extract_text(Language::Triton, &src);
        let k = wrapped.kernel("add_kernel").expect("kernel");
        assert_eq!(k.launches.len(), 1, "{:?}", k.launches);
        assert_eq!(k.launches[0].args, vec!["x", "y", "out", "n"]);
    }

    #[test]
    fn docstrings_comments_and_renames_are_not_changes() {
        let base = extract_text(Language::Triton, SRC);
        let edited = SRC
            .replace("    \"\"\"Adds two vectors.\"\"\"\n", "    # adds\n")
            .replace("mask = offsets", "m = offsets")
            .replace("mask=mask", "mask=m");
        let edited = extract_text(Language::Triton, &edited);
        let (a, b) = (base.kernel("add_kernel").expect("a"), edited.kernel("add_kernel").expect("b"));
        assert_ne!(a.raw_hash, b.raw_hash);
        assert_eq!(a.identity(), b.identity());
        let tuned = extract_text(Language::Triton, &SRC.replace("num_warps=8", "num_warps=16"));
        assert_ne!(a.identity(), tuned.kernel("add_kernel").expect("c").identity());
    }
}
