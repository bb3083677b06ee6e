//! Launch sites (`kernel<<<grid, block, shared, stream>>>(args)`) and what the host code
//! around them says: the launching function's locals at the launch, the branch or `case`
//! a launch lies in, and calls of a host function from other files.

use super::*;

/// `kernel<<<grid, block, shared, stream>>>(args)` sites under `node`.
pub(super) fn launches(node: Node, src: &SourceText, facts: &mut ItemFacts) {
    let mut host_name: Option<String> = None;
    let first = facts.launches.len();
    let mut cases: Vec<Option<crate::extract::SwitchCase>> = Vec::new();
    // The function's library calls (cuBLAS, Thrust, …), met on the same walk as its launches.
    let mut library_calls: Vec<LibraryCall> = Vec::new();
    walk::preorder(node, |n| {
        if n.kind() != "call_expression" {
            return true;
        }
        let mut cursor = n.walk();
        let Some(config) = n.children(&mut cursor).find(|c| c.kind() == "kernel_call_syntax") else {
            if let Some(call) = library_call_at(n, src).filter(|call| !library_calls.contains(call)) {
                library_calls.push(call);
            }
            if let Some(draft) = api::launch(n, node, src) {
                facts.launches.push(draft);
                cases.push(None);
            }
            return true;
        };
        let Some(function) = n.child_by_field_name("function") else {
            return true;
        };
        let (callee, template_args) = match function.kind() {
            "template_function" => {
                let name = function.child_by_field_name("name").map(|c| node_text(c, src).into_owned());
                let args = list_texts(function.child_by_field_name("arguments"), src);
                (name.unwrap_or_default(), args)
            }
            _ => {
                let text = node_text(function, src);
                (text.rsplit("::").next().unwrap_or_default().trim().to_string(), Vec::new())
            }
        };
        let mut c = config.walk();
        let operands: Vec<String> = config.named_children(&mut c).map(|o| squash(&node_text(o, src))).collect();
        let args = list_texts(n.child_by_field_name("arguments"), src);
        // The locals this launch sees: a branch's `const uint BM = 64;` is not the other
        // branch's.
        let locals = host_locals(node, src, n.start_byte());
        // `auto kernel = transpose<32>; kernel<<<…>>>(…)`: a launch of what the local holds.
        let (callee, template_args) = match locals.get(&callee).and_then(|v| kernel_pointer(v)) {
            Some(held) if template_args.is_empty() => held,
            _ => (callee, template_args),
        };
        let mut host_name = host_name.get_or_insert_with(|| enclosing_name(node, src)).clone();
        if host_name.is_empty() {
            // A launch in a class's method (a step's `struct Scan { static void Run() … }`).
            host_name = method_name(n, src).unwrap_or_default();
        }
        let mut draft = draft_at(n, node, src, callee, &operands, args, locals, host_name);
        draft.template_args = template_args;
        facts.launches.push(draft);
        cases.push(switch_case(n, src));
        true
    });
    mark_block_cases(&mut facts.launches, first, cases);
    for draft in &mut facts.launches[first..] {
        draft.site.library_calls.clone_from(&library_calls);
    }
}

/// The function a local holding a kernel names, and its template arguments: `transpose<32>`,
/// `&scale`, `ns::reduce<float, 256>`; `None` for any other value (a call, a ternary, a number).
pub(in crate::extract) fn kernel_pointer(value: &str) -> Option<(String, Vec<String>)> {
    let value = value.trim().trim_start_matches('&').trim();
    let (path, args) = match value.find('<') {
        Some(open) if value.ends_with('>') => (&value[..open], Some(&value[open + 1..value.len() - 1])),
        Some(_) => return None,
        None => (value, None),
    };
    let name = path.rsplit("::").next()?.trim();
    let identifier = |s: &str| {
        s.chars().next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
            && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
    };
    if !identifier(name) || !path.split("::").all(|s| s.is_empty() || identifier(s.trim())) {
        return None;
    }
    let args = match args {
        None => Vec::new(),
        Some(inner) => {
            let (mut out, mut depth, mut start) = (Vec::new(), 0i32, 0);
            for (i, c) in inner.char_indices() {
                match c {
                    '<' | '(' => depth += 1,
                    '>' | ')' => depth -= 1,
                    ',' if depth == 0 => {
                        out.push(inner[start..i].trim().to_string());
                        start = i + 1;
                    }
                    _ => {}
                }
            }
            if depth != 0 {
                return None;
            }
            out.push(inner[start..].trim().to_string());
            out.retain(|a| !a.is_empty());
            out
        }
    };
    Some((name.to_string(), args))
}

