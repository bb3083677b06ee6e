//! What a Python program runs, for [`super::reach`]: a module whose entry points are known
//! (a GPU MODE `custom_kernel`, a harness's `kf_run`, a KernelBench `ModelNew.forward`)
//! runs the wrappers they reach by name; a kernel launched only from a wrapper they never
//! call (an older step kept beside, a benchmark's other variant) is not part of the run.
//! A module without such an entry point (a library's file) may run every launch.

use super::node_text;
use super::reach::{names_used as names, HostDef};
use crate::source::SourceText;
use tree_sitter::Node;

/// The functions a harness calls by name: GPU MODE's `custom_kernel`, the evaluation
/// harness's `kf_run`.
const ENTRIES: [&str; 2] = ["custom_kernel", super::reach::HARNESS_ENTRY];

/// The classes whose `forward` a KernelBench harness runs.
const MODULES: [&str; 2] = ["ModelNew", "Model"];

/// What calling a class runs without naming it: `Fn.apply(…)` a `torch.autograd.Function`'s
/// `forward`, `Module(…)(x)` its `__init__` and `forward`.
const IMPLICIT: [&str; 3] = ["__init__", "__call__", "forward"];

/// The host definitions of top-level Python `item`: a function (`name`), a class's methods
/// (`Class::method`, with the class itself naming what calling it runs), and a module-level
/// assignment (`OPS = {"a": op_a}`, `custom_kernel = torch.compile(impl)`: its names are
/// its right side's, so a reached function naming it reaches what it holds).
pub(super) fn host_defs(item: Node, src: &SourceText) -> Vec<HostDef> {
    let mut out = Vec::new();
    match item.kind() {
        "function_definition" | "decorated_definition" => out.extend(function(item, src)),
        "class_definition" => class(item, src, &mut out),
        "expression_statement" => {
            if let Some(assign) = item.named_child(0).filter(|n| n.kind() == "assignment") {
                if let (Some(left), Some(right)) =
                    (assign.child_by_field_name("left"), assign.child_by_field_name("right"))
                {
                    let (names, members) = names(right, src);
                    for target in super::names_in(&node_text(left, src)) {
                        let entry = ENTRIES.contains(&target);
                        let (names, members) = (names.clone(), members.clone());
                        out.push(HostDef { name: target.to_string(), entry, names, members });
                    }
                }
            }
        }
        _ => {}
    }
    out
}

/// A function definition (decorated or not): its name and the names its body uses.
fn function(item: Node, src: &SourceText) -> Option<HostDef> {
    let def = match item.kind() {
        "decorated_definition" => item.child_by_field_name("definition")?,
        _ => item,
    };
    if def.kind() != "function_definition" {
        return None;
    }
    let name = node_text(def.child_by_field_name("name")?, src).into_owned();
    let body = def.child_by_field_name("body")?;
    let entry = ENTRIES.contains(&name.as_str());
    let (mut names, members) = names(body, src);
    // A harness entry calling the module its caller built (`def kf_run(model, *inputs):
    // return model(*inputs)`) runs the candidate's `ModelNew`.
    if name == super::reach::HARNESS_ENTRY && calls_a_parameter(def, src) {
        names.push(MODULES[0].to_string());
    }
    Some(HostDef { name, entry, names, members })
}

/// Whether function `def` calls one of its parameters (`model(x)`).
fn calls_a_parameter(def: Node, src: &SourceText) -> bool {
    let params = super::pycall::parameter_names(def, src);
    let mut found = false;
    super::walk::preorder(def, |n| {
        let callee = (n.kind() == "call").then(|| n.child_by_field_name("function")).flatten();
        found |= callee.is_some_and(|f| f.kind() == "identifier" && params.iter().any(|p| *p == node_text(f, src)));
        !found
    });
    found
}

fn class(item: Node, src: &SourceText, out: &mut Vec<HostDef>) {
    let (Some(name), Some(body)) = (item.child_by_field_name("name"), item.child_by_field_name("body")) else {
        return;
    };
    let class = node_text(name, src).into_owned();
    let implicit = IMPLICIT.iter().map(|m| m.to_string()).collect();
    out.push(HostDef { name: class.clone(), entry: false, names: Vec::new(), members: implicit });
    let mut cursor = body.walk();
    let members: Vec<Node> = body.named_children(&mut cursor).collect();
    for method in members.into_iter().filter_map(|m| function(m, src)) {
        let entry = method.name == "forward" && MODULES.contains(&class.as_str());
        out.push(HostDef { name: format!("{class}::{}", method.name), entry, ..method });
    }
}

#[cfg(test)]
mod tests {
    use crate::extract::extract_text;
    use crate::forecast::EmbeddedForecaster;
    use crate::kernel::{Kernel, Language};

    /// Two Triton kernels, each with its wrapper: a module's step kept beside another.
    const TWO_STEPS: &str = r#"
import torch
import triton
import triton.language as tl


@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=m) + tl.load(y_ptr + offs, mask=m), mask=m)


@triton.jit
def matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        acc += tl.dot(tl.load(a_ptr + rm[:, None] * K + (k + rk)[None, :]), tl.load(b_ptr + (k + rk)[:, None] * N + rn[None, :]))
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc)


def add(x, y):
    out = torch.empty_like(x)
    n = x.numel()
    add_kernel[(triton.cdiv(n, 1024),)](x, y, out, n, BLOCK=1024)
    return out


