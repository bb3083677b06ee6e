//! The names a kernel's launch and body are evaluated with: what the file says about
//! its problem size and launch, in one [`Env`] for both languages.

use super::expr::Env;
use crate::kernel::Kernel;
use std::collections::BTreeSet;

/// `#define`s and constants, then the declared sizes and buffer shapes, the launching
/// function's locals and meta-parameters, and finally each kernel parameter bound to
/// the argument the launch passes for it (`params` are the kernel's parameter names,
/// in order). A later definition of a name wins.
pub(super) fn environment(kernel: &Kernel, params: &[String], assumed: f64) -> Env {
    let mut env = Env { unknown: assumed, ..Env::default() };
    for h in &kernel.helpers {
        env.define_helper(h);
    }
    for (k, v) in kernel.declared.definitions() {
        env.define(&k, &v);
    }
    let launch = kernel.launches.first();
    if let Some(l) = launch {
        // Defaults first: an argument the declaration passes replaces them.
        for (param, value) in &l.host_defaults {
            env.define(param, value);
        }
        // The wrapper the declaration calls, `wrapper = f(x, y)`: its parameters are the
        // declared tensors under the wrapper's own names.
        for (param, arg) in l.host_params.iter().zip(&kernel.declared.wrapper_args) {
            // A literal (`wrapper = group_norm(x, w, b, 16)`) has nothing to copy.
            if param != arg && !alias(&mut env, param, arg) {
                env.define(param, arg);
            }
        }
        for (k, v) in l.locals.iter().chain(&l.meta) {
            // `BLOCK=BLOCK` passes a local of the same name: keep the local's value.
            if k == v {
                continue;
            }
            let shadowed = l.meta.get(k) == Some(v) && l.locals.contains_key(k);
            let v = if shadowed { &host_local(&mut env, k, v) } else { v };
            env.define(k, v);
            // `y = torch.empty_like(x)`: y has x's shape.
            if let Some(source) = like(v) {
                alias(&mut env, k, source);
            }
        }
        // `x2 = x.view(-1, n_cols)`: x2's shape, a -1 dimension what the others leave (after
        // the locals, which may hold x's own shape).
        for (k, v) in &l.locals {
            if let Some((source, dims)) = view(v) {
                reshaped(&mut env, k, source, &dims);
            }
        }
        for (param, arg) in params.iter().zip(&l.args) {
            let arg = arg.trim();
            // A kernel parameter bound back to itself through the launcher (`k<<<…>>>(…,
            // size)` in `run(int size)` called as `run(n)`) is a binding cycle: `Env` keeps
            // it one size.
            if param != arg && !mentions(arg, param) {
                env.define(param, arg);
            }
        }
    }
    // A CUDA stride parameter nothing gives is not a problem size: it is taken as a typical one (wide
    // enough that each access has a sector of its own), so the sizes the prior spreads
    // over are the problem's extents.
    let cuda = kernel.language == crate::kernel::Language::Cuda;
    let mut strides_assumed = BTreeSet::new();
    for p in params.iter().filter(|p| cuda && is_stride(p)) {
        if env.eval(p).is_none_or(|e| e.guesses > 0) {
            env.set(p, ASSUMED_STRIDE);
            strides_assumed.insert(p.as_str());
        }
    }
    // A Triton kernel passed several strides of one tensor (`x.stride(0), x.stride(1)`)
    // that nothing gives: the last is its elements' (1), the others step over rows.
    if !cuda {
        if let Some(l) = launch {
            for (param, unit) in tensor_strides(params, &l.args) {
                if env.eval(param).is_none_or(|e| e.guesses > 0) {
                    env.set(param, if unit { 1.0 } else { ASSUMED_STRIDE });
                    strides_assumed.insert(param.as_str());
                }
            }
        }
    }
    // A window's padding nothing gives (`pad`, `padding`, `P`) is a small parameter, not a
    // problem size: taken as 1, a radius as 4.
    for (name, value) in WINDOW_NAMES {
        if env.eval(name).is_none_or(|e| e.guesses > 0) {
            env.set(name, value);
        }
    }
    // A window's stride, seen in an output size `(H + 2 * P - 3) / S + 1`: taken as 1
    // (whatever its name, `S` or `stride`), not as a size or a memory stride.
    if let Some(l) = launch {
        let texts: Vec<String> = l.texts().map(|t| t.replace(' ', "").replace("(int)", "")).collect();
        for word in l.texts().flat_map(crate::extract::words).collect::<BTreeSet<_>>() {
            let divides = format!("/{word}+1");
            let unknown = strides_assumed.contains(word) || env.eval(word).is_none_or(|e| e.guesses > 0);
            if unknown && texts.iter().any(|t| t.contains(&divides)) {
                env.set(word, 1.0);
            }
        }
    }
    // The names whose role may tell a typical size (`batch`, `num_heads`, `B = q.shape[0]`).
    env.roles.extend(params.iter().cloned());
    if let Some(l) = launch {
        let words = l.texts().chain(l.args.iter().map(String::as_str)).flat_map(crate::extract::words);
        env.roles.extend(words.chain(l.locals.keys().map(String::as_str)).map(str::to_string));
        env.roles.extend(l.host_params.iter().cloned());
    }
    env.missing.borrow_mut().clear();
    env
}

