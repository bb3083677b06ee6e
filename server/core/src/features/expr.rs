//! A small evaluator for the integer expressions found in launch configurations,
//! loop bounds and meta-parameters (C and Python syntax alike).
//!
//! Unknown names evaluate to [`Env::unknown`] and are counted as guesses, so the
//! forecaster knows how much of a cost estimate rests on assumed sizes. A binding cycle,
//! names bound to names that lead back to the first (`n → n`, `n → size → n`: a
//! launcher's parameter named like the kernel's, bound back to itself), is one unknown
//! size (unbound, named by its first name in order).

use crate::kernel::{Helper, HelperKind};
use std::collections::{BTreeMap, HashMap};

mod parse;
use parse::{device_query, tokenize, ExprParser, Tok};

/// Values known while evaluating.
#[derive(Clone, Debug)]
pub struct Env {
    pub values: HashMap<String, f64>,
    /// Unevaluated definitions (`#define`s, launch-site locals), evaluated on demand.
    pub texts: BTreeMap<String, String>,
    /// Function-like macros (`#define CEIL(a, b) (((a) + (b) - 1) / (b))`): parameters
    /// and body, expanded when called with the right number of arguments.
    pub macros: BTreeMap<String, (Vec<String>, String)>,
    /// Value assumed for a name nothing defines (a problem size).
    pub unknown: f64,
    /// The names that had no value when evaluated (the problem sizes assumed).
    pub missing: std::cell::RefCell<std::collections::BTreeSet<String>>,
    /// Names that may say what size they hold (a kernel's parameters, its launch's names):
    /// one of these that nothing gives takes its [`typical_size`] where its name tells one.
    pub roles: std::collections::BTreeSet<String>,
    /// The chain of names being evaluated, each bound to the next (`n → size`): one met
    /// again closes a binding cycle, which is unbound.
    pub binding: std::cell::RefCell<Vec<String>>,
}

/// Size assumed for a problem dimension nothing in the file pins down.
pub const ASSUMED_SIZE: f64 = 4_194_304.0;

/// The value each of the sizes `names` known only at run time is assumed to have, so that
/// together they make about [`ASSUMED_SIZE`] elements (see [`spread`]).
pub fn assumed_each<S: AsRef<str>>(names: &[S]) -> f64 {
    spread(ASSUMED_SIZE, names)
}

/// The value each of the sizes `names` whose role [`typical_size`] does not tell takes, so
/// that together with the others' typical values they make `elements` (a large tensor's
/// elements; at most four are taken to index it: N·C·H·W). A batch, heads or a head's width
/// stay small whatever the problem's size, so a tensor indexed by them and by a sequence
/// keeps realistic proportions instead of 45 of each at four unknowns.
///
/// A matrix product's sizes (`M`, `N` and `K`, in either case) index no tensor all three:
/// its operands and result are `M·K`, `K·N` and `M·N`, so each of its tensors makes the
/// elements, not `M·N·K` (which would shrink a 4096³ product to 161³, a few blocks).
pub fn spread<S: AsRef<str>>(elements: f64, names: &[S]) -> f64 {
    let small: f64 = names.iter().filter_map(|n| typical_size(n.as_ref())).product();
    let mut big = names.iter().filter(|n| typical_size(n.as_ref()).is_none()).count();
    if big == 0 {
        return elements;
    }
    let named = |d: &str| names.iter().any(|n| n.as_ref().eq_ignore_ascii_case(d));
    if big >= 3 && ["m", "n", "k"].iter().all(|d| named(d)) {
        big -= 1;
    }
    (elements / small).max(2.0).powf(1.0 / big.clamp(1, 4) as f64).round().max(2.0)
}

/// The value an unknown size is assumed to have: its typical value when its name tells its
/// role, else `each` (see [`spread`]).
pub fn assumed_value(name: &str, each: f64) -> f64 {
    typical_size(name).unwrap_or(each)
}