/// Prefixes of the calls into GPU libraries that do a launch's worth of work (not their
/// handles, descriptors or settings, see [`library_call`]).
const LIBRARY_PREFIXES: [&str; 8] =
    ["cublas", "cudnn", "cufft", "cusparse", "curand", "cusolver", "cutlass::", "thrust::"];

/// The library call `call` (a `call_expression`) makes, with its arguments, where its
/// callee is one that runs work on the GPU (see [`library_call`]).
pub(in crate::extract) fn library_call_at(call: Node, src: &SourceText) -> Option<LibraryCall> {
    let name = library_call(&node_text(call.child_by_field_name("function")?, src))?;
    Some(LibraryCall { name, args: list_texts(call.child_by_field_name("arguments"), src) })
}

/// The name of the library call `function` (its callee's text), where it is one that runs
/// work on the GPU: `cublasSgemm`, `thrust::sort`, `cub::DeviceReduce::Sum`; not
/// `cublasCreate`, `cudnnSetTensor4dDescriptor` or `thrust::raw_pointer_cast`.
pub(in crate::extract) fn library_call(function: &str) -> Option<String> {
    let name = function.trim().trim_start_matches("::");
    let name = name.split('<').next().unwrap_or(name).trim();
    if let Some(sync) = host_sync(name) {
        return Some(sync);
    }
    let device_wide = name.starts_with("cub::Device") || name.starts_with("hipcub::Device");
    if !device_wide && !LIBRARY_PREFIXES.iter().any(|p| name.starts_with(p)) {
        return None;
    }
    let last = name.rsplit("::").next().unwrap_or(name);
    let setup = ["Create", "Destroy", "Set", "Get", "Status", "Version", "Find", "Workspace", "Plan"]
        .iter()
        .any(|w| last.contains(w));
    let thrust_helper = name.starts_with("thrust::")
        && (["raw_pointer_cast", "device_pointer_cast", "make_", "placeholders", "device_vector", "host_vector"]
            .iter()
            .any(|w| last.starts_with(w))
            || THRUST_OBJECTS.contains(&last)
            || last.ends_with("_iterator"));
    (!setup && !thrust_helper && last.len() > 1).then(|| name.to_string())
}

/// Thrust's function objects and value types, made in a call's arguments
/// (`thrust::plus<float>()`), not algorithms that run.
const THRUST_OBJECTS: [&str; 22] = [
    "plus",
    "minus",
    "multiplies",
    "divides",
    "modulus",
    "negate",
    "maximum",
    "minimum",
    "equal_to",
    "not_equal_to",
    "less",
    "greater",
    "less_equal",
    "greater_equal",
    "logical_and",
    "logical_or",
    "logical_not",
    "identity",
    "square",
    "device_ptr",
    "pair",
    "tuple",
];

/// The host sync a callee is: one of [`crate::kernel::HOST_SYNCS`], or a tensor's `.item()`
/// (a copy to the host, which waits for the GPU), named `.item`.
fn host_sync(name: &str) -> Option<String> {
    if crate::kernel::HOST_SYNCS.contains(&name) {
        return Some(name.to_string());
    }
    let method = name.rsplit_once('.').map(|(_, m)| m)?;
    (method == "item").then(|| ".item".to_string())
}