/// A meta-parameter that shadows a launcher's local of the same name (`BLOCK_SIZE =
/// 32768` in the launcher, `finish[1,](…, BLOCK_SIZE=num_blocks)` where `num_blocks =
/// cdiv(N, BLOCK_SIZE)`): the local keeps its value under a name of its own, and the
/// launcher's texts that read it (`value` too) read that name, so the kernel's parameter
/// is not bound back to itself.
fn host_local(env: &mut Env, name: &str, value: &str) -> String {
    let host = format!("{name}__launcher");
    if let Some(local) = env.texts.remove(name) {
        env.texts.insert(host.clone(), local);
    }
    for text in env.texts.values_mut() {
        if crate::extract::words(text).any(|w| w == name) {
            *text = crate::extract::substitute(text, name, &host);
        }
    }
    crate::extract::substitute(value, name, &host)
}

/// Names of a pooling or convolution window's padding and radius, and the value taken
/// for each where nothing gives it.
const WINDOW_NAMES: [(&str, f64); 7] =
    [("pad", 1.0), ("padding", 1.0), ("pad_h", 1.0), ("pad_w", 1.0), ("P", 1.0), ("dilation", 1.0), ("radius", 4.0)];

/// The stride assumed for a stride parameter nothing gives (floats).
const ASSUMED_STRIDE: f64 = 32.0;

/// The parameters bound to strides of a tensor the launch passes more than one stride
/// of (`x.stride(0)`, `x.stride(1)`), each with whether it is the tensor's last dimension's
/// (its elements' stride, 1 in a contiguous tensor). A tensor's single stride
/// (`x.stride(0)` of a row) tells nothing of which dimension it is.
fn tensor_strides<'p>(params: &'p [String], args: &[String]) -> Vec<(&'p String, bool)> {
    let stride = |arg: &str| -> Option<(String, i64)> {
        let (tensor, rest) = arg.trim().split_once(".stride(")?;
        let index = rest.strip_suffix(')')?.trim().parse::<i64>().ok()?;
        let plain = !tensor.is_empty() && tensor.chars().all(|c| c.is_alphanumeric() || c == '_' || c == '.');
        plain.then(|| (tensor.to_string(), index))
    };
    let passed: Vec<(&String, (String, i64))> =
        params.iter().zip(args).filter_map(|(p, a)| Some((p, stride(a)?))).collect();
    passed
        .iter()
        .filter_map(|(param, (tensor, index))| {
            let indices: Vec<i64> = passed.iter().filter(|(_, (t, _))| t == tensor).map(|(_, (_, i))| *i).collect();
            let last = indices.iter().copied().max().unwrap_or(0);
            (indices.len() > 1 && *index >= 0).then_some((*param, *index == last))
        })
        .collect()
}

/// `stride`, `row_stride`, `ld`, `lda`, `pitch`: a parameter that is a stride by its name.
fn is_stride(name: &str) -> bool {
    let n = name.to_ascii_lowercase();
    n.contains("stride") || n.contains("pitch") || ["ld", "lda", "ldb", "ldc", "ldx", "ldy"].contains(&n.as_str())
}