/// A typical value for a size whose name tells a role that stays small whatever the
/// problem's size: a batch (8), attention heads (16), a head's width (64), groups (32),
/// channels (64), a convolution window (3).
pub fn typical_size(name: &str) -> Option<f64> {
    let lower = name.to_ascii_lowercase();
    Some(match lower.as_str() {
        "b" | "bs" | "bsz" | "z" | "batch" | "batch_size" | "batches" | "n_batch" | "nbatch" | "num_batch"
        | "num_batches" => 8.0,
        "heads"
        | "num_heads"
        | "n_heads"
        | "nheads"
        | "n_head"
        | "nh"
        | "num_kv_heads"
        | "n_kv_heads"
        | "kv_heads"
        | "num_attention_heads" => 16.0,
        "head_dim" | "headdim" | "d_head" | "dhead" | "head_size" | "dh" | "hd" | "d_k" | "d_v" => 64.0,
        "groups" | "num_groups" | "n_groups" | "ngroups" => 32.0,
        "channels" | "in_channels" | "out_channels" | "c_in" | "c_out" | "cin" | "cout" | "num_channels" => 64.0,
        "kh" | "kw" | "k_h" | "k_w" | "kernel_size" | "ksize" | "kernel_h" | "kernel_w" => 3.0,
        _ => return None,
    })
}

/// Streaming multiprocessors of the modelled device (H100 SXM).
pub const SM_COUNT: f64 = 132.0;

impl Default for Env {
    fn default() -> Self {
        Self {
            values: HashMap::new(),
            texts: BTreeMap::new(),
            macros: BTreeMap::new(),
            unknown: ASSUMED_SIZE,
            missing: Default::default(),
            roles: Default::default(),
            binding: Default::default(),
        }
    }
}

/// Result of evaluating: a value and how many names were guessed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Eval {
    pub value: f64,
    pub guesses: u32,
    /// Of the guesses, how many were device queries (`num_sms()`), taken as an H100's.
    pub device_queries: u32,
}

