//! PyTorch operations a launching function runs beside its kernels (`mean =
//! x.mean(dim=1)`, `h = F.silu(a) * b`, `y = x @ w`): each is a launch whose bytes and flops
//! are counted from the sizes of the tensors it reads, so a program that computes part of
//! its work in torch ops is not forecast as if that part were free. Read from the launching
//! function's assignments (the launch's locals); an op whose tensors' sizes the code does
//! not give is costed at the size assumed for the program, like any unknown size.

use super::cost::{Cost, Rates};
use super::expr::Env;
use super::{Features, Profile};
use crate::kernel::{Language, LaunchSite};

/// One torch operation: its name and what it costs per element of its input.
#[derive(Clone, Debug, PartialEq)]
pub struct TorchOp {
    /// The assigned name and the operation (`mean = x.mean(...)` → `x.mean`).
    pub name: String,
    /// Passes over the input's bytes (reads plus writes, in input sizes).
    pub passes: f64,
    /// Arithmetic per input element.
    pub flops_per_element: f64,
    /// A matrix product: flops grow as elements^1.5 (square operands).
    pub matmul: bool,
    /// The tensor the op reads first (for its size), if named.
    pub input: Option<String>,
    /// A fill's shape as a product (`torch.zeros((), …)` → `1`, `torch.zeros(b, n)` → `b*n`).
    pub shape: Option<String>,
}

/// Functions and methods that allocate without computing or only view (free here).
const FREE: [&str; 16] = [
    "empty",
    "empty_like",
    "empty_strided",
    "view",
    "reshape",
    "view_as",
    "unsqueeze",
    "squeeze",
    "t",
    "transpose",
    "permute",
    "expand",
    "size",
    "stride",
    "numel",
    "dim",
];

/// Element-wise functions and methods (one read, one write).
const ELEMENTWISE: [&str; 37] = [
    "sub",
    "div",
    "pow",
    "square",
    "where",
    "masked_fill",
    "maximum",
    "minimum",
    "lerp",
    "sin",
    "cos",
    "erf",
    "leaky_relu",
    "relu",
    "gelu",
    "silu",
    "sigmoid",
    "tanh",
    "exp",
    "exp2",
    "log",
    "sqrt",
    "rsqrt",
    "abs",
    "neg",
    "clamp",
    "float",
    "half",
    "bfloat16",
    "to",
    "contiguous",
    "clone",
    "zeros_like",
    "ones_like",
    "copy_",
    "mul",
    "add",
];

/// Reductions over a dimension (one read, a small write).
const REDUCTIONS: [&str; 12] =
    ["sum", "mean", "var", "std", "var_mean", "std_mean", "max", "min", "amax", "amin", "norm", "argmax"];

/// Functions that fill a new tensor of the shape their arguments give (one write).
const FILLS: [&str; 3] = ["zeros", "ones", "full"];

/// Row-wise normalisations (about two passes in torch's fused kernels).
const ROWWISE: [&str; 7] = ["softmax", "log_softmax", "layer_norm", "rms_norm", "cross_entropy", "cumsum", "logsumexp"];

/// Functions that join tensors into a new one (a read and a write of everything).
const JOINS: [&str; 2] = ["cat", "stack"];

const MATMUL: [&str; 6] = ["matmul", "mm", "bmm", "linear", "einsum", "addmm"];

/// The torch operations among a launching function's assignments, in name order.
pub fn torch_ops(site: &LaunchSite) -> Vec<TorchOp> {
    site.locals.iter().filter_map(|(name, value)| classify(name, value)).collect()
}