/// Of the names that had no value, those that set the problem's size: the kernel's
/// parameters and the names its launch is written with (not the kernel's own locals,
/// whose values the profile does not need to know), sorted.
pub(super) fn problem_sizes(kernel: &Kernel, params: &[String], missing: &BTreeSet<String>) -> Vec<String> {
    // A dynamic shared-memory byte count (`<<<g, b, smemSize>>>`) is not a problem size.
    let launch_words: BTreeSet<&str> = kernel
        .launches
        .first()
        .map(|l| {
            l.texts()
                .filter(|t| l.shared_mem.as_deref() != Some(*t))
                .chain(l.args.iter().map(String::as_str))
                .flat_map(crate::extract::words)
                .collect()
        })
        .unwrap_or_default();
    // Buffers are not sizes: declared tensors, pointer parameters and what a launch binds to them.
    let mut buffers: BTreeSet<String> = kernel.declared.shapes.keys().cloned().collect();
    let pointers = pointer_params(kernel, params);
    // A float scalar (`float eps`, `(float)lr`) is never a size.
    buffers.extend(float_params(kernel, params));
    for (i, p) in params.iter().enumerate() {
        if pointers.contains(p) {
            buffers.insert(p.clone());
            if let Some(arg) = kernel.launches.first().and_then(|l| l.args.get(i)) {
                buffers.extend(crate::extract::words(arg).filter(|w| !w.is_empty()).map(str::to_string));
            }
        }
    }
    missing
        .iter()
        .filter(|name| {
            // A tensor's size (`x.shape[0]`, `x.size(1)`, `x.numel()`) is a size; another
            // subscript (`red[0]`) is data.
            let sized = [".shape[", ".size(", ".numel("].iter().any(|s| name.contains(s));
            (sized || !name.contains('[')) && !name.starts_with("tl.") && !buffers.contains(name.as_str())
        })
        // A float scalar by its name (`eps`, `sm_scale`, Python's untyped ones too) is never a size.
        .filter(|name| !float_named(name))
        .filter(|name| {
            let root = name.split('.').next().unwrap_or(name);
            params.iter().any(|p| p == root) || launch_words.contains(root)
        })
        .cloned()
        .collect()
}

/// `eps`, `variance_epsilon`, `sm_scale`, `alpha`: a name that says it holds a float.
fn float_named(name: &str) -> bool {
    let n = name.to_ascii_lowercase();
    n == "eps"
        || n.ends_with("_eps")
        || n.starts_with("eps_")
        || n.contains("epsilon")
        || n.ends_with("scale")
        || ["alpha", "beta", "momentum", "lr", "temperature", "softcap", "weight_decay"].contains(&n.as_str())
}

/// The CUDA kernel's floating-point scalar parameters (`float eps`, `double alpha`).
fn float_params(kernel: &Kernel, params: &[String]) -> Vec<String> {
    let src = &kernel.source;
    let sig_end = kernel.signature_end.saturating_sub(kernel.range.start).min(src.len());
    let sig = src.get(..sig_end).unwrap_or_default();
    let decls: Vec<&str> = sig.rsplit_once('(').map(|(_, p)| p).unwrap_or_default().split(',').collect();
    let floats: Vec<&str> = decls
        .into_iter()
        .filter(|d| {
            !d.contains('*') && crate::extract::words(d).any(|w| ["float", "double", "half", "__half"].contains(&w))
        })
        .collect();
    params
        .iter()
        .filter(|p| floats.iter().any(|d| crate::extract::words(d).any(|w| w == p.as_str())))
        .cloned()
        .collect()
}

/// The kernel's parameters that are pointers: `float* x` (CUDA), or a Triton parameter
/// named `…ptr` or loaded and stored through (`tl.load(x + offs)`).
fn pointer_params(kernel: &Kernel, params: &[String]) -> BTreeSet<String> {
    let src = &kernel.source;
    let sig_end = kernel.signature_end.saturating_sub(kernel.range.start).min(src.len());
    let sig = src.get(..sig_end).unwrap_or_default();
    let decls: Vec<&str> = sig.rsplit_once('(').map(|(_, p)| p).unwrap_or_default().split(',').collect();
    params
        .iter()
        .filter(|p| match kernel.language {
            crate::kernel::Language::Cuda => {
                decls.iter().any(|d| d.contains('*') && crate::extract::words(d).any(|w| w == p.as_str()))
            }
            crate::kernel::Language::Triton => {
                let lower = p.to_ascii_lowercase();
                lower.ends_with("ptr")
                    || ["tl.load(", "tl.store("].iter().any(|f| {
                        src.match_indices(f).any(|(i, _)| {
                            let rest = &src[i + f.len()..];
                            let first = rest.split([',', ')']).next().unwrap_or_default();
                            crate::extract::words(first).any(|w| w == p.as_str())
                        })
                    })
            }
        })
        .cloned()
        .collect()
}