impl Env {
    /// An environment of these names' texts (a launch's or caller's locals).
    pub fn of_texts<'a>(texts: impl IntoIterator<Item = (&'a String, &'a String)>) -> Self {
        let mut env = Self::default();
        for (k, v) in texts {
            env.define(k, v);
        }
        env
    }

    pub fn set(&mut self, name: &str, value: f64) {
        self.values.insert(name.to_string(), value);
    }

    /// Defines `name` as `text`; a `dim3(a, b)` also defines `name.x`, `.y`, `.z` (1 where
    /// not given).
    pub fn define(&mut self, name: &str, text: &str) {
        if text.starts_with("dim3") {
            if let Some(parts) = components(text) {
                for (i, axis) in ["x", "y", "z"].into_iter().enumerate() {
                    let value = parts.get(i).map_or("1", String::as_str);
                    self.texts.insert(format!("{name}.{axis}"), value.to_string());
                }
            }
        }
        self.texts.insert(name.to_string(), text.to_string());
    }

    /// What a file-level helper stands for: a `#define` or constant's value, or a
    /// function-like macro (functions have nothing to evaluate).
    pub fn define_helper(&mut self, h: &Helper) {
        self.define_definition(&h.name, h.kind, &h.text);
    }

    /// A file-level definition of `kind` named `name` whose text is `text` (see
    /// [`Env::define_helper`]).
    pub fn define_definition(&mut self, name: &str, kind: HelperKind, text: &str) {
        match kind {
            HelperKind::Define | HelperKind::Constant => self.define(name, crate::kernel::definition_value(kind, text)),
            HelperKind::Macro => self.define_macro(text),
            HelperKind::DeviceFunction | HelperKind::JitFunction => {}
        }
    }

    /// A function-like macro from its whole definition (`#define NAME(a, b) body`);
    /// ignored if it does not read as one.
    pub fn define_macro(&mut self, definition: &str) {
        if let Some(m) = crate::extract::macros::Macro::parse(definition) {
            self.macros.insert(m.name, (m.params, m.body));
        }
    }

    /// The body of macro `name` with `args` in place of its parameters.
    fn expand(&self, name: &str, args: &[f64]) -> Option<String> {
        let (params, body) = self.macros.get(name)?;
        (params.len() == args.len()).then(|| {
            params
                .iter()
                .zip(args)
                .fold(body.clone(), |text, (p, a)| crate::extract::substitute(&text, p, &format!("({a})")))
        })
    }

    /// Follows a name to its definition (`block` → `dim3(32, 8)`), a few steps at most.
    pub fn resolve(&self, text: &str) -> String {
        let mut text = text.to_string();
        for _ in 0..4 {
            match self.texts.get(text.trim()) {
                Some(def) => text = def.clone(),
                None => break,
            }
        }
        text
    }

    /// Evaluates `text`; `None` if it is not an arithmetic expression.
    pub fn eval(&self, text: &str) -> Option<Eval> {
        self.eval_depth(text, 0)
    }

    /// Evaluates `text` without naming what it lacks as a problem size: an index's scale
    /// (`oy * S - P`, `s + eps`) is not a size unless it also bounds a loop or the grid.
    pub fn eval_quiet(&self, text: &str) -> Option<Eval> {
        let before = self.missing.borrow().clone();
        let e = self.eval(text);
        *self.missing.borrow_mut() = before;
        e
    }

    /// Evaluates a condition (C's `n < 1024 && !fast`, Python's `n < 1024 and not fast`) as
    /// 1 or 0, without naming what it lacks as a problem size; `None` if it is not one.
    pub fn eval_condition(&self, text: &str) -> Option<Eval> {
        let before = self.missing.borrow().clone();
        let tokens = tokenize(text.trim());
        let e = tokens.and_then(|tokens| {
            let mut p = ExprParser { tokens: &tokens, pos: 0, env: self, guesses: 0, device_queries: 0, depth: 0 };
            let value = p.logical_or()?;
            (p.pos == tokens.len() && value.is_finite()).then_some(Eval {
                value,
                guesses: p.guesses,
                device_queries: p.device_queries,
            })
        });
        *self.missing.borrow_mut() = before;
        e
    }

    /// Evaluates, falling back to `default` (counted as a guess) on failure.
    pub fn eval_or(&self, text: Option<&str>, default: f64) -> Eval {
        text.and_then(|t| self.eval(t)).unwrap_or(Eval { value: default, guesses: 1, device_queries: 0 })
    }

    fn eval_depth(&self, text: &str, depth: usize) -> Option<Eval> {
        if depth > 8 {
            return None;
        }
        let body = strip_lambda(text);
        let tokens = tokenize(body)?;
        let mut p = ExprParser { tokens: &tokens, pos: 0, env: self, guesses: 0, device_queries: 0, depth };
        let value = p.expr()?;
        if p.pos != tokens.len() || !value.is_finite() {
            return None;
        }
        Some(Eval { value, guesses: p.guesses, device_queries: p.device_queries })
    }

    /// Whether a preprocessor condition holds for an H100 build (`__CUDA_ARCH__` 900, a CUDA
    /// 12 toolkit); `None` where it reads other macros than those and the file's constants.
    pub fn preprocessor_condition(&self, text: &str) -> Option<bool> {
        const DEVICE: [(&str, &str); 5] = [
            ("__CUDA_ARCH__", "900"),
            ("CUDA_VERSION", "12040"),
            ("__CUDACC_VER_MAJOR__", "12"),
            ("__CUDACC__", "1"),
            ("__NVCC__", "1"),
        ];
        let mut t = text.replace('\\', " ").replace("&&", "&").replace("||", "|");
        // `defined(X)`, `defined X`: 1 for the device's macros and the file's constants.
        while let Some(at) = t.find("defined") {
            let rest = t[at + "defined".len()..].trim_start();
            let (name, len) = match rest.strip_prefix('(') {
                Some(inner) => {
                    let close = inner.find(')')?;
                    (inner[..close].trim().to_string(), t.len() - at - (inner.len() - close - 1))
                }
                None => {
                    let end = rest.find(|c: char| !(c.is_alphanumeric() || c == '_')).unwrap_or(rest.len());
                    (rest[..end].to_string(), t.len() - at - (rest.len() - end))
                }
            };
            let known = DEVICE.iter().any(|(m, _)| *m == name) || self.defines(&name);
            t.replace_range(at..at + len, if known { "1" } else { "0" });
        }
        if t.contains('!') && t.replace("!=", "").contains('!') {
            return None;
        }
        for (m, v) in DEVICE {
            t = crate::extract::substitute(&t, m, v);
        }
        let e = self.eval_quiet(&t).filter(|e| e.guesses == 0)?;
        Some(e.value != 0.0)
    }

    /// Whether `name` has a value or a definition.
    pub fn defines(&self, name: &str) -> bool {
        self.values.contains_key(name) || self.texts.contains_key(name)
    }

    fn lookup(&self, name: &str, depth: usize) -> Eval {
        if let Some(v) = self.values.get(name) {
            return Eval { value: *v, guesses: 0, device_queries: 0 };
        }
        if let Some(v) = boolean(name) {
            return Eval { value: v, guesses: 0, device_queries: 0 };
        }
        // `x.requires_grad` of a tensor nothing marks: made without (torch's default), so a
        // forward run skips the gradient work a training run's input would ask for.
        if name.ends_with(".requires_grad") && !self.texts.contains_key(name) {
            return Eval { value: 0.0, guesses: 0, device_queries: 0 };
        }
        // A name its chain of bindings comes back to (a binding cycle) is unbound: the
        // cycle is one size, named by its first name in order whichever name it is
        // entered by (`n → size → n` is `n`, evaluated as `n` or as `size`).
        let cycle = self.binding.borrow().iter().position(|n| n == name).map(|at| {
            let chain = self.binding.borrow();
            chain[at..].iter().min().cloned().unwrap_or_else(|| name.to_string())
        });
        let name = cycle.as_deref().unwrap_or(name);
        let typical = if self.roles.contains(name) { typical_size(name) } else { None };
        if let Some(text) = self.texts.get(name).filter(|_| cycle.is_none()) {
            let before = typical.map(|_| self.missing.borrow().clone());
            // A name bound to a name extends the chain; an expression starts a new one.
            let chain = match bound_name(text) {
                true => {
                    self.binding.borrow_mut().push(name.to_string());
                    None
                }
                false => Some(std::mem::take(&mut *self.binding.borrow_mut())),
            };
            let evaluated = self.eval_depth(text, depth + 1);
            match chain {
                None => {
                    self.binding.borrow_mut().pop();
                }
                Some(chain) => *self.binding.borrow_mut() = chain,
            }
            if let Some(e) = evaluated {
                // `B, H, S, D = q.shape`: the name tells the role of the size it holds.
                if let (Some(before), Some(value), true) = (before, typical, e.guesses > e.device_queries) {
                    if let Ok(mut missing) = self.missing.try_borrow_mut() {
                        *missing = before;
                        missing.insert(name.to_string());
                    }
                    return Eval { value, guesses: 1, device_queries: 0 };
                }
                return e;
            }
        }
        // `auto input = arg0.contiguous();`: a tensor made from another by a method that keeps
        // its shape has that tensor's sizes (`input.size(0)` is `arg0`'s).
        if let Some(e) = self.through_copy(name, depth) {
            return e;
        }
        if device_query(name).is_some() {
            // `props.multiProcessorCount`, `_SM_COUNT`: the device's, taken as an H100's.
            return Eval { value: SM_COUNT, guesses: 1, device_queries: 1 };
        }
        if let Ok(mut missing) = self.missing.try_borrow_mut() {
            if missing.len() < 64 {
                missing.insert(name.to_string());
            }
        }
        Eval { value: typical.unwrap_or(self.unknown), guesses: 1, device_queries: 0 }
    }

    /// `t.shape[i]` or `t.numel()` of a tensor `t` defined as a shape-keeping copy of
    /// another (`x.contiguous()`, `x.float()`, `x.to(…)`): the other's, where it is known
    /// without a guess.
    fn through_copy(&self, name: &str, depth: usize) -> Option<Eval> {
        if depth > 24 {
            return None;
        }
        let at = name.rfind(".shape[").or_else(|| name.strip_suffix(".numel()").map(str::len))?;
        let (tensor, query) = name.split_at(at);
        let source = copied_from(self.texts.get(tensor)?)?;
        let other = format!("{source}{query}");
        let before = self.missing.borrow().clone();
        let e = self.eval_depth(&other, depth + 1).filter(|e| e.guesses == 0);
        if e.is_none() {
            *self.missing.borrow_mut() = before;
        }
        e
    }
}