/// The launch of `callee` by the call `at` in `item`, its configuration (grid, block, shared
/// bytes, stream) as written.
#[allow(clippy::too_many_arguments)]
pub(super) fn draft_at(
    at: Node,
    item: Node,
    src: &SourceText,
    callee: String,
    config: &[String],
    args: Vec<String>,
    locals: BTreeMap<String, String>,
    host_name: String,
) -> LaunchDraft {
    LaunchDraft {
        callee,
        template_args: Vec::new(),
        host_template: Vec::new(),
        host_fn_params: enclosing_params(at, src),
        case: None,
        site: LaunchSite {
            range: node_range(at),
            grid: config.first().cloned(),
            block: config.get(1).cloned(),
            shared_mem: config.get(2).cloned(),
            stream: config.get(3).cloned(),
            meta: BTreeMap::new(),
            args,
            locals,
            host_params: Vec::new(),
            host_defaults: BTreeMap::new(),
            host_name,
            external: None,
            allocations: BTreeMap::new(),
            trips: crate::extract::trips::loop_trips(at, item, src),
            taken: crate::extract::branches::branches(at, item, src),
            library_calls: Vec::new(),
            unreached: false,
            reached: false,
        },
    }
}

/// Where a launch is one case of a `switch (threads) { case 512: k<512><<<…>>>(…); … }`.
fn switch_case(launch: Node, src: &SourceText) -> Option<crate::extract::SwitchCase> {
    let mut at = launch;
    while let Some(parent) = at.parent() {
        if parent.kind() == "function_definition" {
            return None;
        }
        if parent.kind() == "case_statement" {
            let switch = parent.parent().and_then(|b| b.parent()).filter(|s| s.kind() == "switch_statement")?;
            let variable = node_text(switch.child_by_field_name("condition")?, src);
            let variable = variable.trim().trim_start_matches('(').trim_end_matches(')').trim().to_string();
            let body = switch.child_by_field_name("body")?;
            let mut cursor = body.walk();
            let values: Vec<f64> = body
                .named_children(&mut cursor)
                .filter(|c| c.kind() == "case_statement")
                .filter_map(|c| c.child_by_field_name("value"))
                .filter_map(|v| node_text(v, src).trim().parse::<f64>().ok())
                .collect();
            let value = parent.child_by_field_name("value")?;
            let value = node_text(value, src).trim().parse::<f64>().ok()?;
            return Some(crate::extract::SwitchCase { variable, value, values });
        }
        at = parent;
    }
    None
}

/// A switch over block sizes launches one of its cases at run time: each case's launch
/// keeps its case, and assembly keeps the one the switch's variable picks (see
/// `assemble::pick_cases`).
fn mark_block_cases(drafts: &mut [LaunchDraft], first: usize, cases: Vec<Option<crate::extract::SwitchCase>>) {
    for (i, case) in cases.into_iter().enumerate() {
        let case = case.filter(|c| c.values.len() >= 2 && c.values.iter().any(|v| *v >= 32.0));
        if let (Some(d), Some(case)) = (drafts.get_mut(first + i), case) {
            d.case = Some(case);
        }
    }
}

/// The name of the function an item defines (its last `::` part), or "".
pub(super) fn enclosing_name(node: Node, src: &SourceText) -> String {
    let def = if node.kind() == "function_definition" {
        Some(node)
    } else {
        let mut cursor = node.walk();
        let found = node.named_children(&mut cursor).find(|c| c.kind() == "function_definition");
        found
    };
    def.and_then(|d| crate::extract::callers::signature(d, src)).map(|(name, _)| name).unwrap_or_default()
}

/// The name of the method of a class a launch (or call) `at` lies in (`Scan::Run`).
fn method_name(at: Node, src: &SourceText) -> Option<String> {
    let mut node = at;
    while let Some(parent) = node.parent() {
        if parent.kind() == "function_definition" {
            return crate::extract::reach::qualified_name(parent, src).filter(|n| n.contains("::"));
        }
        node = parent;
    }
    None
}