/// Gives `name` what `source` has: its value and its shape's definitions; false when
/// `source` has neither.
fn alias(env: &mut Env, name: &str, source: &str) -> bool {
    let prefix = format!("{source}.");
    let copied: Vec<(String, String)> = env
        .texts
        .iter()
        .filter_map(|(k, v)| {
            if k == source {
                Some((name.to_string(), v.clone()))
            } else {
                k.strip_prefix(&prefix).map(|rest| (format!("{name}.{rest}"), v.clone()))
            }
        })
        .collect();
    let any = !copied.is_empty();
    for (k, v) in copied {
        env.define(&k, &v);
    }
    any
}

/// The tensor a `torch.empty_like(x)`-style expression copies the shape of.
fn like(value: &str) -> Option<&str> {
    let open = value.find('(')?;
    let function = value[..open].rsplit('.').next()?;
    if function.ends_with("_like") {
        let args = value[open + 1..].trim_end_matches(')');
        let first = args.split(',').next()?.trim();
        return first.chars().all(|c| c.is_alphanumeric() || c == '_').then_some(first);
    }
    value.strip_suffix(".clone()").filter(|s| s.chars().all(|c| c.is_alphanumeric() || c == '_'))
}

/// The tensor and dimensions of `x.view(-1, n)`, `x.reshape((a, b))`, `x.contiguous().view(…)`.
fn view(value: &str) -> Option<(&str, Vec<String>)> {
    let v = value.trim();
    let open = v.rfind(".view(").or_else(|| v.rfind(".reshape("))?;
    let args = v[open..].split_once('(')?.1.strip_suffix(')')?.trim();
    // C++'s `x.view({-1, n})` is not read here.
    if args.contains(['{', '<']) {
        return None;
    }
    let args = args.strip_prefix('(').and_then(|a| a.strip_suffix(')')).unwrap_or(args);
    let source = v[..open].strip_suffix(".contiguous()").unwrap_or(&v[..open]);
    if source.is_empty() || !source.chars().all(|c| c.is_alphanumeric() || c == '_') {
        return None;
    }
    let dims: Vec<String> = crate::declaration::split_top(args, ',')
        .into_iter()
        .map(|d| d.trim().to_string())
        .filter(|d| !d.is_empty())
        .collect();
    (!dims.is_empty() && dims.iter().all(|d| !d.contains('='))).then_some((source, dims))
}

/// Defines `name`'s shape as `dims` of `source`'s elements where those are known (a -1 is
/// the elements the others leave; a tensor viewed under its own name keeps its other
/// dimensions' texts).
fn reshaped(env: &mut Env, name: &str, source: &str, dims: &[String]) {
    let numel = format!("({source}.numel())");
    // Only a tensor whose size is known: an assumed one would make each dimension its
    // own assumed size over another's.
    if env.eval_quiet(&numel).is_none_or(|e| e.guesses > 0) {
        return;
    }
    let known: Vec<String> = dims.iter().filter(|d| d.as_str() != "-1").map(|d| format!("({d})")).collect();
    let n = dims.len() as i64;
    for (i, d) in dims.iter().enumerate() {
        let value = match (d.as_str(), known.is_empty()) {
            ("-1", true) => numel.clone(),
            ("-1", false) => format!("{numel} // ({})", known.join(" * ")),
            // `x = x.view(-1, n)` where `n = x.shape[-1]`: the old shape still names n.
            _ if name == source => continue,
            _ => format!("({d})"),
        };
        for idx in [i as i64, i as i64 - n] {
            env.define(&format!("{name}.shape[{idx}]"), &value);
            env.define(&format!("{name}.size({idx})"), &value);
        }
    }
    if name != source {
        env.define(&format!("{name}.numel()"), &numel);
    }
}

/// Whether `text` uses the name `name` (`x.stride` is not `stride`).
fn mentions(text: &str, name: &str) -> bool {
    text.split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '.')).any(|w| w == name)
}

#[cfg(test)]
mod tests {
    use crate::extract::extract_text;
    use crate::kernel::Language;