/// The tensor `text` copies keeping its shape (`arg0.contiguous()` → `arg0`,
/// `x.to(torch.float32).contiguous()` → `x`).
fn copied_from(text: &str) -> Option<&str> {
    const KEEP_SHAPE: [&str; 10] =
        ["contiguous", "clone", "detach", "float", "half", "bfloat16", "cuda", "to", "type", "requires_grad_"];
    let mut t = text.trim();
    let mut stripped = false;
    while let Some(open) = t.strip_suffix(')').and_then(|u| u.rfind('(')) {
        let head = &t[..open];
        let (object, method) = head.rsplit_once('.')?;
        if !KEEP_SHAPE.contains(&method) {
            break;
        }
        t = object.trim();
        stripped = true;
    }
    let plain = t.chars().all(|c| c.is_alphanumeric() || c == '_');
    (stripped && plain && !t.is_empty()).then_some(t)
}

/// Whether `text` is one name, maybe in parentheses (`size`, `(n)`, `x.shape[0]`).
fn bound_name(text: &str) -> bool {
    let mut t = text.trim();
    while let Some(inner) = t.strip_prefix('(').and_then(|t| t.strip_suffix(')')) {
        t = inner.trim();
    }
    matches!(tokenize(t).as_deref(), Some([Tok::Name(_)]))
}

