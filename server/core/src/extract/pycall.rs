//! What the Python around a CUDA string says: the module's names and string values,
//! the calls of a `load_inline` module's host functions (with the shapes `get_inputs()`
//! gives `forward`'s tensors) and CuPy launches `k((grid,), (block,), (args…))`.

use super::pystring::{decode, Decoded};
use super::{node_text, python_parameters, squash, walk, words};
use crate::kernel::LaunchSite;
use crate::source::SourceText;
use std::collections::{BTreeMap, HashMap};
use tree_sitter::Node;

/// What Python passes for one argument of a host function.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum PyValue {
    /// A tensor of this shape (dimension texts, in the module's names).
    Shape(Vec<String>),
    /// A number or a module constant.
    Value(String),
    Unknown,
}

/// The module's top level: assignments and function definitions by name.
pub(super) struct Module<'t> {
    pub(super) assigns: HashMap<String, Node<'t>>,
    pub(super) functions: HashMap<String, Node<'t>>,
    /// Numeric module constants (`batch_size = 16`), as texts.
    pub(super) constants: BTreeMap<String, String>,
}

pub(super) fn module<'t>(root: Node<'t>, src: &SourceText) -> Module<'t> {
    let mut m = Module { assigns: HashMap::new(), functions: HashMap::new(), constants: BTreeMap::new() };
    let mut cursor = root.walk();
    for item in root.named_children(&mut cursor) {
        let item =
            if item.kind() == "decorated_definition" { item.child_by_field_name("definition") } else { Some(item) };
        let Some(item) = item else { continue };
        if item.kind() == "function_definition" {
            if let Some(name) = item.child_by_field_name("name") {
                m.functions.insert(node_text(name, src).into_owned(), item);
            }
            continue;
        }
        let Some((left, right)) = assignment(item) else { continue };
        if left.kind() != "identifier" {
            continue;
        }
        let name = node_text(left, src).into_owned();
        if numeric(right) {
            m.constants.insert(name.clone(), squash(&node_text(right, src)));
        }
        m.assigns.insert(name, right);
    }
    m
}

/// `left = right` of an expression statement (or the assignment itself).
pub(super) fn assignment(node: Node) -> Option<(Node, Node)> {
    let a = if node.kind() == "expression_statement" { node.named_child(0)? } else { node };
    if a.kind() != "assignment" {
        return None;
    }
    Some((a.child_by_field_name("left")?, a.child_by_field_name("right")?))
}

/// An expression of numbers and names (a size), not a call or a string.
pub(super) fn numeric(node: Node) -> bool {
    let mut ok = true;
    walk::preorder(node, |n| {
        ok &= matches!(
            n.kind(),
            "integer" | "float" | "identifier" | "binary_operator" | "unary_operator" | "parenthesized_expression"
        ) || !n.is_named();
        ok
    });
    ok
}

/// The last dotted segment of a callee (`torch.utils.cpp_extension.load_inline`).
pub(super) fn callee_name<'a>(call: Node, src: &'a SourceText) -> Option<std::borrow::Cow<'a, str>> {
    let f = call.child_by_field_name("function")?;
    let f = match f.kind() {
        "attribute" => f.child_by_field_name("attribute")?,
        "identifier" => f,
        _ => return None,
    };
    Some(node_text(f, src))
}

/// A call's positional arguments and its keyword arguments by name.
pub(super) fn arguments<'t>(call: Node<'t>, src: &SourceText) -> (Vec<Node<'t>>, HashMap<String, Node<'t>>) {
    let mut positional = Vec::new();
    let mut keywords = HashMap::new();
    if let Some(list) = call.child_by_field_name("arguments") {
        let mut cursor = list.walk();
        for a in list.named_children(&mut cursor) {
            match a.kind() {
                "keyword_argument" => {
                    if let (Some(n), Some(v)) = (a.child_by_field_name("name"), a.child_by_field_name("value")) {
                        keywords.insert(node_text(n, src).into_owned(), v);
                    }
                }
                "comment" => {}
                _ => positional.push(a),
            }
        }
    }
    (positional, keywords)
}