/// `h = x @ w`, `m = x.mean(dim=-1)`, `y = torch.nn.functional.silu(a) * b`.
fn classify(name: &str, value: &str) -> Option<TorchOp> {
    let v = value.trim();
    if v.contains('@') {
        let input = v.split('@').next().map(|s| s.trim().to_string());
        return Some(TorchOp {
            name: format!("{name} = matmul"),
            passes: 3.0,
            flops_per_element: 0.0,
            matmul: true,
            input,
            shape: None,
        });
    }
    let open = v.find('(')?;
    let callee = &v[..open];
    let function = callee.rsplit('.').next()?.trim();
    let receiver = callee.rsplit_once('.').map(|(r, _)| r.trim()).unwrap_or("");
    let is_torch = callee.starts_with("torch.") || callee.starts_with("F.") || callee.starts_with("nn.");
    let method = !is_torch && !receiver.is_empty() && receiver.chars().all(|c| c.is_alphanumeric() || c == '_');
    if !(is_torch || method) || FREE.contains(&function) {
        return None;
    }
    let first_arg = first_tensor(&v[open + 1..]);
    let input = if method { Some(receiver.to_string()) } else { first_arg };
    let label = format!("{name} = {}", if method { format!("{receiver}.{function}") } else { callee.to_string() });
    if FILLS.contains(&function) && is_torch {
        return Some(TorchOp {
            name: label,
            passes: 1.0,
            flops_per_element: 0.0,
            matmul: false,
            input: None,
            shape: Some(fill_shape(&v[open + 1..v.rfind(')').unwrap_or(v.len())])),
        });
    }
    let (passes, flops, matmul) = if MATMUL.contains(&function) {
        (3.0, 0.0, true)
    } else if JOINS.contains(&function) && is_torch {
        (2.0, 0.0, false)
    } else if ROWWISE.contains(&function) {
        (2.0, 8.0, false)
    } else if REDUCTIONS.contains(&function) {
        (1.0, 1.0, false)
    } else if ELEMENTWISE.contains(&function) || function.starts_with("zeros") || function.starts_with("ones") {
        (2.0, 2.0, false)
    } else {
        return None;
    };
    // A binary element-wise op on the result (`F.silu(a) * b`) reads one more tensor.
    let extra = if !matmul && v[v.rfind(')').unwrap_or(0)..].contains(['*', '+', '-', '/']) { 1.0 } else { 0.0 };
    Some(TorchOp { name: label, passes: passes + extra, flops_per_element: flops, matmul, input, shape: None })
}

/// The tensor a call's arguments (`args`: the text after its `(`) read first: `a` of
/// `a, dim=1)`, of `[a.view(-1), b])` (`torch.cat`) and of `a.contiguous())`.
fn first_tensor(args: &str) -> Option<String> {
    let mut depth = 0i32;
    let end = args
        .char_indices()
        .find(|&(_, c)| {
            match c {
                '(' | '[' | '{' => depth += 1,
                ')' | ']' | '}' => depth -= 1,
                _ => {}
            }
            depth < 0 || (depth == 0 && c == ',')
        })
        .map_or(args.len(), |(i, _)| i);
    let first = args[..end].trim().trim_start_matches(['[', '(']).trim();
    let first = first.split([',', ']']).next().unwrap_or(first).trim();
    // A view of the tensor is the tensor: `a.view(-1)` → `a`.
    let head = first.split('(').next().unwrap_or(first);
    let tensor = match head.rsplit_once('.') {
        Some((receiver, method)) if FREE.contains(&method) || method == "contiguous" => receiver,
        _ => first,
    };
    Some(tensor.trim().to_string()).filter(|t| !t.is_empty())
}

/// The element count of a fill's positional arguments as a product: `(), device=d` → `1`,
/// `(b, n)` → `(b)*(n)`, `b, n, dtype=t` → `(b)*(n)`.
fn fill_shape(args: &str) -> String {
    let positional: Vec<&str> = split_top(args).into_iter().take_while(|a| !a.contains('=')).collect();
    let dims: Vec<&str> = match positional[..] {
        // One tuple or list argument: its items are the dimensions.
        [one] if (one.starts_with('(') && one.ends_with(')')) || (one.starts_with('[') && one.ends_with(']')) => {
            split_top(&one[1..one.len() - 1])
        }
        _ => positional,
    };
    let dims: Vec<String> = dims.into_iter().filter(|d| !d.is_empty()).map(|d| format!("({d})")).collect();
    if dims.is_empty() {
        "1".to_string()
    } else {
        dims.join("*")
    }
}

/// `text` split at its top-level commas, each part trimmed.
fn split_top(text: &str) -> Vec<&str> {
    crate::declaration::split_top(text, ',').into_iter().map(str::trim).collect()
}