/// `true` / `false` (C++, and Python's `True` / `False`) as 1 / 0; Python's `None` (no
/// tensor passed, no value) as 0, which `x is None` compares with.
fn boolean(name: &str) -> Option<f64> {
    match name {
        "true" | "True" => Some(1.0),
        "false" | "False" | "None" => Some(0.0),
        _ => None,
    }
}

/// `lambda meta: (…)` → `(…)`.
fn strip_lambda(text: &str) -> &str {
    let t = text.trim();
    if let Some(rest) = t.strip_prefix("lambda") {
        if let Some(colon) = rest.find(':') {
            return rest[colon + 1..].trim();
        }
    }
    t
}

/// Splits a `dim3(a, b, c)` or `(a, b)` text into its components, if it is one.
pub fn components(text: &str) -> Option<Vec<String>> {
    let t = strip_lambda(text).trim();
    let inner = t.strip_prefix("dim3").unwrap_or(t).trim();
    let inner = inner.strip_prefix('(')?.strip_suffix(')')?;
    let mut parts = Vec::new();
    let mut depth = 0i32;
    let mut current = String::new();
    for c in inner.chars() {
        match c {
            '(' | '[' | '{' => depth += 1,
            // `(unsigned)CDIV(n, 256)`: the first `(` closes early, so the text is not a tuple.
            ')' | ']' | '}' if depth == 0 => return None,
            ')' | ']' | '}' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(std::mem::take(&mut current));
                continue;
            }
            _ => {}
        }
        current.push(c);
    }
    parts.push(current);
    let parts: Vec<String> = parts.into_iter().map(|p| p.trim().to_string()).filter(|p| !p.is_empty()).collect();
    if parts.is_empty() || (parts.len() == 1 && !t.starts_with("dim3") && !inner.trim_end().ends_with(',')) {
        return None;
    }
    Some(parts)
}

#[cfg(test)]
mod tests;
