//! What the host code around a CUDA launch gives a job: the launch a job runs as (the
//! first whose guarding conditions may hold), the values names hold there, and the scalars
//! and tensor sizes a launcher computes; also what it pins down for a declaration template.

use super::*;

/// The environment of the launch a CUDA job runs `k` as (see [`launch_context`]): the
/// declarations `items`, the host code's values on every path to the launch, the launch's
/// template arguments and the file's definitions.
pub fn launch_env(k: &Kernel, text: &str, items: &[Item]) -> Env {
    launch_context(k, text, &kernel_declared_env(k, items)).env
}

/// What the host code pins down for `k`'s parameters with nothing declared (its launch in
/// the file or, linked, in another): a scalar's value, a buffer's length in elements (from
/// the `cudaMalloc` of what the launch passes), by parameter name.
pub fn inferred_params(k: &Kernel, text: &str) -> BTreeMap<String, f64> {
    let mut out = BTreeMap::new();
    let context = launch_context(k, text, &kernel_declared_env(k, &[]));
    let Some(launch) = context.launch else { return out };
    for (p, arg) in cuda_params(k).iter().zip(&launch.args) {
        let arg = arg.trim();
        let value = if p.pointer {
            let t = p.base_type.replace("const", "");
            let Some(dtype) = DType::parse(t.trim()).or_else(|| vector_dtype(t.trim())) else { continue };
            let bytes = context.host.allocations.get(arg).and_then(|b| eval_exact(&context.env, b));
            bytes.map(|b| (b / dtype.size() as f64).floor())
        } else {
            eval_exact(&context.env, arg)
        };
        if let Some(v) = value.filter(|v| v.is_finite()) {
            out.insert(p.name.clone(), v);
        }
    }
    out
}

/// The launch a job runs as, and the host code's environment there: the first of the
/// kernel's launches whose guarding conditions may hold (`if (M >= 128 and N >= 128)`),
/// the names the host code sets on every path to it (a name set differently on different
/// paths stands for [`SET_ON_SOME_PATHS`]), the launch's template arguments, and the
/// file's definitions.
pub(super) struct LaunchContext<'k> {
    pub(super) launch: Option<&'k LaunchSite>,
    pub(super) host: HostFacts,
    pub(super) env: Env,
}

pub(super) fn launch_context<'k>(k: &'k Kernel, text: &str, declared: &Env) -> LaunchContext<'k> {
    let mut first = None;
    for l in &k.launches {
        // A launch in another file: what linking read there (its locals, its buffers).
        let mut host = if l.external.is_some() { HostFacts::default() } else { facts_at(text, l.range.start) };
        for (name, bytes) in &l.allocations {
            host.allocations.entry(name.clone()).or_insert_with(|| bytes.clone());
        }
        let env = host_env(k, l, &host, declared);
        if !host.conditions.iter().any(|c| is_false(&env, c)) {
            return LaunchContext { launch: Some(l), host, env };
        }
        first.get_or_insert((l, host, env));
    }
    match first {
        Some((l, host, env)) => LaunchContext { launch: Some(l), host, env },
        None => {
            let mut env = declared.clone();
            define_helpers(&mut env, k);
            LaunchContext { launch: None, host: HostFacts::default(), env }
        }
    }
}

/// Declared values first; then the host code's values at the launch (the extractor's
/// locals where the host facts have none, or where a name is capped on one path only);
/// then the launch's template arguments and the file's definitions.
pub(super) fn host_env(k: &Kernel, l: &LaunchSite, host: &HostFacts, declared: &Env) -> Env {
    let mut env = declared.clone();
    let mut locals = l.locals.clone();
    for (key, v) in &host.values {
        locals.insert(key.clone(), v.clone());
    }
    for key in &host.unsure {
        let capped = locals.get(key).is_some_and(|v| v != SET_ON_SOME_PATHS && !host.values.contains_key(key));
        if !capped || !l.locals.contains_key(key) {
            locals.insert(key.clone(), SET_ON_SOME_PATHS.to_string());
        }
    }
    define_absent(&mut env, &locals);
    define_absent(&mut env, &l.meta);
    define_helpers(&mut env, k);
    env
}

/// Defines each name of `values` that `env` does not define yet.
fn define_absent(env: &mut Env, values: &BTreeMap<String, String>) {
    for (key, v) in values {
        if !env.texts.contains_key(key) {
            env.define(key, v);
        }
    }
}

/// The file's definitions the kernel uses, where nothing else defines the name.
fn define_helpers(env: &mut Env, k: &Kernel) {
    for h in &k.helpers {
        if !env.texts.contains_key(&h.name) {
            env.define_helper(h);
        }
    }
}

/// A guarding condition that evaluates to false (`and`/`&&` parts; anything with `or`
/// or that does not evaluate exactly may hold).
pub(super) fn is_false(env: &Env, cond: &str) -> bool {
    let c = cond.replace(" and ", " && ").replace(" not ", " !");
    if c.contains("||") || c.contains(" or ") {
        return false;
    }
    if let Some(inner) = c.strip_prefix("!(").and_then(|t| t.strip_suffix(')')) {
        return !inner.contains("&&") && eval_exact(env, inner).is_some_and(|v| v != 0.0);
    }
    c.split("&&").any(|part| eval_exact(env, part.trim()).is_some_and(|v| v == 0.0))
}