/// `int threads = 256;`, `dim3 block(32, 8);`: local values a launch (or call) at byte `at`
/// may refer to: declared in a block that holds it (not in another branch).
pub(in crate::extract) fn host_locals(node: Node, src: &SourceText, at: usize) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    walk::preorder_with_ancestors(node, |n, ancestors| {
        if n.kind() == "assignment_expression" {
            // After the launch, an assignment reaches it only around a loop holding both.
            let reaches = n.start_byte() < at
                || ancestors.iter().any(|a| {
                    matches!(a.kind(), "for_statement" | "while_statement" | "do_statement")
                        && a.start_byte() <= at
                        && at < a.end_byte()
                });
            if reaches {
                reassign(n, ancestors, src, &mut out);
            }
            return true;
        }
        if n.kind() == "call_expression" {
            sm_count_query(n, src, &mut out);
            return true;
        }
        if n.kind() != "declaration" {
            return true;
        }
        if n.parent().is_some_and(|scope| !(scope.start_byte() <= at && at < scope.end_byte())) {
            return false;
        }
        let ty = n.child_by_field_name("type").map(|t| node_text(t, src).into_owned()).unwrap_or_default();
        let mut cursor = n.walk();
        for decl in n.children_by_field_name("declarator", &mut cursor) {
            // `dim3 block(32, 8);` parses as a function declarator (C++'s vexing parse).
            let (name, value) = match decl.kind() {
                "init_declarator" => (decl.child_by_field_name("declarator"), decl.child_by_field_name("value")),
                "function_declarator" => {
                    (decl.child_by_field_name("declarator"), decl.child_by_field_name("parameters"))
                }
                _ => continue,
            };
            let (Some(name), Some(value)) = (name, value) else { continue };
            if value.kind() == "lambda_expression" && value.start_byte() <= at && at < value.end_byte() {
                // `auto launch = [](…, dim3 grid) { k<<<grid, …>>>(…); }; launch(…, g);`: the
                // lambda's parameters are what its call passes.
                lambda_arguments(node, value, &node_text(name, src), src, &mut out);
                continue;
            }
            let value_text = squash(&node_text(value, src));
            let value_text = if matches!(value.kind(), "argument_list" | "parameter_list") {
                format!("{ty}{value_text}")
            } else if value.kind() == "initializer_list" {
                // `constexpr int BM{64};`, `dim3 block{32, 8};`
                crate::extract::brace_value(&ty, &value_text).unwrap_or(value_text)
            } else {
                value_text
            };
            out.insert(node_text(name, src).into_owned(), value_text);
        }
        false
    });
    out
}

/// Binds the parameters of a lambda holding a launch to the arguments of the first call of
/// it (`name(…)`) in `scope`; a parameter passed under its own name stays unbound.
fn lambda_arguments(scope: Node, lambda: Node, name: &str, src: &SourceText, out: &mut BTreeMap<String, String>) {
    let params = lambda
        .child_by_field_name("declarator")
        .and_then(|d| d.child_by_field_name("parameters"))
        .map(|list| crate::extract::callers::parameter_names(list, src))
        .unwrap_or_default();
    let mut call = None;
    walk::preorder(scope, |n| {
        if call.is_some() {
            return false;
        }
        let called = n.kind() == "call_expression"
            && n.child_by_field_name("function").is_some_and(|f| f.kind() == "identifier" && node_text(f, src) == name);
        if called {
            call = n.child_by_field_name("arguments");
        }
        call.is_none()
    });
    let Some(args) = call else { return };
    let args = list_texts(Some(args), src);
    for (param, arg) in params.into_iter().zip(args) {
        if let Some(param) = param.filter(|p| *p != arg) {
            out.insert(param, arg);
        }
    }
}

/// `cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev)` sets `sms` to the
/// device's SM count (a device query, `num_sms()`), whatever it was initialised with.
fn sm_count_query(call: Node, src: &SourceText, out: &mut BTreeMap<String, String>) {
    let Some(function) = call.child_by_field_name("function") else { return };
    if node_text(function, src).trim() != "cudaDeviceGetAttribute" {
        return;
    }
    let Some(args) = call.child_by_field_name("arguments") else { return };
    let (Some(target), Some(attr)) = (args.named_child(0), args.named_child(1)) else { return };
    if node_text(attr, src).trim() == "cudaDevAttrMultiProcessorCount" {
        let name = node_text(target, src).trim().trim_start_matches('&').trim().to_string();
        out.insert(name, "num_sms()".to_string());
    }
}

