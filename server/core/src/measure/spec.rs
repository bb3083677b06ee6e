//! Declarations that say how to run a kernel, and the jobs built from them.
//!
//! Declarations are comment lines directly above a kernel (or its decorators) that
//! start with `kforecast:`; items are separated by `;`:
//!
//! ```text
//! // kforecast: n = 1 << 24; alpha = 2.0           sizes and scalar arguments
//! // kforecast: x: f32[n] randn; y: f32[n] zeros   buffers: dtype[shape] init
//! // kforecast: grid = cdiv(n, 256); block = 256    launch shape (CUDA; else the launch site's)
//! // kforecast: outputs = y; rtol = 1e-3            what to compare, and how closely
//! # kforecast: wrapper = softmax(x)                 Triton: the launch wrapper to call
//! ```
//!
//! Whatever can be inferred is: a CUDA kernel's argument types come from its
//! signature; a non-const pointer is an output; with one integer parameter every
//! undeclared buffer has that many elements; grid and block come from the launch site
//! (its host locals and `#define`s, with the kernel's arguments bound to the declared
//! values); template arguments from the launch site too.

use super::protocol::{Arg, CudaJob, CudaVersion, DType, Init, Job, SourceFile, TritonInput, TritonJob, TritonVersion};
use crate::extract::host::{facts_at, HostFacts};
use crate::features::expr::{components, Env};
use crate::kernel::{HelperKind, Kernel, LaunchSite, TextRange, SET_ON_SOME_PATHS};
use crate::source::parser_for;
use crate::Language;
use std::collections::BTreeMap;

pub use crate::declaration::Item;
use crate::declaration::{self, items_before, SETTINGS};

/// A mistake in a declaration, or something that could not be inferred.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SpecError {
    pub range: TextRange,
    pub message: String,
    /// A value nothing in the file pins down (the code may well be right: a warning, not
    /// an error), as opposed to a declaration that is wrong.
    pub missing: bool,
}

impl SpecError {
    /// A mistake: `message` at `range`.
    pub fn new(range: TextRange, message: String) -> Self {
        Self { range, message, missing: false }
    }

    /// A value the job needs that the file does not give.
    pub fn missing(range: TextRange, message: String) -> Self {
        Self { range, message, missing: true }
    }
}

/// The declaration items of `kernel` in `text` (the comment block above it).
pub fn items(text: &str, kernel: &Kernel) -> Vec<Item> {
    items_before(text, kernel.range.start)
}

/// The job for a (base, candidate) pair of one kernel, built from the candidate's
/// declarations (the base's when the candidate has none), and those declarations. A side
/// is (file name, kernel, file text); a Triton job imports the files by these names.
pub fn job(base: (&str, &Kernel, &str), candidate: (&str, &Kernel, &str)) -> Result<(Job, Vec<Item>), Vec<SpecError>> {
    let ((base_name, bk, base_text), (cand_name, ck, cand_text)) = (base, candidate);
    let mut declared = items(cand_text, ck);
    if declared.is_empty() {
        declared = items(base_text, bk);
    }
    let job = match ck.language {
        Language::Cuda => {
            let mut job = cuda_job((bk, base_text), (ck, cand_text), &declared, ck.name_range)?;
            let file = |name: &str, text: &str| SourceFile {
                name: cuda_file_name(name),
                text: text.to_string(),
                include_dir: None,
            };
            job.base.file = Some(file(base_name, base_text));
            job.candidate.file = Some(file(cand_name, cand_text));
            Job::Cuda(job)
        }
        Language::Triton => {
            if !declared.iter().any(|i| i.key == "wrapper") {
                declared.extend(data_call_items(ck, cand_text));
            }
            Job::Triton(triton_job(&ck.name, (base_name, base_text), (cand_name, cand_text), &declared, ck.name_range)?)
        }
    };
    Ok((job, declared))
}

/// The declaration a GPU MODE-style program implies where it has none: the launching
/// function takes one tuple it unpacks (`x, w = data`) that `generate_input` makes, so
/// `wrapper = custom_kernel((x, w))`, each part's shape and dtype, and the sizes the call of
/// `generate_input` (or its defaults) gives. Anchored at the kernel's name.
fn data_call_items(k: &Kernel, text: &str) -> Vec<Item> {
    let Some(host) = k.launches.first().map(|l| l.host_name.as_str()).filter(|h| !h.is_empty()) else {
        return Vec::new();
    };
    let Some(call) = crate::extract::gpumode::data_call(text, host) else { return Vec::new() };
    let item = |key: &str, value: String, typed: bool| Item { key: key.to_string(), value, typed, range: k.name_range };
    let mut out = Vec::new();
    let mut used = std::collections::BTreeSet::new();
    for part in &call.parts {
        let Some((dims, dtype)) = call.tensors.get(part) else { return Vec::new() };
        used.extend(dims.iter().flat_map(|d| crate::extract::words(d).map(str::to_string)));
        out.push(item(part, format!("{dtype}[{}] randn", dims.join(", ")), true));
    }
    for (name, value) in &call.sizes {
        if used.contains(name) {
            out.push(item(name, value.clone(), false));
        }
    }
    out.push(item("wrapper", format!("{}(({}))", call.wrapper, call.parts.join(", ")), false));
    out
}

/// A typed buffer: `f32[n, m] randn out`.
struct BufferDecl {
    dtype: DType,
    shape: Vec<String>,
    init: Option<Init>,
    output: Option<bool>,
}