/// The text value of a string expression: literals, implicit concatenation, `+`, a
/// list of strings (joined by newlines, as `load_inline` joins its sources) and module
/// variables holding any of these.
pub(super) fn string_value(node: Node, src: &SourceText, m: &Module, depth: usize) -> Option<Decoded> {
    if depth > 8 {
        return None;
    }
    match node.kind() {
        "string" => decode(&node_text(node, src), node.start_byte()),
        "concatenated_string" | "list" | "tuple" | "binary_operator" => {
            let separator = if matches!(node.kind(), "list" | "tuple") { "\n" } else { "" };
            if node.kind() == "binary_operator"
                && node.child_by_field_name("operator").map(|o| node_text(o, src)).as_deref() != Some("+")
            {
                return None;
            }
            let mut out: Option<Decoded> = None;
            let mut cursor = node.walk();
            for part in node.named_children(&mut cursor).filter(|c| c.kind() != "comment") {
                let part = string_value(part, src, m, depth + 1)?;
                match &mut out {
                    Some(d) => d.append(part, separator),
                    None => out = Some(part),
                }
            }
            out
        }
        "parenthesized_expression" => string_value(node.named_child(0)?, src, m, depth + 1),
        "identifier" => string_value(*m.assigns.get(node_text(node, src).as_ref())?, src, m, depth + 1),
        _ => None,
    }
}

/// The strings of a list of names (`functions=["relu_cuda"]`).
pub(super) fn names(node: Node, src: &SourceText, m: &Module) -> Vec<String> {
    let node = match node.kind() {
        "identifier" => m.assigns.get(node_text(node, src).as_ref()).copied().unwrap_or(node),
        _ => node,
    };
    if node.kind() == "string" {
        return string_value(node, src, m, 0).map(|d| vec![d.text.trim().to_string()]).unwrap_or_default();
    }
    let mut out = Vec::new();
    let mut cursor = node.walk();
    for n in node.named_children(&mut cursor) {
        if let Some(d) = string_value(n, src, m, 0) {
            out.push(d.text.trim().to_string());
        }
    }
    out
}

/// `k = mod.get_function('name')` (and `mod.get_function('name')` itself) for a
/// RawModule held in `module_var`: (the launching expression, the kernel's name).
pub(super) fn module_functions(root: Node, src: &SourceText, m: &Module, module_var: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    walk::preorder(root, |n| {
        if n.kind() != "call" || callee_name(n, src).as_deref() != Some("get_function") {
            return true;
        }
        let Some(object) = n.child_by_field_name("function").and_then(|f| f.child_by_field_name("object")) else {
            return true;
        };
        if squash(&node_text(object, src)) != module_var {
            return true;
        }
        let (positional, keywords) = arguments(n, src);
        let Some(name) = keywords.get("name").or(positional.first()).map(|a| names(*a, src, m)) else { return true };
        let Some(name) = name.into_iter().next() else { return true };
        if let Some((left, _)) = n.parent().and_then(assignment) {
            out.push((squash(&node_text(left, src)), name.clone()));
        }
        out.push((squash(&node_text(n, src)), name));
        true
    });
    out
}

/// NumPy/CuPy scalar casts a CuPy launch wraps its scalars in (`cp.int32(n)`).
pub(super) fn unwrap_scalar(node: Node, src: &SourceText) -> String {
    if node.kind() == "call" {
        if let Some(name) = callee_name(node, src) {
            let scalar = ["int", "uint", "float", "intc", "uintc", "longlong", "ulonglong", "half", "single", "double"]
                .iter()
                .any(|p| name.strip_prefix(p).is_some_and(|rest| rest.chars().all(|c| c.is_ascii_digit())));
            let (positional, _) = arguments(node, src);
            if scalar && positional.len() == 1 {
                return squash(&node_text(positional[0], src));
            }
        }
    }
    squash(&node_text(node, src))
}

