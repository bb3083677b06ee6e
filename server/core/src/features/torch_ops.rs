//! PyTorch operations a launching function runs beside its kernels (`mean =
//! x.mean(dim=1)`, `h = F.silu(a) * b`, `y = x @ w`): each is a launch whose bytes and flops
//! are counted from the sizes of the tensors it reads, so a program that computes part of
//! its work in torch ops is not forecast as if that part were free. Read from the launching
//! function's assignments (the launch's locals); an op whose tensors' sizes the code does
//! not give is costed at the size assumed for the program, like any unknown size.

mod cost;
mod kinds;
mod layers;
pub mod library;
mod parse;

use crate::kernel::LaunchSite;
pub use cost::{profile, Work, HOST_SYNC};
use kinds::{kind, Kind, NOT_OPS, QUERIES, TENSOR_ATTRS};
use parse::Expr;
use std::collections::{BTreeMap, BTreeSet};

/// The elements a tensor of a torch operation has, read from the launch's names when
/// the operation is costed.
#[derive(Clone, Debug, PartialEq)]
pub enum Size {
    /// The tensor a name holds: its `x.numel()`, or its defining expression's size.
    Of(String),
    /// A fill's shape as a product (`torch.zeros((), …)` → `1`, `torch.zeros(b, n)` → `b*n`).
    Fill(String),
    /// The larger of several (a broadcast's result).
    Max(Vec<Size>),
    /// All of several (a join's result).
    Sum(Vec<Size>),
    /// A reduction along a dimension: about the square root of its input (a row's sum).
    Reduced(Box<Size>),
    /// A reduction along the dimension a text names (`x.mean(-1)` → `-1`): its input's
    /// elements over that dimension's length where the input's shape is known, else
    /// [`Size::Reduced`]'s guess.
    Along(Box<Size>, String),
    /// One element (a full reduction).
    One,
    /// A slice of a tensor whose bounds are known only at run time (`w[:, a:b]`): at most
    /// the tensor, costed so and counted as a guess.
    Part(Box<Size>),
    /// An `einsum`'s result (`"...is,...js->...ijs"`, the operands): the product of its
    /// output's index lengths (see `cost::einsum_space`).
    Einsum(Vec<Size>, String),
    /// `torch.diag(x)`: the square matrix a vector spans, or a matrix's diagonal, as the
    /// launch gives the operand's rank (else the operand's size).
    Diag(Box<Size>),
    /// Nothing says: the size assumed for the program.
    Unknown,
}

/// One torch operation: a launch that reads its tensor operands and writes its result.
#[derive(Clone, Debug, PartialEq)]
pub struct TorchOp {
    /// The assigned name and the operation (`mean = x.mean(...)` → `mean = x.mean`,
    /// `z = x - m` → `z = -`).
    pub name: String,
    /// The tensors it reads (a scalar operand reads nothing).
    pub reads: Vec<Size>,
    /// The tensor it writes.
    pub writes: Size,
    /// The arithmetic it does.
    pub work: Work,
}

/// The torch operations among a launching function's assignments, in name order (an
/// assignment's own in the order they run: `y = a * b + c` is a multiply, then an add),
/// then its GPU library calls (see [`library`]).
pub fn torch_ops(site: &LaunchSite) -> Vec<TorchOp> {
    let tensors = tensor_names(site);
    let mut out = Vec::new();
    for (name, value) in &site.locals {
        // `self.w = nn.Parameter(…)` is set up once, in `__init__`, not run per call.
        if name.starts_with("self.") {
            continue;
        }
        let Some(expr) = parse::parse(value) else { continue };
        let mut reader = Reader { locals: &site.locals, tensors: &tensors, ops: Vec::new(), own: name, depth: 0 };
        reader.value(&expr);
        let mut seen: BTreeMap<String, usize> = BTreeMap::new();
        for (what, mut op) in reader.ops {
            let count = seen.entry(what.clone()).or_insert(0);
            *count += 1;
            op.name = if *count == 1 { format!("{name} = {what}") } else { format!("{name} = {what} #{count}") };
            out.push(op);
        }
    }
    // A CUDA function's library calls (cuBLAS, Thrust, CUB), costed alike.
    out.extend(library::library_ops(site));
    out
}