def matmul(a, b):
    M, K = a.shape
    K, N = b.shape
    c = torch.empty((M, N), device=a.device, dtype=torch.float32)
    matmul_kernel[(M // 64, N // 64)](a, b, c, M, N, K, BM=64, BN=64, BK=32)
    return c
"#;

    /// Each launch of `kernel`: (not run, run by an entry point).
    fn marks(src: &str, kernel: &str) -> Vec<(bool, bool)> {
        let ex = extract_text(Language::Triton, src);
        ex.kernel(kernel).expect("kernel").launches.iter().map(|l| (l.unreached, l.reached)).collect()
    }

    #[test]
    fn torch_s_matmul_is_not_the_file_s_matmul() {
        // `kf_run` times cuBLAS through `torch.matmul`; the file's own `matmul` wrapper is
        // named only as torch's member, and its kernel does not run (nor one a comment names).
        let src =
            format!("{TWO_STEPS}\n\ndef kf_run(a, b):\n    # as add(a, b) would\n    return torch.matmul(a, b)\n");
        assert_eq!(marks(&src, "matmul_kernel"), [(true, false)]);
        assert_eq!(marks(&src, "add_kernel"), [(true, false)]);
        let own = src.replace("torch.matmul(a, b)", "matmul(a, b)");
        assert_eq!(marks(&own, "matmul_kernel"), [(false, true)]);
    }

    #[test]
    fn an_entry_calling_the_module_it_is_given_runs_model_new() {
        // The harness builds the candidate's module and hands it to `kf_run`.
        let src = format!(
            "{TWO_STEPS}\n\nclass ModelNew(torch.nn.Module):\n    def forward(self, a, b):\n        return add(a, b)\n\n\n\
             def kf_run(model, *inputs):\n    with torch.no_grad():\n        return model(*inputs)\n"
        );
        assert_eq!(marks(&src, "add_kernel"), [(false, true)]);
        assert_eq!(marks(&src, "matmul_kernel"), [(true, false)]);
    }

    #[test]
    fn a_docstring_names_nothing() {
        // The entry's eager function describes the Triton wrapper beside it; it calls none.
        let src = format!(
            "{TWO_STEPS}\n\ndef eager(a, b):\n    \"\"\"What add does, in plain torch.\"\"\"\n    return a + b\n\n\n\
             def kf_run(a, b):\n    return eager(a, b)\n"
        );
        assert_eq!(marks(&src, "add_kernel"), [(true, false)]);
        let calls = src.replace("return a + b", "return add(a, b)");
        assert_eq!(marks(&calls, "add_kernel"), [(false, true)]);
    }

    #[test]
    fn a_wrapper_custom_kernel_never_calls_does_not_run() {
        let src = format!("{TWO_STEPS}\n\ndef custom_kernel(data):\n    x, y = data\n    return add(x, y)\n");
        assert_eq!(marks(&src, "add_kernel"), [(false, true)]);
        assert_eq!(marks(&src, "matmul_kernel"), [(true, false)]);
        // Through a module-level table, and from a KernelBench `ModelNew.forward`, just as well.
        let table =
            format!("{TWO_STEPS}\nOPS = {{\"mm\": matmul}}\n\n\ndef kf_run(a, b):\n    return OPS[\"mm\"](a, b)\n");
        assert_eq!(marks(&table, "add_kernel"), [(true, false)]);
        assert_eq!(marks(&table, "matmul_kernel"), [(false, true)]);
        let module = format!(
            "{TWO_STEPS}\nclass ModelNew(torch.nn.Module):\n    def forward(self, a, b):\n        return matmul(a, b)\n"
        );
        assert_eq!(marks(&module, "add_kernel"), [(true, false)]);
        assert_eq!(marks(&module, "matmul_kernel"), [(false, true)]);
    }

    #[test]
    fn a_module_without_an_entry_point_may_run_every_launch() {
        assert_eq!(marks(TWO_STEPS, "add_kernel"), [(false, false)]);
        assert_eq!(marks(TWO_STEPS, "matmul_kernel"), [(false, false)]);
    }

    #[test]
    fn an_autograd_backward_runs_only_where_the_entry_runs_backward() {
        let autograd = format!(
            "{TWO_STEPS}\nclass Fn(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, x, y):\n        \
             return add(x, y)\n\n    @staticmethod\n    def backward(ctx, g):\n        return matmul(g, g), None\n\n\n"
        );
        let forward = format!("{autograd}def kf_run(x, y):\n    return Fn.apply(x, y)\n");
        assert_eq!(marks(&forward, "add_kernel"), [(false, true)]);
        assert_eq!(marks(&forward, "matmul_kernel"), [(true, false)]);
        let both = format!("{autograd}def kf_run(x, y):\n    z = Fn.apply(x, y)\n    z.backward(z)\n    return z\n");
        assert_eq!(marks(&both, "matmul_kernel"), [(false, true)]);
    }

    #[test]
    fn a_kernel_the_entry_never_calls_is_not_costed_as_part_of_the_program() {
        // A submission keeps an earlier step's matmul beside the add its entry runs: the
        // program runs the add alone, as a file without the matmul does.
        let entry = "\n\ndef custom_kernel(data):\n    x, y = data\n    return add(x, y)\n";
        let with = extract_text(Language::Triton, &format!("{TWO_STEPS}{entry}")).kernels;
        let (head, _) = TWO_STEPS.split_once("@triton.jit\ndef matmul_kernel").expect("matmul");
        let alone = format!("{head}def add(x, y):{}", TWO_STEPS.split_once("def add(x, y):").expect("add").1);
        let alone = alone.split_once("\n\ndef matmul(").expect("wrapper").0.to_string();
        let without = extract_text(Language::Triton, &format!("{alone}{entry}")).kernels;
        assert_eq!((with.len(), without.len()), (2, 1));
        let p = EmbeddedForecaster::new();
        let cost = |ks: &[Kernel]| {
            p.program_profile(&ks.iter().collect::<Vec<_>>(), 4096.0, 4096.0).expect("profile").cost.total
        };
        assert_eq!(cost(&with), cost(&without));
    }
}