/// Launches `k(grid, block, args, shared_mem=…)` of the launching expressions.
pub(super) fn cupy_launches(
    root: Node,
    src: &SourceText,
    m: &Module,
    launchers: &[(String, String)],
) -> Vec<(String, LaunchSite)> {
    let mut out = Vec::new();
    if launchers.is_empty() {
        return out;
    }
    walk::preorder(root, |n| {
        if n.kind() != "call" {
            return true;
        }
        let Some(f) = n.child_by_field_name("function") else { return true };
        let f = squash(&node_text(f, src));
        let Some((_, kernel)) = launchers.iter().find(|(l, _)| *l == f) else { return true };
        let (positional, keywords) = arguments(n, src);
        let (Some(grid), Some(block)) = (positional.first(), positional.get(1)) else { return true };
        let args = match positional.get(2).or(keywords.get("args")) {
            Some(a) if matches!(a.kind(), "tuple" | "list") => {
                let mut c = a.walk();
                a.named_children(&mut c).filter(|x| x.kind() != "comment").map(|x| unwrap_scalar(x, src)).collect()
            }
            Some(a) => vec![unwrap_scalar(*a, src)],
            None => Vec::new(),
        };
        let function = enclosing_function(n);
        let mut locals = m.constants.clone();
        if let Some(def) = function {
            locals.extend(function_locals(def, src, n.start_byte()));
        }
        let mut site = LaunchSite {
            range: super::node_range(n),
            grid: Some(squash(&node_text(*grid, src))),
            block: Some(squash(&node_text(*block, src))),
            shared_mem: keywords.get("shared_mem").map(|s| squash(&node_text(*s, src))),
            args,
            locals,
            host_name: function
                .and_then(|d| d.child_by_field_name("name"))
                .map(|n| node_text(n, src).into_owned())
                .unwrap_or_default(),
            ..LaunchSite::default()
        };
        // `get_function('segment_sort<512, float>')`: the kernel is `segment_sort`, its
        // template arguments bound in order (`T0`, `T1`: the kernel names them).
        let (kernel, template_args) = crate::measure::nvcc::name_expression_parts(kernel);
        for (i, arg) in template_args.into_iter().enumerate() {
            site.meta.insert(format!("T{i}"), arg);
        }
        out.push((kernel, site));
        true
    });
    out
}

pub(super) fn enclosing_function(mut n: Node) -> Option<Node> {
    while let Some(p) = n.parent() {
        if p.kind() == "function_definition" {
            return Some(p);
        }
        n = p;
    }
    None
}

/// `name = expr` assignments of a function before `before` (later ones win).
pub(super) fn function_locals(def: Node, src: &SourceText, before: usize) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    let Some(body) = def.child_by_field_name("body") else { return out };
    walk::preorder(body, |n| {
        if n.start_byte() >= before || matches!(n.kind(), "function_definition" | "class_definition" | "lambda") {
            return false;
        }
        if let Some((left, right)) = assignment(n).filter(|_| n.kind() == "assignment") {
            if left.kind() == "identifier" {
                out.insert(node_text(left, src).into_owned(), squash(&node_text(right, src)));
            }
        }
        true
    });
    out
}

/// The functions a harness calls with `get_inputs()`'s tensors, in order: a KernelBench
/// module's `forward`, a KernelAgent candidate's `kernel_function` (its harness binds it to
/// the problem's inputs), the evaluation harness's `kf_run`.
pub(super) const INPUT_ENTRIES: [&str; 3] = ["forward", "kernel_function", super::reach::HARNESS_ENTRY];

/// The names of Python function `def`'s parameters, in order (`self` too).
pub(super) fn parameter_names(def: Node, src: &SourceText) -> Vec<String> {
    python_parameters(def).into_iter().map(|(_, name)| node_text(name, src).into_owned()).collect()
}