/// Module paths whose functions are torch operations (`torch.exp`, `F.silu`).
/// An `einsum`'s equation, its first argument where written as a string (`"bij,bjk->bik"`).
fn equation(inside: &str) -> Option<String> {
    let rest = inside.trim_start().strip_prefix(['"', '\''])?;
    rest.split(['"', '\'']).next().map(str::to_string)
}

/// Torch functions a file calls by their bare name once imported (`from torch import
/// einsum`): none is a name a file gives its own helpers.
pub(crate) const BARE_TORCH: [&str; 4] = ["einsum", "bmm", "baddbmm", "addmm"];

fn is_torch_module(path: &str) -> bool {
    matches!(path, "torch" | "F" | "nn" | "torch.nn.functional" | "nn.functional" | "torch.special" | "torch.linalg")
}

/// Names the launching function holds tensors in, by how they are used: `x.shape`,
/// `x.numel()`, `x.mean(…)` (a method of a tensor), and the launching function's
/// parameters passed straight to the kernel (a scalar one sizes the grid or has a default).
fn tensor_names(site: &LaunchSite) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let texts: Vec<&str> = site
        .locals
        .values()
        .chain(&site.args)
        .chain(site.grid.iter())
        .chain(site.meta.values())
        .map(String::as_str)
        .collect();
    let mut bare = BTreeSet::new();
    for text in &texts {
        let bytes = text.as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            let c = bytes[i];
            if !(c.is_ascii_alphabetic() || c == b'_')
                || (i > 0 && matches!(bytes[i - 1], b'.' | b'_'))
                || (i > 0 && bytes[i - 1].is_ascii_alphanumeric())
            {
                i += 1;
                continue;
            }
            let start = i;
            while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                i += 1;
            }
            let word = &text[start..i];
            if bytes.get(i) != Some(&b'.') {
                bare.insert(word);
                continue;
            }
            let rest = &text[i + 1..];
            let attr: &str = rest.split(|c: char| !(c.is_alphanumeric() || c == '_')).next().unwrap_or_default();
            let torch_like = TENSOR_ATTRS.contains(&attr) || kind(attr).is_some();
            if torch_like && !["self", "torch", "F", "nn", "triton", "tl", "math", "np", "cp"].contains(&word) {
                out.insert(word.to_string());
            }
        }
    }
    let grid_words: BTreeSet<&str> = site
        .grid
        .iter()
        .chain(site.meta.values())
        .flat_map(|t| crate::extract::words(t))
        .filter(|w| bare.contains(w))
        .collect();
    for arg in &site.args {
        let arg = arg.trim();
        if site.host_params.iter().any(|p| p == arg)
            && !site.host_defaults.contains_key(arg)
            && !grid_words.contains(arg)
        {
            out.insert(arg.to_string());
        }
    }
    out
}

/// Reads one assignment's expression: the tensor each part yields (None: a scalar) and the
/// operations that run.
struct Reader<'a> {
    locals: &'a BTreeMap<String, String>,
    tensors: &'a BTreeSet<String>,
    /// (what runs, the operation), in the order they run.
    ops: Vec<(String, TorchOp)>,
    /// The name being assigned: within its own value it is the earlier tensor of that name.
    own: &'a str,
    depth: usize,
}