fn parse_buffer(value: &str) -> Result<BufferDecl, String> {
    let open = value.find('[').ok_or_else(|| format!("expected `dtype[shape]`, got `{value}`"))?;
    let close = value.rfind(']').ok_or_else(|| format!("missing `]` in `{value}`"))?;
    let dtype_text = value[..open].trim();
    let dtype = DType::parse(dtype_text)
        .ok_or_else(|| format!("unknown dtype `{dtype_text}` (use f16, bf16, f32, f64, i8, u8, i32, u32, i64, u64)"))?;
    let shape = declaration::list(&value[open + 1..close]);
    if shape.is_empty() {
        return Err("a buffer needs a shape, e.g. `f32[n]`".to_string());
    }
    let mut init = None;
    let mut output = None;
    // `randint(0, 256)`: no spaces inside parentheses before splitting into words.
    let mut rest = String::new();
    let mut depth = 0;
    for c in value[close + 1..].chars() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            c if c.is_whitespace() && depth > 0 => continue,
            _ => {}
        }
        rest.push(c);
    }
    for word in rest.split_whitespace() {
        match word {
            "out" | "output" => output = Some(true),
            "in" | "input" => output = Some(false),
            w => {
                init = Some(Init::parse(w).ok_or_else(|| {
                    format!("unknown initialiser `{w}` (use randn, rand, zeros, ones, arange, randint(lo,hi))")
                })?)
            }
        }
    }
    Ok(BufferDecl { dtype, shape, init, output })
}

/// Values and texts declared, as an evaluation environment.
fn declared_env(items: &[Item]) -> Env {
    let mut env = Env::default();
    for it in items.iter().filter(|i| !i.typed && !SETTINGS.contains(&i.key.as_str())) {
        env.define(&it.key, &it.value);
    }
    env
}

/// The declared values, then what the file says elsewhere (a CUDA string's sizes from the
/// Python that calls it).
fn kernel_declared_env(k: &Kernel, items: &[Item]) -> Env {
    let mut declared = declared_env(items);
    for (key, v) in k.declared.definitions() {
        if !declared.texts.contains_key(&key) {
            declared.define(&key, &v);
        }
    }
    declared
}

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

/// A value the declaration pins down. A device query (`num_sms()`, capping a grid-stride
/// launch) is taken as an H100's, as the profile takes it.
fn eval_exact(env: &Env, text: &str) -> Option<f64> {
    env.eval(text).filter(|e| e.guesses == e.device_queries).map(|e| e.value)
}

/// A CUDA kernel parameter.
#[derive(Clone, Debug)]
pub(crate) struct Param {
    pub(crate) name: String,
    pub(crate) base_type: String,
    pub(crate) pointer: bool,
    pub(crate) constant: bool,
}

pub(crate) fn cuda_params(kernel: &Kernel) -> Vec<Param> {
    let mut parser = parser_for(Language::Cuda);
    let Some(tree) = parser.parse(&kernel.source, None) else { return Vec::new() };
    let src = kernel.source.as_str();
    let mut params = Vec::new();
    let mut list = None;
    crate::extract::walk_preorder(tree.root_node(), |n| {
        if list.is_some() {
            return false;
        }
        if n.kind() == "function_declarator" {
            list = n.child_by_field_name("parameters");
            return false;
        }
        true
    });
    let Some(list) = list else { return params };
    let mut cursor = list.walk();
    for p in list.named_children(&mut cursor).filter(|p| p.kind() == "parameter_declaration") {
        let text = &src[p.byte_range()];
        let Some(decl) = p.child_by_field_name("declarator") else { continue };
        let Some(name_node) = crate::extract::declarator_name(decl) else { continue };
        let base_type = p.child_by_field_name("type").map(|t| src[t.byte_range()].to_string()).unwrap_or_default();
        params.push(Param {
            name: src[name_node.byte_range()].to_string(),
            base_type,
            pointer: decl.kind() == "pointer_declarator" || text.contains('*'),
            constant: text.trim_start().starts_with("const") || text.contains(" const "),
        });
    }
    params
}

/// What host headers would have defined: NVRTC compiles device code without them.
const NVRTC_PRELUDE: &str = "// generated by kforecast for NVRTC
#ifndef INFINITY
#define INFINITY __int_as_float(0x7f800000)
#endif
#ifndef NAN
#define NAN __int_as_float(0x7fffffff)
#endif
#ifndef FLT_MAX
#define FLT_MAX 3.402823466e+38F
#endif
#ifndef FLT_MIN
#define FLT_MIN 1.175494351e-38F
#endif
#ifndef DBL_MAX
#define DBL_MAX 1.7976931348623158e+308
#endif
#ifndef INT_MAX
#define INT_MAX 2147483647
#endif
#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif
";

/// The name a CUDA file is compiled under: its own (a `.cu` one), so that compile errors
/// name it.
fn cuda_file_name(name: &str) -> String {
    let base = name.rsplit(['/', '\\']).next().unwrap_or(name);
    let ok = !base.is_empty() && base.chars().all(|c| c.is_alphanumeric() || matches!(c, '_' | '-' | '.'));
    match (ok, base.ends_with(".cu") || base.ends_with(".cuh")) {
        (true, true) => base.to_string(),
        (true, false) => format!("{base}.cu"),
        _ => "kernel.cu".to_string(),
    }
}

/// `#line N`: what follows is reported at line N of the user's file.
fn line_directive(file_text: &str, offset: Option<usize>) -> String {
    match offset {
        Some(at) => format!("#line {}\n", file_text.get(..at).map_or(1, |t| t.matches('\n').count() + 1)),
        None => String::new(),
    }
}