/// A later assignment to a local: `blocks = min(blocks, cap);` and `blocks += 1;` update
/// its value, `if (blocks > cap) blocks = cap;` caps it; any other conditional
/// assignment marks it [`SET_ON_SOME_PATHS`] (so a launch that uses it cannot be taken as
/// written, and a job asks for `grid =` instead of launching the wrong shape).
fn reassign(n: Node, ancestors: &[Node], src: &SourceText, out: &mut BTreeMap<String, String>) {
    let (Some(left), Some(right)) = (n.child_by_field_name("left"), n.child_by_field_name("right")) else {
        return;
    };
    let name = node_text(left, src).into_owned();
    let Some(old) = out.get(&name).cloned() else {
        return;
    };
    let right = squash(&node_text(right, src));
    let op = n.child_by_field_name("operator").map(|o| node_text(o, src).into_owned()).unwrap_or_else(|| "=".into());
    let value = match op.strip_suffix('=') {
        Some("") => substitute(&right, &name, &format!("({old})")),
        Some(binary) => format!("({old}) {binary} ({right})"),
        None => return,
    };
    // Conditional: inside an `if`, a loop or a `switch` of the launching function.
    let mut guard = None;
    for p in ancestors.iter().rev() {
        if matches!(p.kind(), "function_definition" | "lambda_expression") {
            break;
        }
        if matches!(
            p.kind(),
            "if_statement"
                | "for_statement"
                | "while_statement"
                | "do_statement"
                | "switch_statement"
                | "conditional_expression"
        ) {
            guard = Some(*p);
            break;
        }
    }
    let value = match guard {
        None => Some(value),
        Some(g) if g.kind() == "if_statement" && g.child_by_field_name("alternative").is_none() => {
            let cond = g.child_by_field_name("condition").map(|c| squash(&node_text(c, src))).unwrap_or_default();
            let cond = cond.trim_start_matches('(').trim_end_matches(')').trim().to_string();
            let cap = [(">", "min"), (">=", "min"), ("<", "max"), ("<=", "max")].into_iter().find_map(|(cmp, f)| {
                let (l, r) = cond.split_once(&format!(" {cmp} "))?;
                (l.trim() == name && r.trim() == right && !r.contains(['<', '>', '='])).then_some(f)
            });
            cap.map(|f| format!("{f}({old}, {right})"))
        }
        Some(_) => None,
    };
    out.insert(name, value.unwrap_or_else(|| SET_ON_SOME_PATHS.to_string()));
}

/// Calls of the host function `host` in a CUDA/C++ text (not kernel launches): their
/// arguments and the calling function's locals.
pub(in crate::extract) fn host_calls(text: &str, host: &str) -> Vec<crate::extract::workspace::HostCall> {
    let src = SourceText::new(crate::kernel::Language::Cuda, text);
    let Some(tree) = src.tree() else { return Vec::new() };
    let mut out = Vec::new();
    let root = tree.root_node();
    let mut cursor = root.walk();
    for item in root.named_children(&mut cursor) {
        if !node_text(item, &src).contains(host) {
            continue;
        }
        walk::preorder(item, |n| {
            if n.kind() != "call_expression" || out.len() >= 16 {
                return true;
            }
            let Some(function) = n.child_by_field_name("function") else { return true };
            if function.kind() != "identifier" || node_text(function, &src) != host {
                return true;
            }
            let mut c = n.walk();
            if n.children(&mut c).any(|ch| ch.kind() == "kernel_call_syntax") {
                return true;
            }
            let args: Vec<String> = n
                .child_by_field_name("arguments")
                .map(|list| {
                    let mut c = list.walk();
                    list.named_children(&mut c).map(|a| squash(&node_text(a, &src))).collect()
                })
                .unwrap_or_default();
            let locals = host_locals(item, &src, n.start_byte());
            out.push(crate::extract::workspace::HostCall { args, locals, at: n.start_byte() });
            true
        });
    }
    out
}