/// The names a text uses that the launching function sets on some paths only.
pub(super) fn unsure_in(env: &Env, text: &str) -> Option<String> {
    crate::extract::words(text).find(|w| env.texts.get(*w).is_some_and(|v| v == SET_ON_SOME_PATHS)).map(str::to_string)
}

/// The scalar parameters nothing declares whose value the kernel's launch passes and the
/// file pins down (`int size = x.numel();` in the launcher, with `x`'s shape known).
pub(super) fn launched_scalars(k: &Kernel, params: &[Param], items: &[Item], declared: &Env) -> BTreeMap<String, f64> {
    let mut out = BTreeMap::new();
    let Some(launch) = k.launches.first() else { return out };
    let env = site_env(k, params, items, declared);
    for (p, arg) in params.iter().zip(&launch.args) {
        if p.pointer || items.iter().any(|i| i.key == p.name) || declared.texts.contains_key(&p.name) {
            continue;
        }
        if let Some(v) = eval_exact(&env, arg) {
            out.insert(p.name.clone(), v);
        }
    }
    out
}

/// The elements of each undeclared buffer the launch passes from a tensor whose size the
/// file pins down: `x.data_ptr<float>()` with `x`'s shape known (a Python caller's), or a
/// tensor the launcher makes (`torch::empty_like(x)`, `torch::zeros({M, N}, …)`).
pub(super) fn launched_tensors(k: &Kernel, params: &[Param], items: &[Item], declared: &Env) -> BTreeMap<String, f64> {
    let mut out = BTreeMap::new();
    let Some(launch) = k.launches.first() else { return out };
    let mut env = site_env(k, params, items, declared);
    for (name, value) in &launch.locals {
        let key = format!("{name}.numel()");
        if let Some(numel) = made_tensor(value).filter(|_| !env.texts.contains_key(&key)) {
            env.define(&key, &numel);
        }
    }
    for (p, arg) in params.iter().zip(&launch.args) {
        if !p.pointer || items.iter().any(|i| i.key == p.name) {
            continue;
        }
        let Some(tensor) = tensor_of(arg) else { continue };
        if let Some(v) = eval_exact(&env, &format!("{tensor}.numel()")).filter(|v| *v >= 1.0) {
            out.insert(p.name.clone(), v);
        }
    }
    out
}

/// The tensor whose data a launch argument passes: `x.data_ptr<float>()`,
/// `(float*)x.data_ptr()`, `reinterpret_cast<float4*>(x.data_ptr<float>())`.
pub(super) fn tensor_of(arg: &str) -> Option<&str> {
    let at =
        [".data_ptr", ".const_data_ptr", ".mutable_data_ptr", ".data<"].iter().filter_map(|m| arg.find(m)).min()?;
    let head = &arg[..at];
    let start = head.rfind(|c: char| !(c.is_alphanumeric() || c == '_')).map(|i| i + 1).unwrap_or(0);
    let name = &head[start..];
    (!name.is_empty() && !name.starts_with(|c: char| c.is_ascii_digit())).then_some(name)
}

/// The element count of a tensor a launcher makes, as an expression: `torch::empty_like(x)`
/// → `x.numel()`, `torch::zeros({M, N}, x.options())` → `(M) * (N)`.
pub(super) fn made_tensor(value: &str) -> Option<String> {
    let open = value.find('(')?;
    let function = value[..open].rsplit("::").next()?.trim();
    let inner = value[open + 1..].strip_suffix(')')?;
    let first = declaration::split_top(inner, ',').into_iter().next()?.trim();
    let ident = |t: &str| !t.is_empty() && t.chars().all(|c| c.is_alphanumeric() || c == '_');
    if function.ends_with("_like") && ident(first) {
        return Some(format!("{first}.numel()"));
    }
    if !matches!(function, "empty" | "zeros" | "ones" | "full" | "rand" | "randn") {
        return None;
    }
    if let Some(sizes) = first.strip_suffix(".sizes()").filter(|t| ident(t)) {
        return Some(format!("{sizes}.numel()"));
    }
    let dims = declaration::list(first.strip_prefix('{')?.strip_suffix('}')?);
    (!dims.is_empty()).then(|| dims.iter().map(|d| format!("({d})")).collect::<Vec<_>>().join(" * "))
}

/// The declared names, then the launch site's locals and meta-parameters, each host
/// argument named after a declared parameter, and the file's definitions.
pub(super) fn site_env(k: &Kernel, params: &[Param], items: &[Item], declared: &Env) -> Env {
    let mut env = declared.clone();
    if let Some(l) = k.launches.first() {
        define_absent(&mut env, &l.locals);
        for (arg_text, p) in l.args.iter().zip(params) {
            let host = arg_text.trim();
            if host != p.name && host.chars().all(|c| c.is_alphanumeric() || c == '_') {
                if let Some(decl) = items.iter().find(|i| i.key == p.name && !i.typed) {
                    env.define(host, &decl.value);
                }
            }
        }
        define_absent(&mut env, &l.meta);
    }
    // The file's definitions, where the launch and the declaration leave a name open.
    define_helpers(&mut env, k);
    env
}