/// The device-only translation unit NVRTC compiles for one kernel version. `#line`
/// directives keep each helper and the kernel at their lines of the file, so a compile
/// error names the user's line.
pub fn cuda_translation_unit(kernel: &Kernel, file_text: &str) -> String {
    let mut out = String::from(NVRTC_PRELUDE);
    for line in file_text.lines() {
        let l = line.trim();
        if l.starts_with("#include")
            && ["cuda_fp16", "cuda_bf16", "mma.h", "cooperative_groups", "cuda/std", "cuda_pipeline"]
                .iter()
                .any(|h| l.contains(h))
        {
            out += l;
            out += "\n";
        }
    }
    let position = |h: &crate::kernel::Helper| match h.kind {
        HelperKind::Define | HelperKind::Macro => file_text.find(&format!("#define {}", h.name)),
        _ => file_text.find(&h.text),
    };
    let mut helpers: Vec<_> = kernel.helpers.iter().collect();
    helpers.sort_by_key(|h| position(h).unwrap_or(usize::MAX));
    for h in helpers {
        if h.kind != HelperKind::JitFunction {
            out += &line_directive(file_text, position(h));
        }
        match h.kind {
            HelperKind::Define => out += &format!("#define {} {}\n", h.name, h.text),
            HelperKind::Macro | HelperKind::Constant | HelperKind::DeviceFunction => {
                out += &h.text;
                out += "\n";
            }
            HelperKind::JitFunction => {}
        }
    }
    out += &line_directive(file_text, Some(kernel.range.start));
    out += &kernel.source;
    out += "\n";
    out
}

/// The launch a job runs as, and the host code's environment there: the first of the
/// kernel's launches whose guarding conditions may hold (`if (M >= 128 and N >= 128)`),
/// the names the host code sets on every path to it (a name set differently on different
/// paths stands for [`SET_ON_SOME_PATHS`]), the launch's template arguments, and the
/// file's definitions.
struct LaunchContext<'k> {
    launch: Option<&'k LaunchSite>,
    host: HostFacts,
    env: Env,
}

fn launch_context<'k>(k: &'k Kernel, text: &str, declared: &Env) -> LaunchContext<'k> {
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
            for h in &k.helpers {
                if !env.texts.contains_key(&h.name) {
                    env.define_helper(h);
                }
            }
            LaunchContext { launch: None, host: HostFacts::default(), env }
        }
    }
}

/// Declared values first; then the host code's values at the launch (the extractor's
/// locals where the host facts have none, or where a name is capped on one path only);
/// then the launch's template arguments and the file's definitions.
fn host_env(k: &Kernel, l: &LaunchSite, host: &HostFacts, declared: &Env) -> Env {
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
    for (key, v) in &locals {
        if !env.texts.contains_key(key) {
            env.define(key, v);
        }
    }
    for (key, v) in &l.meta {
        if !env.texts.contains_key(key) {
            env.define(key, v);
        }
    }
    for h in &k.helpers {
        if !env.texts.contains_key(&h.name) {
            env.define_helper(h);
        }
    }
    env
}