/// The call of host function `function` that says most about its arguments: one in an
/// input entry ([`INPUT_ENTRIES`]), whose tensor parameters are what `get_inputs()` returns
/// (and whose `*args` passes on the rest of them).
pub(super) fn host_call(root: Node, src: &SourceText, m: &Module, function: &str) -> Option<(String, Vec<PyValue>)> {
    let mut best: Option<(usize, Vec<PyValue>)> = None;
    walk::preorder(root, |n| {
        if n.kind() != "call" || callee_name(n, src).as_deref() != Some(function) {
            return true;
        }
        let def = enclosing_function(n);
        let params: Vec<String> = def.map(|d| parameter_names(d, src)).unwrap_or_default();
        let params: Vec<&str> = params.iter().map(String::as_str).filter(|p| *p != "self").collect();
        let entry = def
            .and_then(|d| d.child_by_field_name("name"))
            .is_some_and(|n| INPUT_ENTRIES.contains(&node_text(n, src).as_ref()));
        let inputs = if entry { get_inputs(src, m) } else { Vec::new() };
        let rest = def.and_then(|d| star_parameter(d, src));
        let (positional, _) = arguments(n, src);
        let mut values: Vec<PyValue> = Vec::new();
        for a in &positional {
            let splat = (a.kind() == "list_splat").then(|| a.named_child(0)).flatten();
            if let Some(name) = splat.map(|s| node_text(s, src)) {
                // `f(*inputs)` in `def kf_run(*inputs)`: the inputs its named parameters leave.
                if rest.as_deref() == Some(name.as_ref()) {
                    values.extend(inputs.iter().skip(params.len()).cloned());
                } else {
                    values.push(PyValue::Unknown);
                }
                continue;
            }
            let name = tensor_name(*a, src);
            values.push(match params.iter().position(|p| *p == name) {
                Some(i) => inputs.get(i).cloned().unwrap_or(PyValue::Unknown),
                None => value(*a, src, m),
            });
        }
        let known = values.iter().filter(|v| **v != PyValue::Unknown).count();
        if best.as_ref().is_none_or(|(k, _)| known > *k) {
            best = Some((known, values));
        }
        true
    });
    best.map(|(_, values)| (function.to_string(), values))
}

/// The name of a function's `*args` parameter.
fn star_parameter(def: Node, src: &SourceText) -> Option<String> {
    let params = def.child_by_field_name("parameters")?;
    let mut cursor = params.walk();
    let star = params.named_children(&mut cursor).find(|p| p.kind() == "list_splat_pattern")?;
    star.named_child(0).filter(|n| n.kind() == "identifier").map(|n| node_text(n, src).into_owned())
}

/// `x`, `x.contiguous()`, `x.cuda()`: the name of the tensor passed.
pub(super) fn tensor_name(node: Node, src: &SourceText) -> String {
    let mut n = node;
    for _ in 0..8 {
        if n.kind() != "call" {
            break;
        }
        let Some(object) = n
            .child_by_field_name("function")
            .filter(|f| f.kind() == "attribute")
            .and_then(|f| f.child_by_field_name("object"))
        else {
            break;
        };
        n = object;
    }
    node_text(n, src).into_owned()
}

/// A number, or a name of the module's constants.
pub(super) fn value(node: Node, src: &SourceText, m: &Module) -> PyValue {
    let text = squash(&node_text(node, src));
    if numeric(node)
        && words(&text)
            .filter(|w| !w.is_empty())
            .all(|w| w.as_bytes()[0].is_ascii_digit() || m.constants.contains_key(w))
    {
        PyValue::Value(text)
    } else {
        PyValue::Unknown
    }
}

/// What `get_inputs()` returns, item by item.
pub(super) fn get_inputs(src: &SourceText, m: &Module) -> Vec<PyValue> {
    let Some((items, locals)) = get_input_nodes(src, m) else { return Vec::new() };
    items.into_iter().map(|n| input(n, src, m, &locals, 0)).collect()
}

/// The element size in bytes of each item `get_inputs()` returns (None: no tensor the
/// reader can follow): `torch.randn(n, dtype=torch.float16)` 2, `.half()` 2, a plain
/// `torch.randn(n)` 4.
pub(super) fn get_input_element_sizes(src: &SourceText, m: &Module) -> Vec<Option<f64>> {
    let Some((items, locals)) = get_input_nodes(src, m) else { return Vec::new() };
    items.into_iter().map(|n| super::pydtype::element_size(n, src, &locals, 0)).collect()
}

/// The items `get_inputs()` returns, with the locals it assigns.
fn get_input_nodes<'t>(src: &SourceText, m: &Module<'t>) -> Option<(Vec<Node<'t>>, HashMap<String, Node<'t>>)> {
    let def = m.functions.get("get_inputs")?;
    let mut ret = None;
    let mut locals: HashMap<String, Node> = HashMap::new();
    if let Some(body) = def.child_by_field_name("body") {
        walk::preorder(body, |n| {
            if ret.is_some() || matches!(n.kind(), "function_definition" | "class_definition" | "lambda") {
                return false;
            }
            if n.kind() == "return_statement" {
                ret = n.named_child(0);
                return false;
            }
            if let Some((left, right)) = assignment(n).filter(|_| n.kind() == "assignment") {
                if left.kind() == "identifier" {
                    locals.insert(node_text(left, src).into_owned(), right);
                }
            }
            true
        });
    }
    let ret = ret?;
    if !matches!(ret.kind(), "list" | "tuple" | "expression_list") {
        return Some((vec![ret], locals));
    }
    let mut cursor = ret.walk();
    let items: Vec<Node> = ret.named_children(&mut cursor).filter(|c| c.kind() != "comment").collect();
    Some((items, locals))
}