    #[test]
    fn cuda_kernel_parameters_take_the_declared_sizes() {
        let src = r#"
#define THREADS 256
// kforecast: rows = 4096; cols = 2048; x: f32[rows, cols] randn; out: f32[cols] zeros
__global__ void col_sum(const float* x, float* out, int nr, int nc) { }
void launch(const float* x, float* out, int rows, int cols) {
    col_sum<<<(cols + THREADS - 1) / THREADS, THREADS>>>(x, out, rows, cols);
}
"#;
        let ex = extract_text(Language::Cuda, src);
        let k = ex.kernel("col_sum").expect("kernel");
        let env = super::environment(
            k,
            &["x".into(), "out".into(), "nr".into(), "nc".into()],
            super::super::expr::ASSUMED_SIZE,
        );
        let exact = |t: &str| env.eval(t).filter(|e| e.guesses == 0).map(|e| e.value);
        assert_eq!(exact("nr * nc"), Some(4096.0 * 2048.0));
        assert_eq!(exact("(cols + THREADS - 1) / THREADS"), Some(8.0));
    }

    #[test]
    fn a_dim3_local_has_its_axes() {
        let src = r#"
// kforecast: n = 1 << 24; a: f32[n] randn; o: f32[n]
__global__ void k(float* o, const float* a, int n) { }
void go(float* o, const float* a, int n) {
    dim3 block(256);
    dim3 grid((n + block.x - 1) / block.x, std::min(n / 4096, 8));
    k<<<grid, block>>>(o, a, n);
}
"#;
        let ex = extract_text(Language::Cuda, src);
        let k = ex.kernel("k").expect("kernel");
        let env = super::environment(k, &["o".into(), "a".into(), "n".into()], super::super::expr::ASSUMED_SIZE);
        let exact = |t: &str| env.eval(t).filter(|e| e.guesses == 0).map(|e| e.value);
        assert_eq!(exact("block.x * block.y * block.z"), Some(256.0));
        assert_eq!(exact("grid.x"), Some(65536.0));
        assert_eq!(exact("grid.y"), Some(8.0));
    }

    #[test]
    fn triton_wrapper_shapes_flow_into_the_kernel() {
        let src = r#"
import triton
import triton.language as tl

# kforecast: wrapper = softmax(inp); inp: f32[1000, 3000]
@triton.jit
def softmax_kernel(x_ptr, y_ptr, stride, n_cols, BLOCK: tl.constexpr):
    pass

def softmax(x):
    n_rows, n_cols = x.shape
    y = torch.empty_like(x)
    softmax_kernel[(n_rows,)](x, y, x.stride(0), n_cols, BLOCK=triton.next_power_of_2(n_cols))
    return y
"#;
        let ex = extract_text(Language::Triton, src);
        let k = ex.kernel("softmax_kernel").expect("kernel");
        let params = ["x_ptr", "y_ptr", "stride", "n_cols", "BLOCK"].map(String::from);
        let env = super::environment(k, &params, super::super::expr::ASSUMED_SIZE);
        let exact = |t: &str| env.eval(t).filter(|e| e.guesses == 0).map(|e| e.value);
        assert_eq!(exact("n_rows"), Some(1000.0));
        assert_eq!(exact("stride * n_cols"), Some(3000.0 * 3000.0));
        assert_eq!(exact("BLOCK"), Some(4096.0));
        assert_eq!(exact("y.numel()"), Some(3_000_000.0));
    }

    #[test]
    fn a_wrapper_default_holds_unless_the_declaration_passes_the_argument() {
        let src = r#"
import triton
import triton.language as tl

# kforecast: wrapper = group_norm(inp); inp: f32[32, 256, 1024]
@triton.jit
def gn_kernel(x_ptr, G, BLOCK: tl.constexpr):
    pass

def group_norm(x, num_groups: int = 32, eps=1e-5):
    N = x.shape[0]
    gn_kernel[(N * num_groups,)](x, num_groups, BLOCK=1024)
"#;
        let env_of = |text: &str| {
            let ex = extract_text(Language::Triton, text);
            let k = ex.kernel("gn_kernel").expect("kernel").clone();
            super::environment(&k, &["x_ptr", "G", "BLOCK"].map(String::from), super::super::expr::ASSUMED_SIZE)
        };
        let exact = |env: &super::Env, t: &str| env.eval(t).filter(|e| e.guesses == 0).map(|e| e.value);
        let env = env_of(src);
        assert_eq!(exact(&env, "G"), Some(32.0));
        assert_eq!(exact(&env, "N * num_groups"), Some(1024.0));
        let env = env_of(&src.replace("group_norm(inp)", "group_norm(inp, 8)"));
        assert_eq!(exact(&env, "G"), Some(8.0));
    }
}