impl Reader<'_> {
    fn emit(&mut self, what: String, reads: Vec<Size>, writes: Size, work: Work) {
        self.ops.push((what, TorchOp { name: String::new(), reads, writes, work }));
    }

    fn value(&mut self, e: &Expr) -> Option<Size> {
        match e {
            Expr::Number | Expr::Str => None,
            Expr::Name(n) => self.name(n),
            Expr::Attr(base, attr) => match e.dotted() {
                // `self.weight`, set in `__init__`.
                Some(d) if self.locals.contains_key(&d) => self.name(&d),
                _ if matches!(attr.as_str(), "T" | "mT" | "data") => self.value(base),
                // `torch.linalg.cholesky_ex(a).L`, `x.max(dim=1).values`: the call runs, and
                // its result's field is about as large (its shape or dtype is no tensor).
                _ if matches!(**base, Expr::Call(..)) => {
                    let s = self.value(base);
                    s.filter(|_| !matches!(attr.as_str(), "shape" | "dtype" | "device" | "ndim" | "is_cuda"))
                }
                _ => None,
            },
            Expr::Index(base, false) => self.value(base),
            Expr::Index(base, true) => self.value(base).map(|s| Size::Part(Box::new(s))),
            Expr::Seq(items) => {
                for item in items {
                    self.value(item);
                }
                None
            }
            Expr::Unary(x) => {
                let s = self.value(x)?;
                self.emit("neg".into(), vec![s.clone()], s.clone(), Work::PerElement(1.0));
                Some(s)
            }
            Expr::Binary(op, l, r) => {
                let reads: Vec<Size> = [self.value(l), self.value(r)].into_iter().flatten().collect();
                let first = reads.first()?.clone();
                if *op == "@" {
                    self.emit("matmul".into(), reads, first.clone(), Work::Matmul);
                    return Some(first);
                }
                let out = broadcast(&reads);
                self.emit((*op).to_string(), reads, out.clone(), Work::PerElement(1.0));
                Some(out)
            }
            Expr::Call(callee, args, keywords, inside) => self.call(callee, args, keywords, inside),
        }
    }

    /// How many numbers a list literal holds (`[0.299, 0.587, 0.114]`, nested lists too);
    /// `None` for anything else (a comprehension, a name).
    fn numbers(e: &Expr) -> Option<usize> {
        match e {
            Expr::Number => Some(1),
            Expr::Unary(x) if matches!(**x, Expr::Number) => Some(1),
            Expr::Seq(items) if !items.is_empty() => items.iter().map(Self::numbers).sum(),
            _ => None,
        }
    }

    /// A name: a tensor by its use, or a local holding one (its size, as its value has).
    fn name(&mut self, n: &str) -> Option<Size> {
        let local = match self.locals.get(n).and_then(|v| parse::parse(v)) {
            Some(e) if n != self.own && self.depth <= 6 => {
                let mut inner = Reader {
                    locals: self.locals,
                    tensors: self.tensors,
                    ops: Vec::new(),
                    own: n,
                    depth: self.depth + 1,
                };
                inner.value(&e)
            }
            _ => None,
        };
        local.or_else(|| self.tensors.contains(n).then(|| Size::Of(n.to_string())))
    }

    fn call(&mut self, callee: &Expr, args: &[Expr], keywords: &[(String, Expr)], inside: &str) -> Option<Size> {
        let (receiver, function) = match callee {
            Expr::Attr(base, f) => (Some(&**base), f.as_str()),
            Expr::Name(f) => (None, f.as_str()),
            // `kernel[grid](x, y, n)`: a kernel the file launches but does not define (it is
            // imported): never free, but what it does is not in the file: its tensors read
            // once and the largest written, a guess.
            Expr::Index(base, _) if base.dotted().is_some() => {
                let tensors: Vec<Size> = args.iter().filter_map(|a| self.value(a)).collect();
                keywords.iter().for_each(|(_, v)| drop(self.value(v)));
                if !tensors.is_empty() {
                    let out = broadcast(&tensors);
                    self.emit(format!("{}[…]", base.dotted().unwrap_or_default()), tensors, out, Work::Launch);
                }
                return None;
            }
            _ => {
                self.value(callee);
                return None;
            }
        };
        // `from torch import einsum`: a few torch functions no file names its own.
        let bare = receiver.is_none() && BARE_TORCH.contains(&function);
        let module = bare || receiver.and_then(Expr::dotted).is_some_and(|d| is_torch_module(&d));
        if module && NOT_OPS.contains(&function) {
            // `torch.tensor([0.299, 0.587, 0.114])`: no work, a tensor of the literal's numbers.
            let literal =
                matches!(function, "tensor" | "as_tensor").then(|| args.first().and_then(Self::numbers)).flatten();
            return literal.map(|n| Size::Fill(n.to_string()));
        }
        let kind = kind(function);
        // `self.conv(x)`: an `nn` layer `__init__` made.
        if matches!(receiver, Some(Expr::Name(r)) if r == "self") {
            if let Some((what, work, weights)) = layers::layer(self.locals, function) {
                let first = args.first().and_then(|a| self.name_or_value(a))?;
                let reads = std::iter::once(first.clone()).chain(weights.map(|w| Size::Fill(format!("{w}")))).collect();
                self.emit(what, reads, first.clone(), work.unwrap_or(Work::Unknown));
                return Some(first);
            }
        }
        let (what, mut tensors) = match receiver {
            Some(r) if !module => {
                let what = format!("{}.{function}", r.dotted().unwrap_or_else(|| "(…)".into()));
                // A method of something that is no tensor (`triton.cdiv(n, B)`) runs nothing.
                let Some(s) = self.value(r) else {
                    args.iter().for_each(|a| drop(self.value(a)));
                    return None;
                };
                if QUERIES.contains(&function) {
                    return None;
                }
                (what, vec![s])
            }
            _ if !module => {
                // A plain function (`min(…)`, a helper): its arguments may run operations.
                args.iter().for_each(|a| drop(self.value(a)));
                return None;
            }
            _ => (callee.dotted().unwrap_or_else(|| function.to_string()), Vec::new()),
        };
        for (i, a) in args.iter().enumerate() {
            match (a, self.value(a)) {
                (_, Some(s)) => tensors.push(s),
                // `torch.cat([a, b])`: each item.
                (Expr::Seq(items), None) => tensors.extend(items.iter().filter_map(|x| self.name_or_value(x))),
                // A torch function's first operand is a tensor, whatever else says so.
                (Expr::Name(n), None) if i == 0 && module && kind.is_some_and(|k| k != Kind::Free) => {
                    tensors.push(Size::Of(n.clone()))
                }
                _ => {}
            }
        }
        for (_, v) in keywords {
            self.value(v);
        }
        // `torch.diag(A) @ B` of a vector `A`: an N × N matrix, written once.
        if module && matches!(function, "diag" | "diag_embed") {
            let first = tensors.first().cloned().unwrap_or(Size::Unknown);
            let out = Size::Diag(Box::new(first.clone()));
            self.emit(what, vec![first], out.clone(), Work::PerElement(0.0));
            return Some(out);
        }
        let Some(kind) = kind else {
            // An unknown method keeps its tensor (`.cuda()`, `.detach()`); an unknown torch
            // function makes one of its first tensor's size, at a cost nothing here knows.
            let first = tensors.first().cloned().unwrap_or(Size::Unknown);
            if module {
                self.emit(what, tensors, first.clone(), Work::Unknown);
            }
            return Some(first);
        };
        let first = tensors.first().cloned();
        // An `einsum`'s equation, where its first argument writes one.
        let einsum = (function == "einsum").then(|| equation(inside)).flatten();
        match kind {
            Kind::Free => {
                if function == "empty" || function == "empty_strided" {
                    return Some(Size::Fill(fill_shape(inside)));
                }
                first.or(Some(Size::Unknown))
            }
            Kind::Fill => {
                let out = if function.ends_with("_like") {
                    first.unwrap_or(Size::Unknown)
                } else {
                    Size::Fill(fill_shape(inside))
                };
                self.emit(what, Vec::new(), out.clone(), Work::PerElement(0.0));
                Some(out)
            }
            Kind::Matmul if einsum.is_some() => {
                let out = Size::Einsum(tensors.clone(), einsum.unwrap_or_default());
                self.emit(what, tensors, out.clone(), Work::Matmul);
                Some(out)
            }
            Kind::Matmul => {
                let first = first?;
                tensors.truncate(2);
                self.emit(what, tensors, first.clone(), Work::Matmul);
                Some(first)
            }
            Kind::Attention => {
                let first = first?;
                tensors.truncate(3);
                self.emit(what, tensors, first.clone(), Work::Attention);
                Some(first)
            }
            Kind::Join => {
                let out = Size::Sum(tensors.clone());
                self.emit(what, tensors, out.clone(), Work::PerElement(0.0));
                Some(out)
            }
            Kind::Factor(per) => {
                let first = first?;
                // `solve(A, B)`: A's factors, then B solved (read, and written).
                let out = tensors.get(1).cloned().unwrap_or_else(|| first.clone());
                tensors.truncate(2);
                self.emit(what, tensors, out.clone(), Work::Factor(per));
                Some(out)
            }
            Kind::Sort => {
                let first = first?;
                // Values and indices, all of them or `topk`'s few.
                let out = if function == "topk" {
                    Size::Reduced(Box::new(first.clone()))
                } else {
                    Size::Sum(vec![first.clone(), first.clone()])
                };
                self.emit(what, vec![first.clone()], out, Work::Sort);
                Some(first)
            }
            Kind::Rowwise => {
                let first = first?;
                self.emit(what, vec![first.clone()], first.clone(), Work::PerElement(8.0));
                Some(first)
            }
            Kind::Reduction => {
                let first = first?;
                // `x.sum()` is one number; `x.sum(dim=1)`, `x.max(1)`, `torch.sum(x, 1)` a row's worth.
                let dims = args.len() + usize::from(!module) > 1
                    || keywords.iter().any(|(k, _)| matches!(k.as_str(), "dim" | "axis"));
                let out = match reduced_dim(inside, module) {
                    Some(dim) if dims => Size::Along(Box::new(first.clone()), dim),
                    _ if dims => Size::Reduced(Box::new(first.clone())),
                    _ => Size::One,
                };
                self.emit(what, vec![first], out.clone(), Work::PerElement(1.0));
                Some(out)
            }
            Kind::Comparison => {
                first.as_ref()?;
                let unreduced = inside.replace(' ', "").contains("reduction='none'")
                    || inside.replace(' ', "").contains("reduction=\"none\"");
                let rows = function.ends_with("similarity") || function.ends_with("distance");
                let out = match &first {
                    _ if unreduced => broadcast(&tensors),
                    Some(f) if rows => Size::Reduced(Box::new(f.clone())),
                    _ => Size::One,
                };
                self.emit(what, tensors, out.clone(), Work::PerElement(4.0));
                Some(out)
            }
            Kind::Elementwise => {
                first.as_ref()?;
                let out = broadcast(&tensors);
                self.emit(what, tensors, out.clone(), Work::PerElement(2.0));
                Some(out)
            }
        }
    }

    /// An item of a joined list: `a.view(-1)` is `a`, a name is a tensor.
    fn name_or_value(&mut self, e: &Expr) -> Option<Size> {
        self.value(e).or_else(|| match e {
            Expr::Name(n) => Some(Size::Of(n.clone())),
            Expr::Call(c, ..) => match &**c {
                Expr::Attr(base, _) => self.name_or_value(base),
                _ => None,
            },
            _ => None,
        })
    }
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