/// A guarding condition that evaluates to false (`and`/`&&` parts; anything with `or`
/// or that does not evaluate exactly may hold).
fn is_false(env: &Env, cond: &str) -> bool {
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
fn unsure_in(env: &Env, text: &str) -> Option<String> {
    crate::extract::words(text).find(|w| env.texts.get(*w).is_some_and(|v| v == SET_ON_SOME_PATHS)).map(str::to_string)
}

/// Builds the CUDA job for a (base, candidate) pair from the candidate's declarations,
/// and where they are silent from the candidate's launch: a scalar parameter takes the
/// value its launch argument has in the host code, a pointer parameter the size of the
/// buffer passed to it (`cudaMalloc(&A, sizeof(float) * M * N)`).
pub fn cuda_job(
    base: (&Kernel, &str),
    candidate: (&Kernel, &str),
    items: &[Item],
    decl_anchor: TextRange,
) -> Result<CudaJob, Vec<SpecError>> {
    let (cand, cand_text) = candidate;
    let mut errors = Vec::new();
    let err = SpecError::new;
    for it in items {
        if it.typed {
            if let Err(e) = parse_buffer(&it.value) {
                errors.push(err(it.range, format!("`{}`: {e}", it.key)));
            }
        }
    }
    let declared = kernel_declared_env(cand, items);
    let context = launch_context(cand, cand_text, &declared);
    let params = cuda_params(cand);
    if params.is_empty() && !cand.source.contains("()") {
        errors.push(err(decl_anchor, format!("cannot read the parameters of `{}`", cand.name)));
    }
    // The kernel's names: declared, else their launch arguments' values in the host code.
    let mut env = declared.clone();
    let launch_arg = |i: usize| context.launch.and_then(|l| l.args.get(i)).map(|a| a.trim().to_string());
    for (i, p) in params.iter().enumerate() {
        if p.pointer || env.texts.contains_key(&p.name) {
            continue;
        }
        if let Some(v) = launch_arg(i).and_then(|a| eval_exact(&context.env, &a)) {
            env.set(&p.name, v);
        }
    }
    // Else what the launcher computes from tensors whose sizes the file pins down.
    let launched = launched_scalars(cand, &params, items, &env);
    for (name, v) in &launched {
        if !env.values.contains_key(name) {
            env.define(name, &v.to_string());
        }
    }
    let tensors = launched_tensors(cand, &params, items, &env);
    let int_scalars: Vec<&Param> =
        params.iter().filter(|p| !p.pointer && DType::parse(&p.base_type).is_some_and(|d| !d.is_float())).collect();
    let default_len = if int_scalars.len() == 1 { Some(int_scalars[0].name.clone()) } else { None };
    let explicit_outputs: Option<Vec<String>> =
        items.iter().find(|i| i.key == "outputs").map(|i| i.value.split(',').map(|s| s.trim().to_string()).collect());
    let mut args = Vec::new();
    for (i, p) in params.iter().enumerate() {
        let decl = items.iter().find(|i| i.key == p.name);
        let type_name = p.base_type.replace("const", "").trim().to_string();
        if p.pointer {
            let (dtype, len, init, output) = match decl.filter(|d| d.typed).map(|d| (d, parse_buffer(&d.value))) {
                Some((d, Ok(b))) => {
                    let mut len = 1.0;
                    for dim in &b.shape {
                        match eval_exact(&env, dim) {
                            Some(v) if v >= 1.0 => len *= v,
                            _ => errors.push(err(d.range, format!("`{}`: cannot evaluate the size `{dim}` (declare it, e.g. `// kforecast: {dim} = 4096`)", p.name))),
                        }
                    }
                    (b.dtype, len, b.init, b.output)
                }
                Some((_, Err(_))) => continue,
                None => {
                    let Some(dtype) = DType::parse(&type_name).or_else(|| vector_dtype(&type_name)) else {
                        errors.push(SpecError::missing(
                            decl_anchor,
                            format!(
                                "`{}` has type `{}*`: declare it, e.g. `// kforecast: {}: f32[n]`",
                                p.name, type_name, p.name
                            ),
                        ));
                        continue;
                    };
                    let lanes = vector_lanes(&type_name);
                    // The buffer the launch passes, as the host code allocated it, or a
                    // tensor whose size the file pins down.
                    let allocated = launch_arg(i).and_then(|a| {
                        let bytes = context.host.allocations.get(&a)?;
                        let b = eval_exact(&context.env, bytes)?;
                        Some((b / dtype.size() as f64).floor())
                    });
                    let len = allocated
                        .or_else(|| tensors.get(&p.name).copied())
                        .or_else(|| default_len.as_ref().and_then(|n| eval_exact(&env, n)));
                    match len {
                        Some(len) if len >= 1.0 => (dtype, (len / lanes).ceil() * lanes, None, None),
                        _ => {
                            errors.push(SpecError::missing(
                                decl_anchor,
                                format!(
                                    "how many elements does `{}` have? declare it, e.g. `// kforecast: {}: {}[n]`",
                                    p.name,
                                    p.name,
                                    dtype_name(dtype)
                                ),
                            ));
                            continue;
                        }
                    }
                }
            };
            let output = explicit_outputs.as_ref().map(|o| o.contains(&p.name)).or(output).unwrap_or(!p.constant);
            let init = init.unwrap_or(if dtype.is_float() { Init::Randn } else { Init::Randint { lo: 0, hi: 100 } });
            args.push(Arg::Buffer { name: p.name.clone(), dtype, len: len as u64, init, output });
        } else {
            let Some(dtype) = DType::parse(&type_name) else {
                errors.push(err(
                    decl_anchor,
                    format!("parameter `{}` has type `{type_name}`, which kforecast cannot pass yet", p.name),
                ));
                continue;
            };
            match decl.filter(|d| !d.typed).map(|d| (d, eval_exact(&env, &d.value))) {
                Some((_, Some(v))) => args.push(Arg::Scalar { name: p.name.clone(), dtype, value: v }),
                Some((d, None)) => errors.push(err(
                    d.range,
                    format!("cannot evaluate `{}` (a number or an expression of declared names)", d.value),
                )),
                None => match env.values.get(&p.name).copied().or_else(|| launched.get(&p.name).copied()) {
                    Some(v) => args.push(Arg::Scalar { name: p.name.clone(), dtype, value: v }),
                    None => {
                        let passed = launch_arg(i).unwrap_or_default();
                        let message = match unsure_in(&context.env, &passed) {
                            Some(w) => format!(
                                "parameter `{}` needs a value: the launch passes `{passed}`, and `{w}` is set differently on different paths of the launching function; add `// kforecast: {} = …`",
                                p.name, p.name
                            ),
                            None => format!("parameter `{}` needs a value: add `// kforecast: {} = …`", p.name, p.name),
                        };
                        errors.push(SpecError::missing(decl_anchor, message))
                    }
                },
            }
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    let (base_kernel, base_text) = base;
    let base_context = launch_context(base_kernel, base_text, &declared);
    let version = |k: &Kernel, text: &str, context: &LaunchContext, errors: &mut Vec<SpecError>| {
        let (grid, block, shared_mem, name_expression) = launch_shape(k, context, items, &env, decl_anchor, errors);
        CudaVersion { source: cuda_translation_unit(k, text), name_expression, grid, block, shared_mem, file: None }
    };
    let base_version = version(base_kernel, base_text, &base_context, &mut errors);
    let candidate_version = version(cand, cand_text, &context, &mut errors);
    if !errors.is_empty() {
        return Err(errors);
    }
    Ok(CudaJob { kernel: cand.name.clone(), base: base_version, candidate: candidate_version, args })
}

/// The scalar parameters nothing declares whose value the kernel's launch passes and the
/// file pins down (`int size = x.numel();` in the launcher, with `x`'s shape known).
fn launched_scalars(k: &Kernel, params: &[Param], items: &[Item], declared: &Env) -> BTreeMap<String, f64> {
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
fn launched_tensors(k: &Kernel, params: &[Param], items: &[Item], declared: &Env) -> BTreeMap<String, f64> {
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
fn tensor_of(arg: &str) -> Option<&str> {
    let at =
        [".data_ptr", ".const_data_ptr", ".mutable_data_ptr", ".data<"].iter().filter_map(|m| arg.find(m)).min()?;
    let head = &arg[..at];
    let start = head.rfind(|c: char| !(c.is_alphanumeric() || c == '_')).map(|i| i + 1).unwrap_or(0);
    let name = &head[start..];
    (!name.is_empty() && !name.starts_with(|c: char| c.is_ascii_digit())).then_some(name)
}

/// The element count of a tensor a launcher makes, as an expression: `torch::empty_like(x)`
/// → `x.numel()`, `torch::zeros({M, N}, x.options())` → `(M) * (N)`.
fn made_tensor(value: &str) -> Option<String> {
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
fn site_env(k: &Kernel, params: &[Param], items: &[Item], declared: &Env) -> Env {
    let mut env = declared.clone();
    if let Some(l) = k.launches.first() {
        for (key, v) in &l.locals {
            if !env.texts.contains_key(key) {
                env.define(key, v);
            }
        }
        for (arg_text, p) in l.args.iter().zip(params) {
            let host = arg_text.trim();
            if host != p.name && host.chars().all(|c| c.is_alphanumeric() || c == '_') {
                if let Some(decl) = items.iter().find(|i| i.key == p.name && !i.typed) {
                    env.define(host, &decl.value);
                }
            }
        }
        for (key, v) in &l.meta {
            if !env.texts.contains_key(key) {
                env.define(key, v);
            }
        }
    }
    // The file's definitions, where the launch and the declaration leave a name open.
    for h in &k.helpers {
        if !env.texts.contains_key(&h.name) {
            env.define_helper(h);
        }
    }
    env
}

/// A version's grid, block, dynamic shared memory and NVRTC name expression: declared,
/// else from its launch in the host code, the kernel's arguments bound to their values.
fn launch_shape(
    k: &Kernel,
    context: &LaunchContext,
    items: &[Item],
    kernel_env: &Env,
    decl_anchor: TextRange,
    errors: &mut Vec<SpecError>,
) -> ([u32; 3], [u32; 3], u32, String) {
    let err = SpecError::new;
    let mut env = context.env.clone();
    let launch = context.launch;
    let params = cuda_params(k);
    if let Some(l) = launch {
        // A host name passed as a kernel argument takes the value the kernel's parameter has.
        for (arg_text, p) in l.args.iter().zip(&params) {
            let host = arg_text.trim();
            if host != p.name && host.chars().all(|c| c.is_alphanumeric() || c == '_') && !env.values.contains_key(host)
            {
                if let Some(decl) = items.iter().find(|i| i.key == p.name && !i.typed) {
                    env.define(host, &decl.value);
                } else if let Some(v) = kernel_env.values.get(&p.name) {
                    if env.eval(host).is_none_or(|e| e.guesses > 0) {
                        env.set(host, *v);
                    }
                }
            }
        }
    }
    let mut dims = |key: &str, site: Option<&String>| -> [u32; 3] {
        let decl = items.iter().find(|i| i.key == key);
        let text = decl.map(|d| d.value.clone()).or_else(|| site.cloned());
        let range = decl.map(|d| d.range).unwrap_or(decl_anchor);
        let Some(text) = text else {
            errors.push(err(range, format!("no `{key}` for `{}`: declare it (`// kforecast: {key} = …`) or launch the kernel with <<<…>>> in this file", k.name)));
            return [1, 1, 1];
        };
        let text = env.resolve(&text);
        let parts = components(&text).unwrap_or_else(|| vec![text.clone()]);
        let mut out = [1u32; 3];
        for (slot, part) in out.iter_mut().zip(&parts) {
            match eval_exact(&env, part) {
                Some(v) if v >= 1.0 && v <= u32::MAX as f64 => *slot = v as u32,
                _ => {
                    // A local the launching function sets on some paths only.
                    let unsure = site.and_then(|t| unsure_in(&env, t)).or_else(|| unsure_in(&env, part));
                    let message = match unsure {
                        Some(w) => format!(
                            "`{w}` is set on some paths only in the launching function, so the {key} is not known: declare it (`// kforecast: {key} = …`)"
                        ),
                        None => format!("cannot evaluate the {key} dimension `{part}`: declare the names it uses"),
                    };
                    errors.push(err(range, message))
                }
            }
        }
        out
    };
    let grid = dims("grid", launch.and_then(|l| l.grid.as_ref()));
    let block = dims("block", launch.and_then(|l| l.block.as_ref()));
    let shared_mem = match items
        .iter()
        .find(|i| i.key == "smem")
        .map(|i| i.value.clone())
        .or_else(|| launch.and_then(|l| l.shared_mem.clone()))
    {
        Some(t) => eval_exact(&env, &t).unwrap_or(0.0) as u32,
        None => 0,
    };
    // The hardware's limits on a launch (every current NVIDIA GPU).
    for (axis, (g, limit)) in ["x", "y", "z"].iter().zip(grid.iter().zip([i32::MAX as u32, 65535, 65535])) {
        if *g > limit {
            errors
                .push(err(decl_anchor, format!("`{}`: grid.{axis} = {g} is over the limit of {limit} blocks", k.name)));
        }
    }
    if block[2] > 64 {
        errors.push(err(decl_anchor, format!("`{}`: block.z = {} is over the limit of 64", k.name, block[2])));
    }
    if block.iter().map(|&b| b as u64).product::<u64>() > 1024 {
        errors.push(err(decl_anchor, format!("a block of {block:?} has more than 1024 threads")));
    }
    let name_expression = if k.constexpr_params.is_empty() {
        format!("&{}", k.name)
    } else {
        let mut targs = Vec::new();
        for t in &k.constexpr_params {
            match env.texts.get(t).and_then(|v| eval_exact(&env, v)) {
                Some(v) => targs.push(format!("{}", v as i64)),
                None => {
                    errors.push(err(decl_anchor, format!("template parameter `{t}` needs a value: launch `{}<…>` in this file or declare `// kforecast: {t} = …`", k.name)));
                    targs.push(t.clone());
                }
            }
        }
        format!("&{}<{}>", k.name, targs.join(", "))
    };
    (grid, block, shared_mem, name_expression)
}

pub(crate) fn vector_dtype(t: &str) -> Option<DType> {
    ["float4", "float2"].iter().any(|v| t.contains(v)).then_some(DType::F32)
}

fn vector_lanes(t: &str) -> f64 {
    if t.contains("float4") {
        4.0
    } else if t.contains("float2") {
        2.0
    } else {
        1.0
    }
}

pub(crate) fn dtype_name(d: DType) -> &'static str {
    match d {
        DType::F16 => "f16",
        DType::Bf16 => "bf16",
        DType::F32 => "f32",
        DType::F64 => "f64",
        DType::I8 => "i8",
        DType::U8 => "u8",
        DType::I32 => "i32",
        DType::U32 => "u32",
        DType::I64 => "i64",
        DType::U64 => "u64",
    }
}

/// The function added to a Triton file whose wrapper takes a tuple of inputs.
const TUPLE_ADAPTER: &str = "_kforecast_call";

/// Builds the Triton job: the wrapper named by `wrapper = f(a, b)` is called in both
/// versions of the file with the declared inputs.
pub fn triton_job(
    kernel: &str,
    base: (&str, &str),
    candidate: (&str, &str),
    items: &[Item],
    decl_anchor: TextRange,
) -> Result<TritonJob, Vec<SpecError>> {
    let mut errors = Vec::new();
    let err = SpecError::new;
    let env = declared_env(items);
    let Some(wrapper) = items.iter().find(|i| i.key == "wrapper") else {
        return Err(vec![err(
            decl_anchor,
            format!("`{kernel}`: name the launch wrapper to call, e.g. `# kforecast: wrapper = softmax(x)`"),
        )]);
    };
    let (mut name, mut args) = declaration::call(&wrapper.value);
    // `custom_kernel((x, w))`: one tuple of inputs, passed by an adapter added to the file.
    let mut adapter = String::new();
    if let [tuple] = &args[..] {
        if let Some(inner) = tuple.strip_prefix('(').and_then(|t| t.strip_suffix(')')) {
            let parts = declaration::list(inner);
            adapter = format!("\n\ndef {TUPLE_ADAPTER}({0}):\n    return {name}(({0},))\n", parts.join(", "));
            name = TUPLE_ADAPTER.to_string();
            args = parts;
        }
    }
    let mut inputs = Vec::new();
    for arg in &args {
        let Some(it) = items.iter().find(|i| &i.key == arg) else {
            errors.push(err(
                wrapper.range,
                format!("`{arg}` is passed to `{name}` but not declared (e.g. `# kforecast: {arg}: f32[4096] randn`)"),
            ));
            continue;
        };
        if it.typed {
            match parse_buffer(&it.value) {
                Ok(b) => {
                    let mut shape = Vec::new();
                    for dim in &b.shape {
                        match eval_exact(&env, dim) {
                            Some(v) if v >= 1.0 => shape.push(v as u64),
                            _ => errors.push(err(it.range, format!("`{arg}`: cannot evaluate the size `{dim}`"))),
                        }
                    }
                    inputs.push(TritonInput::Tensor {
                        name: arg.clone(),
                        dtype: b.dtype,
                        shape,
                        init: b.init.unwrap_or(if b.dtype.is_float() {
                            Init::Randn
                        } else {
                            Init::Randint { lo: 0, hi: 100 }
                        }),
                    });
                }
                Err(e) => errors.push(err(it.range, format!("`{arg}`: {e}"))),
            }
        } else {
            match eval_exact(&env, &it.value) {
                Some(v) => inputs.push(TritonInput::Scalar { name: arg.clone(), value: v }),
                None => errors.push(err(it.range, format!("cannot evaluate `{}`", it.value))),
            }
        }
    }
    let outputs = items
        .iter()
        .find(|i| i.key == "outputs")
        .map(|i| i.value.split(',').map(|s| s.trim().to_string()).collect())
        .unwrap_or_default();
    if !errors.is_empty() {
        return Err(errors);
    }
    let version = |(file_name, source): (&str, &str)| TritonVersion {
        file_name: file_name.to_string(),
        source: format!("{source}{adapter}"),
        wrapper: name.clone(),
    };
    Ok(TritonJob {
        kernel: kernel.to_string(),
        base: version(base),
        candidate: version(candidate),
        inputs,
        args,
        outputs,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::extract::extract_text;

    const SAXPY: &str = r#"#define THREADS 256
// y = a*x + y
// kforecast: n = 1 << 20; a = 2.0
__global__ void saxpy(int n, float a, const float* __restrict__ x, float* __restrict__ y) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}
void launch(int count, float a, const float* x, float* y) {
    int blocks = (count + THREADS - 1) / THREADS;
    saxpy<<<blocks, THREADS>>>(count, a, x, y);
}
"#;

    #[test]
    fn infers_buffers_outputs_and_launch_shape() {
        let k = extract_text(Language::Cuda, SAXPY).kernels.remove(0);
        let items = items(SAXPY, &k);
        assert_eq!(items.len(), 2);
        let job = cuda_job((&k, SAXPY), (&k, SAXPY), &items, k.name_range).expect("job");
        assert_eq!(job.candidate.grid, [4096, 1, 1]);
        assert_eq!(job.candidate.block, [256, 1, 1]);
        match &job.args[2] {
            Arg::Buffer { name, len, output, dtype, .. } => {
                assert_eq!((name.as_str(), *len, *output, *dtype), ("x", 1 << 20, false, DType::F32));
            }
            other => panic!("{other:?}"),
        }
        assert!(matches!(&job.args[3], Arg::Buffer { output: true, .. }));
        assert!(job.base.source.contains("__global__ void saxpy") && !job.base.source.contains("<<<"));
        assert_eq!(job.base.name_expression, "&saxpy");
    }

    #[test]
    fn mistakes_point_at_the_declaration() {
        let text = SAXPY.replace("a = 2.0", "a = two; y: q16[n]");
        let k = extract_text(Language::Cuda, &text).kernels.remove(0);
        let errs = cuda_job((&k, &text), (&k, &text), &items(&text, &k), k.name_range).expect_err("errors");
        let messages: Vec<_> = errs.iter().map(|e| e.message.clone()).collect();
        assert!(messages.iter().any(|m| m.contains("unknown dtype `q16`")), "{messages:?}");
        assert!(messages.iter().any(|m| m.contains("cannot evaluate `two`")), "{messages:?}");
        let bad = errs.iter().find(|e| e.message.contains("q16")).expect("q16");
        assert_eq!(&text[bad.range.start..bad.range.end], "y: q16[n]");
        let missing = SAXPY.replace("// kforecast: n = 1 << 20; a = 2.0\n", "");
        let k = extract_text(Language::Cuda, &missing).kernels.remove(0);
        let errs = cuda_job((&k, &missing), (&k, &missing), &items(&missing, &k), k.name_range).expect_err("errors");
        assert!(errs.iter().any(|e| e.message.contains("parameter `n` needs a value")));
    }

    #[test]
    fn launch_limits_are_declaration_errors() {
        let text = SAXPY.replace("saxpy<<<blocks, THREADS>>>", "saxpy<<<dim3(1, 70000), THREADS>>>");
        let k = extract_text(Language::Cuda, &text).kernels.remove(0);
        let errs = cuda_job((&k, &text), (&k, &text), &items(&text, &k), k.name_range).expect_err("errors");
        assert!(errs.iter().any(|e| e.message.contains("grid.y = 70000 is over the limit of 65535")), "{errs:?}");
    }

    #[test]
    fn a_grid_capped_in_the_wrapper_is_launched_capped_and_a_conditional_one_is_refused() {
        let capped = SAXPY.replace("    saxpy<<<", "    if (blocks > 1056) blocks = 1056;\n    saxpy<<<");
        let k = extract_text(Language::Cuda, &capped).kernels.remove(0);
        let job = cuda_job((&k, &capped), (&k, &capped), &items(&capped, &k), k.name_range).expect("job");
        assert_eq!(job.base.grid, [1056, 1, 1]);
        let unsure = SAXPY.replace("    saxpy<<<", "    if (a > 1.0f) blocks = 7;\n    saxpy<<<");
        let k = extract_text(Language::Cuda, &unsure).kernels.remove(0);
        let errs = cuda_job((&k, &unsure), (&k, &unsure), &items(&unsure, &k), k.name_range).expect_err("errors");
        assert!(errs.iter().any(|e| e.message.contains("`blocks` is set on some paths only")), "{errs:?}");
    }

    #[test]
    fn a_function_like_macro_reaches_nvrtc_whole_and_sizes_the_grid() {
        let text = SAXPY
            .replace(
                "#define THREADS 256\n",
                "#define THREADS 256\n#define AXPY(a, x, y) \\\n    ((a) * (x) + (y))\n#define BLOCKS_FOR(n, t) (((n) + (t) - 1) / (t))\n",
            )
            .replace("y[i] = a * x[i] + y[i]", "y[i] = AXPY(a, x[i], y[i])")
            .replace("int blocks = (count + THREADS - 1) / THREADS;", "int blocks = BLOCKS_FOR(count, THREADS);");
        let k = extract_text(Language::Cuda, &text).kernels.remove(0);
        let job = cuda_job((&k, &text), (&k, &text), &items(&text, &k), k.name_range).expect("job");
        let line = job.base.source.lines().find(|l| l.starts_with("#define AXPY(a, x, y)")).unwrap_or_default();
        assert!(line.ends_with("((a) * (x) + (y))"), "{}", job.base.source);
        assert_eq!(job.base.grid, [4096, 1, 1]);
    }

    const MATVEC: &str = include_str!("../../../../tests/data/foreign/matvec.cu");
    const MATVEC_WARP: &str = include_str!("../../../../tests/data/foreign/matvec_warp.cu");
    const SGEMM: &str = include_str!("../../../../tests/data/foreign/sgemm/sgemm_2d.cu");
    const SGEMM_TUNED: &str = include_str!("../../../../tests/data/foreign/sgemm/sgemm_2d_tuned.cu");
    const SCALE: &str = include_str!("../../../../tests/data/foreign/halfscale/scale.cu");
    const SCALE_VEC: &str = include_str!("../../../../tests/data/foreign/halfscale/scale_vec.cu");

    /// The CUDA job of a pair of files holding one kernel, with no declarations.
    fn pair_job(base: &str, candidate: &str) -> Result<CudaJob, Vec<SpecError>> {
        let b = extract_text(Language::Cuda, base).kernels.remove(0);
        let c = extract_text(Language::Cuda, candidate).kernels.remove(0);
        let sizes: Vec<_> = items(candidate, &c).into_iter().filter(|i| !SETTINGS.contains(&i.key.as_str())).collect();
        assert!(sizes.is_empty(), "no sizes declared in the file: {sizes:?}");
        match job(("base.cu", &b, base), ("candidate.cu", &c, candidate))?.0 {
            Job::Cuda(j) => Ok(j),
            Job::Triton(_) => panic!("a CUDA job"),
        }
    }

    fn scalar(job: &CudaJob, name: &str) -> Option<f64> {
        job.args.iter().find_map(|a| match a {
            Arg::Scalar { name: n, value, .. } if n == name => Some(*value),
            _ => None,
        })
    }

    fn buffer_len(job: &CudaJob, name: &str) -> Option<u64> {
        job.args.iter().find_map(|a| match a {
            Arg::Buffer { name: n, len, .. } if n == name => Some(*len),
            _ => None,
        })
    }

    #[test]
    fn sizes_come_from_a_launchers_declarators_and_its_cuda_malloc_calls() {
        let job = pair_job(MATVEC, MATVEC_WARP).expect("job");
        assert_eq!((scalar(&job, "M"), scalar(&job, "N")), (Some(8192.0), Some(8192.0)));
        assert_eq!(buffer_len(&job, "A"), Some(8192 * 8192));
        assert_eq!((buffer_len(&job, "x"), buffer_len(&job, "y")), (Some(8192), Some(8192)));
        assert_eq!(job.base.grid, [32, 1, 1]);
        assert_eq!(job.candidate.grid, [1024, 1, 1]);
        assert!(job.args.iter().any(|a| matches!(a, Arg::Buffer { name, output: true, .. } if name == "y")));
        let file = job.candidate.file.as_ref().expect("the whole file, for nvcc");
        assert_eq!((file.name.as_str(), file.text.as_str()), ("candidate.cu", MATVEC_WARP));
    }

    #[test]
    fn a_templated_sgemm_takes_its_sizes_from_main_and_tiles_from_the_taken_branch() {
        let job = pair_job(SGEMM, SGEMM_TUNED).expect("job");
        for (name, v) in [("M", 2048.0), ("N", 2048.0), ("K", 2048.0), ("alpha", 1.0), ("beta", 0.0)] {
            assert_eq!(scalar(&job, name), Some(v), "{name}");
        }
        assert_eq!(buffer_len(&job, "A"), Some(2048 * 2048));
        assert_eq!(job.base.name_expression, "&sgemm2DBlocktiling<64, 64, 8, 4, 4>");
        assert_eq!(job.candidate.name_expression, "&sgemm2DBlocktiling<128, 128, 8, 8, 8>");
        assert_eq!((job.base.grid, job.base.block), ([32, 32, 1], [256, 1, 1]));
        assert_eq!((job.candidate.grid, job.candidate.block), ([16, 16, 1], [256, 1, 1]));
        // The kernel stays at its own lines for NVRTC's messages.
        let line = SGEMM[..SGEMM.find("template <const int BM").unwrap_or(0)].matches('\n').count() + 1;
        assert!(job.base.source.contains(&format!("#line {line}\ntemplate <const int BM")), "{}", job.base.source);
        // Small matrices take the other branch.
        let small = SGEMM.replace("const int M = 2048, N = 2048, K = 2048;", "const int M = 64, N = 64, K = 64;");
        let job = pair_job(&small, &small).expect("job");
        assert_eq!(job.base.name_expression, "&sgemm2DBlocktiling<32, 32, 8, 4, 4>");
    }

    #[test]
    fn a_half_kernel_with_a_local_header_gets_its_scalar_from_the_caller() {
        let job = pair_job(SCALE, SCALE_VEC).expect("job");
        assert_eq!((scalar(&job, "s"), scalar(&job, "n")), (Some(2.0), Some(16777216.0)));
        assert!(job
            .args
            .iter()
            .any(|a| matches!(a, Arg::Buffer { name, dtype: DType::F16, len: 16777216, .. } if name == "x")));
        assert_eq!(job.candidate.grid, [32768, 1, 1]);
    }

    #[test]
    fn a_size_set_differently_on_two_paths_is_named() {
        let text = MATVEC.replace(
            "  const int threads = 256;\n",
            "  int threads;\n  if (M > 4096) {\n    threads = 128;\n  } else {\n    threads = 256;\n  }\n",
        );
        let errs = pair_job(&text, &text).expect_err("errors");
        assert!(errs.iter().any(|e| e.message.contains("`threads` is set on some paths only")), "{errs:?}");
        let agreed = text.replace("threads = 128;", "threads = 256;");
        assert_eq!(pair_job(&agreed, &agreed).expect("job").base.block, [256, 1, 1]);
    }

    #[test]
    fn triton_wrapper_and_inputs() {
        let text = "import triton\n# kforecast: wrapper = softmax(x); x: f32[rows, 1024] randn; rows = 64\n@triton.jit\ndef k(x_ptr):\n    pass\n";
        let kernel = extract_text(Language::Triton, text).kernels.remove(0);
        let it = items(text, &kernel);
        let job = triton_job("k", ("a.py", text), ("a.py", text), &it, kernel.name_range).expect("job");
        assert_eq!(job.base.wrapper, "softmax");
        assert_eq!(job.args, vec!["x"]);
        assert!(matches!(&job.inputs[0], TritonInput::Tensor { shape, .. } if shape == &vec![64, 1024]));
    }

    #[test]
    fn a_gpu_mode_program_is_called_with_the_tuple_generate_input_makes() {
        let text = "import torch\nimport triton\n\n@triton.jit\ndef k(x_ptr, w_ptr, y_ptr, N, BLOCK: tl.constexpr):\n    pass\n\n\
                    def custom_kernel(data):\n    x, w = data\n    y = torch.empty_like(x)\n    \
                    k[(x.shape[0],)](x, w, y, x.shape[1], BLOCK=1024)\n    return y\n\n\
                    def generate_input(M: int, N: int = 4096, seed: int = 0):\n    \
                    x = torch.randn(M, N, device='cuda', dtype=torch.float16)\n    w = torch.randn(N, device='cuda')\n    \
                    return x, w\n\nif __name__ == '__main__':\n    custom_kernel(generate_input(8192))\n";
        let kernel = extract_text(Language::Triton, text).kernels.remove(0);
        let (job, items) = job(("a.py", &kernel, text), ("b.py", &kernel, text)).expect("job");
        let Job::Triton(job) = job else { panic!("a Triton job") };
        assert_eq!(job.args, ["x", "w"]);
        assert!(
            matches!(&job.inputs[0], TritonInput::Tensor { shape, dtype: DType::F16, .. } if shape == &[8192, 4096])
        );
        assert!(matches!(&job.inputs[1], TritonInput::Tensor { shape, dtype: DType::F32, .. } if shape == &[4096]));
        assert_eq!(job.candidate.wrapper, TUPLE_ADAPTER);
        assert!(job.candidate.source.ends_with("def _kforecast_call(x, w):\n    return custom_kernel((x, w,))\n"));
        assert!(items.iter().any(|i| i.key == "wrapper" && i.value == "custom_kernel((x, w))"), "{items:?}");
    }
}