/// A torch op as one launch's profile: its tensor's elements from `env` (`x.numel()`), or
/// `unknown` where nothing gives them; bytes at `elem` bytes each.
pub fn profile(op: &TorchOp, env: &Env, elem: f64, unknown: f64, rates: &Rates) -> Profile {
    let exact = |t: &str| env.eval(t).filter(|e| e.guesses == 0).map(|e| e.value);
    let elements = match &op.shape {
        Some(shape) => exact(shape),
        None => op.input.as_deref().and_then(|x| exact(&format!("{x}.numel()"))),
    };
    let elements = elements.unwrap_or(unknown).max(1.0);
    let bytes = op.passes * elements * elem;
    let flops = if op.matmul { 2.0 * elements.powf(1.5) } else { op.flops_per_element * elements };
    let features = Features {
        load_bytes: bytes * 0.5,
        store_bytes: bytes * 0.5,
        scalar_ops: if op.matmul { 0.0 } else { flops },
        tensor_flops: if op.matmul { flops } else { 0.0 },
        global_passes: op.passes,
        launches: 1.0,
        ..Features::default()
    };
    let compute = if op.matmul { flops * rates.tensor_flop * 4.0 } else { flops * rates.scalar_op };
    let cost =
        Cost { memory: bytes / 0.9, compute, efficiency: 0.9, overhead: rates.launch, ..Cost::default() }.combine();
    Profile { language: Language::Triton, features, cost, guesses: 0, assumed: Vec::new() }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn torch_ops_in_a_wrapper_are_found_and_costed_by_size() {
        let mut site = LaunchSite::default();
        for (k, v) in [
            ("mean", "x.mean(dim=1, keepdim=True)"),
            ("h", "torch.nn.functional.silu(a) * b"),
            ("y", "torch.empty_like(x)"),
            ("n", "x.numel()"),
            ("out", "x @ w"),
        ] {
            site.locals.insert(k.into(), v.into());
        }
        let ops = torch_ops(&site);
        let names: Vec<&str> = ops.iter().map(|o| o.name.as_str()).collect();
        assert_eq!(names, vec!["h = torch.nn.functional.silu", "mean = x.mean", "out = matmul"], "{ops:?}");
        let mut env = Env::default();
        env.define("x.numel()", "1024");
        let small = profile(&ops[1], &env, 4.0, 1.0, &Rates::H100);
        env.define("x.numel()", "1048576");
        let big = profile(&ops[1], &env, 4.0, 1.0, &Rates::H100);
        assert_eq!(big.features.load_bytes, 1024.0 * small.features.load_bytes);
        assert!(big.cost.total > small.cost.total);
    }

    #[test]
    fn joins_and_more_element_wise_functions_are_costed() {
        let mut site = LaunchSite::default();
        site.locals.insert("flat".into(), "torch.cat([a.view(-1), b.view(-1)])".into());
        site.locals.insert("d".into(), "torch.where(m, x, y)".into());
        site.locals.insert("n".into(), "len(tensors)".into());
        let ops = torch_ops(&site);
        let names: Vec<&str> = ops.iter().map(|o| o.name.as_str()).collect();
        assert_eq!(names, vec!["d = torch.where", "flat = torch.cat"], "{ops:?}");
        assert_eq!(ops[1].input.as_deref(), Some("a"));
        assert_eq!(first_tensor("x, dim=1)").as_deref(), Some("x"));
        assert_eq!(first_tensor("a) * b").as_deref(), Some("a"));
        assert_eq!(first_tensor(")"), None);
    }

    #[test]
    fn a_fill_is_sized_by_its_shape_and_var_mean_is_a_reduction() {
        let mut site = LaunchSite::default();
        site.locals.insert("out".into(), "torch.zeros((), device=x.device, dtype=torch.float32)".into());
        site.locals.insert("acc".into(), "torch.zeros(b, n, device='cuda')".into());
        site.locals.insert("stats".into(), "torch.var_mean(xg, dim=1, correction=0)".into());
        let ops = torch_ops(&site);
        assert_eq!(ops.len(), 3, "{ops:?}");
        let mut env = Env::default();
        env.define("b", "8");
        env.define("n", "1024");
        let unknown = 4_194_304.0;
        let by_name = |n: &str| ops.iter().find(|o| o.name.starts_with(n)).expect("op");
        let scalar = profile(by_name("out"), &env, 4.0, unknown, &Rates::H100);
        assert_eq!(scalar.features.store_bytes, 2.0);
        let acc = profile(by_name("acc"), &env, 4.0, unknown, &Rates::H100);
        assert_eq!(acc.features.load_bytes + acc.features.store_bytes, 8.0 * 1024.0 * 4.0);
        assert!(by_name("stats").name.contains("var_mean"));
    }
}