/// One input: `torch.randn(batch_size, dim)`, `torch.rand((n,)).cuda()`, a local holding
/// one, or a number.
pub(super) fn input(node: Node, src: &SourceText, m: &Module, locals: &HashMap<String, Node>, depth: usize) -> PyValue {
    if depth > 8 {
        return PyValue::Unknown;
    }
    match node.kind() {
        "identifier" => match locals.get(node_text(node, src).as_ref()) {
            Some(n) => input(*n, src, m, locals, depth + 1),
            None => value(node, src, m),
        },
        "call" => {
            let Some(name) = callee_name(node, src) else { return PyValue::Unknown };
            let (positional, keywords) = arguments(node, src);
            let object = node
                .child_by_field_name("function")
                .filter(|f| f.kind() == "attribute")
                .and_then(|f| f.child_by_field_name("object"));
            let dims: Vec<Node> = match name.as_ref() {
                "randn" | "rand" | "zeros" | "ones" | "empty" => match positional.as_slice() {
                    [one] if matches!(one.kind(), "tuple" | "list") => children(*one),
                    all => all.to_vec(),
                },
                "full" => positional.first().map(|s| children(*s)).unwrap_or_default(),
                "randint" => keywords.get("size").or(positional.get(2)).map(|s| children(*s)).unwrap_or_default(),
                // `.cuda()`, `.to(device)`, `.half()`, `.contiguous()` keep the shape.
                _ => {
                    return match object {
                        Some(o) if o.kind() == "call" => input(o, src, m, locals, depth + 1),
                        _ => PyValue::Unknown,
                    }
                }
            };
            // `torch.rand(batch_size, *input_shape)`: a tuple's dimensions in place.
            let dims: Vec<PyValue> =
                dims.into_iter().flat_map(|d| splat(d, src, m, locals)).map(|d| value(d, src, m)).collect();
            if dims.is_empty() {
                return PyValue::Unknown;
            }
            PyValue::Shape(
                dims.into_iter().map(|d| if let PyValue::Value(v) = d { v } else { "?".to_string() }).collect(),
            )
        }
        // `torch.rand(n) * scale`, `torch.randn(n) + 1`: the tensor operand's shape (a
        // number's arithmetic stays a number).
        "binary_operator" => match value(node, src, m) {
            PyValue::Unknown => ["left", "right"]
                .iter()
                .filter_map(|side| node.child_by_field_name(side))
                .map(|side| input(side, src, m, locals, depth + 1))
                .find(|v| matches!(v, PyValue::Shape(_)))
                .unwrap_or(PyValue::Unknown),
            v => v,
        },
        "parenthesized_expression" => match node.named_child(0) {
            Some(inner) => input(inner, src, m, locals, depth + 1),
            None => PyValue::Unknown,
        },
        _ => value(node, src, m),
    }
}

/// A dimension as written, or the dimensions a starred tuple stands for (`*input_shape`,
/// a local or module-level tuple or list).
fn splat<'t>(d: Node<'t>, src: &SourceText, m: &Module<'t>, locals: &HashMap<String, Node<'t>>) -> Vec<Node<'t>> {
    if d.kind() != "list_splat" {
        return vec![d];
    }
    let Some(inner) = d.named_child(0) else { return vec![d] };
    let held = match inner.kind() {
        "identifier" => {
            let name = node_text(inner, src);
            locals.get(name.as_ref()).or_else(|| m.assigns.get(name.as_ref())).copied()
        }
        _ => Some(inner),
    };
    match held {
        Some(t) if matches!(t.kind(), "tuple" | "list") => children(t),
        _ => vec![d],
    }
}

pub(super) fn children(node: Node) -> Vec<Node> {
    let mut cursor = node.walk();
    if matches!(node.kind(), "tuple" | "list") {
        node.named_children(&mut cursor).filter(|c| c.kind() != "comment").collect()
    } else {
        vec![node]
    }
}