/// The dimension a reduction's arguments name, as an integer text: `dim=-1`, `axis=1`, or
/// the positional one (a method's first argument, a function's second); None for a tuple
/// of dimensions or a name.
fn reduced_dim(args: &str, module: bool) -> Option<String> {
    let parts = split_top(args);
    let keyword = parts.iter().find_map(|p| {
        let (k, v) = p.split_once('=')?;
        matches!(k.trim(), "dim" | "axis").then(|| v.trim())
    });
    let positional: Vec<&str> = parts.iter().copied().take_while(|p| !p.contains('=')).collect();
    let dim = keyword.or_else(|| positional.get(usize::from(module)).copied())?;
    dim.parse::<i64>().ok().map(|d| d.to_string())
}

/// `text` split at its top-level commas, each part trimmed.
fn split_top(text: &str) -> Vec<&str> {
    crate::declaration::split_top(text, ',').into_iter().map(str::trim).collect()
}

/// The result of an element-wise operation on `sizes`: the largest (nested maxima flattened,
/// repeats dropped).
fn broadcast(sizes: &[Size]) -> Size {
    let mut flat: Vec<Size> = Vec::new();
    for s in sizes {
        let parts = match s {
            Size::Max(v) => v.clone(),
            other => vec![other.clone()],
        };
        for p in parts {
            if !flat.contains(&p) {
                flat.push(p);
            }
        }
    }
    match flat.len() {
        0 => Size::Unknown,
        1 => flat.remove(0),
        _ => Size::Max(flat),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::features::cost::Rates;
    use crate::features::expr::Env;

    fn site(locals: &[(&str, &str)]) -> LaunchSite {
        let mut site = LaunchSite::default();
        for (k, v) in locals {
            site.locals.insert((*k).into(), (*v).into());
        }
        site
    }

    fn names(ops: &[TorchOp]) -> Vec<&str> {
        ops.iter().map(|o| o.name.as_str()).collect()
    }

    #[test]
    fn torch_ops_in_a_wrapper_are_found_and_costed_by_size() {
        let ops = torch_ops(&site(&[
            ("mean", "x.mean(dim=1, keepdim=True)"),
            ("h", "torch.nn.functional.silu(a) * b"),
            ("y", "torch.empty_like(x)"),
            ("n", "x.numel()"),
            ("out", "x @ w"),
        ]));
        assert_eq!(names(&ops), vec!["h = torch.nn.functional.silu", "h = *", "mean = x.mean", "out = matmul"]);
        let mut env = Env::default();
        env.define("x.numel()", "1024");
        let small = profile(&ops[2], &env, 4.0, 1.0, &Rates::H100);
        env.define("x.numel()", "1048576");
        let big = profile(&ops[2], &env, 4.0, 1.0, &Rates::H100);
        assert_eq!(big.features.load_bytes, 1024.0 * small.features.load_bytes);
        assert!(big.cost.total > small.cost.total);
    }

    #[test]
    fn joins_and_more_element_wise_functions_are_costed() {
        let ops = torch_ops(&site(&[
            ("flat", "torch.cat([a.view(-1), b.view(-1)])"),
            ("d", "torch.where(m, x, y)"),
            ("n", "len(tensors)"),
        ]));
        assert_eq!(names(&ops), vec!["d = torch.where", "flat = torch.cat"], "{ops:?}");
        assert_eq!(ops[1].reads, vec![Size::Of("a".into()), Size::Of("b".into())]);
    }

    #[test]
    fn a_fill_is_sized_by_its_shape_and_var_mean_is_a_reduction() {
        let ops = torch_ops(&site(&[
            ("out", "torch.zeros((), device=x.device, dtype=torch.float32)"),
            ("acc", "torch.zeros(b, n, device='cuda')"),
            ("stats", "torch.var_mean(xg, dim=1, correction=0)"),
        ]));
        assert_eq!(ops.len(), 3, "{ops:?}");
        let mut env = Env::default();
        env.define("b", "8");
        env.define("n", "1024");
        let unknown = 4_194_304.0;
        let by_name = |n: &str| ops.iter().find(|o| o.name.starts_with(n)).expect("op");
        let scalar = profile(by_name("out"), &env, 4.0, unknown, &Rates::H100);
        assert_eq!(scalar.features.store_bytes, 4.0);
        let acc = profile(by_name("acc"), &env, 4.0, unknown, &Rates::H100);
        assert_eq!(acc.features.load_bytes + acc.features.store_bytes, 8.0 * 1024.0 * 4.0);
        assert!(by_name("stats").name.contains("var_mean"));
    }

    #[test]
    fn scalar_arithmetic_is_no_launch() {
        let ops = torch_ops(&site(&[
            ("n", "x.numel()"),
            ("rows", "n // cols"),
            ("grid", "(triton.cdiv(n, BLOCK),)"),
            ("BLOCK", "triton.next_power_of_2(cols) * 2"),
            ("y", "x * 0.5"),
        ]));
        assert_eq!(names(&ops), vec!["y = *"], "{ops:?}");
        assert_eq!(ops[0].reads, vec![Size::Of("x".into())], "a scalar operand reads nothing");
    }
}
