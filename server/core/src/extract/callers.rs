//! A launching function's parameters bound from its caller in the same file, as the
//! forecaster reads them: `run(n, threads, blocks)` called from `entry(…)` after
//! `shape_for(kind, n, 256, blocks, threads)` set `blocks` and `threads` through
//! reference parameters.
//!
//! Each host function item contributes, once per content (cached with its piece):
//! - its calls of other functions ([`CallDraft`]: the arguments and the caller's locals
//!   there);
//! - if it has reference parameters (`int &blocks`), what it leaves in them
//!   ([`OutParams`]), read statement by statement (`statements.rs`'s reader, under its
//!   [`Merge::Ternary`] rule) with each value written out in the function's parameters:
//!   a value set differently in the branches of an `if` becomes `(cond) ? (a) : (b)`; a
//!   branch that reports an error (`printf`, `exit`, `throw`) is the rare path and is not
//!   followed; a name set in a loop is unknown.
//!
//! At assembly, [`bind`] gives the launch the values its function's parameters have at
//! the first call of it in the file (through up to [`MAX_CALLERS`] callers): a number
//! where the caller's text evaluates, else the caller's text with the caller's locals
//! written in (its own unbound parameters stay names, so the size prior sizes them).

use super::statements::{replace_words, Merge, Reader, State, Value, MAX_TEXT};
use super::{node_text, walk};
use crate::hash::Hasher;
use crate::kernel::{LaunchSite, SET_ON_SOME_PATHS};
use crate::source::SourceText;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use tree_sitter::Node;

/// Callers followed up from a launching function (main → run → launch).
pub(super) const MAX_CALLERS: usize = 3;
/// Calls kept per function.
const MAX_CALLS: usize = 32;

/// A call of a host function (not a launch).
#[derive(Clone, Debug, PartialEq)]
pub(super) struct CallDraft {
    pub callee: String,
    /// Explicit template arguments (`solve_impl<256, 2>(…)`), in order.
    pub template_args: Vec<String>,
    pub args: Vec<String>,
    /// The calling function's locals at the call (see `cuda::host_locals`).
    pub locals: BTreeMap<String, String>,
    /// Offset of the call in its item (orders calls of one function).
    pub at: usize,
    /// The calling function and its parameters.
    pub function: String,
    pub function_params: Vec<String>,
    /// Keyword arguments by parameter name (Python).
    pub keywords: BTreeMap<String, String>,
    /// The calling function's parameter defaults, which hold where its own caller leaves
    /// them out (Python).
    pub function_defaults: BTreeMap<String, String>,
    /// The call may leave out parameters that have defaults (Python): it binds the
    /// parameters it passes, by place and by name.
    pub partial: bool,
}

/// What a function leaves in its reference parameters, in terms of its parameters.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct OutParams {
    pub function: String,
    pub params: Vec<String>,
    /// (parameter index, value text).
    pub outputs: Vec<(usize, String)>,
}

impl CallDraft {
    /// The call passes what a function of parameters `params` takes: one argument each
    /// (C), or no more than it has, keywords among them (Python).
    fn binds(&self, params: &[String]) -> bool {
        if self.partial {
            self.args.len() <= params.len() && self.keywords.keys().all(|k| params.contains(k))
        } else {
            self.args.len() == params.len()
        }
    }

    /// The caller's locals at the call whose value holds on every path to it.
    pub fn known_locals(&self) -> BTreeMap<String, String> {
        self.locals
            .iter()
            .filter(|(_, v)| v.as_str() != SET_ON_SOME_PATHS)
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect()
    }

    /// Feeds what binds a launch (callee, arguments, the caller's locals) to `h`.
    pub fn hash_into(&self, h: &mut Hasher) {
        h.str(&self.callee).str(&self.function);
        for a in &self.template_args {
            h.str(a);
        }
        h.str("\u{1}");
        for a in self.args.iter().chain(&self.function_params) {
            h.str(a);
        }
        for (k, v) in self.locals.iter().chain(&self.keywords).chain(&self.function_defaults) {
            h.str(k).str(v);
        }
        h.str(if self.partial { "\u{2}" } else { "\0" });
    }
}

impl OutParams {
    /// Feeds the function, its parameters and what it leaves in them to `h`.
    pub fn hash_into(&self, h: &mut Hasher) {
        h.str(&self.function);
        for p in &self.params {
            h.str(p);
        }
        for (i, v) in &self.outputs {
            h.str(&i.to_string()).str(v);
        }
        h.str("\0");
    }
}

/// A function definition's name (its last `::` part) and parameter names.
pub(super) fn signature(def: Node, src: &SourceText) -> Option<(String, Vec<String>)> {
    let declarator = super::cuda::function_declarator(def)?;
    let name = declarator.child_by_field_name("declarator").map(|n| node_text(n, src).into_owned())?;
    let name = name.rsplit("::").next().unwrap_or_default().trim().to_string();
    let params = declarator.child_by_field_name("parameters").map(|list| parameter_names(list, src));
    Some((name, params.unwrap_or_default().into_iter().flatten().collect()))
}

/// The names of a C parameter list's parameters, in order (`None` for one without a name).
pub(super) fn parameter_names(list: Node, src: &SourceText) -> Vec<Option<String>> {
    let mut c = list.walk();
    list.named_children(&mut c)
        .filter(|p| p.kind().ends_with("parameter_declaration"))
        .map(|p| {
            p.child_by_field_name("declarator").and_then(super::declarator_name).map(|n| node_text(n, src).into_owned())
        })
        .collect()
}

/// Library calls that never launch or set sizes.
fn library(name: &str) -> bool {
    name.starts_with("cuda")
        || name.starts_with("cu") && name.chars().nth(2).is_some_and(|c| c.is_ascii_uppercase())
        || name.starts_with("check")
        || matches!(name, "printf" | "fprintf" | "sprintf" | "puts" | "malloc" | "free" | "memcpy" | "memset" | "exit")
}

/// The name a call's function is written with (`run`, `run<float>`), if it is a plain name,
/// and its explicit template arguments.
fn callee_name(call: Node, src: &SourceText) -> Option<(String, Vec<String>)> {
    let f = call.child_by_field_name("function")?;
    let (name, template_args) = match f.kind() {
        "identifier" => (node_text(f, src).into_owned(), Vec::new()),
        "template_function" => (
            node_text(f.child_by_field_name("name")?, src).into_owned(),
            super::cuda::list_texts(f.child_by_field_name("arguments"), src),
        ),
        _ => return None,
    };
    (!library(&name)).then_some((name, template_args))
}

/// The host function `def`'s calls of other functions.
pub(super) fn calls_in(def: Node, item: Node, src: &SourceText) -> Vec<CallDraft> {
    let Some((function, function_params)) = signature(def, src) else { return Vec::new() };
    let Some(body) = def.child_by_field_name("body") else { return Vec::new() };
    let mut out = Vec::new();
    walk::preorder(body, |n| {
        if n.kind() != "call_expression" || out.len() >= MAX_CALLS {
            return out.len() < MAX_CALLS;
        }
        let mut c = n.walk();
        if n.children(&mut c).any(|ch| ch.kind() == "kernel_call_syntax") {
            return true;
        }
        let Some((callee, template_args)) = callee_name(n, src) else { return true };
        let args = super::cuda::list_texts(n.child_by_field_name("arguments"), src);
        let locals = super::cuda::host_locals(item, src, n.start_byte());
        out.push(CallDraft {
            callee,
            template_args,
            args,
            locals,
            at: n.start_byte() - item.start_byte(),
            function: function.clone(),
            function_params: function_params.clone(),
            keywords: BTreeMap::new(),
            function_defaults: BTreeMap::new(),
            partial: false,
        });
        true
    });
    out
}

/// What the host function `def` leaves in its reference parameters, if it has any it sets.
pub(super) fn out_params(def: Node, src: &SourceText) -> Option<OutParams> {
    let (function, params) = signature(def, src)?;
    let declarator = super::cuda::function_declarator(def)?;
    let list = declarator.child_by_field_name("parameters")?;
    let mut c = list.walk();
    let references: Vec<usize> = list
        .named_children(&mut c)
        .enumerate()
        .filter(|(_, p)| p.child_by_field_name("declarator").is_some_and(|d| d.kind() == "reference_declarator"))
        .map(|(i, _)| i)
        .collect();
    if references.is_empty() {
        return None;
    }
    let body = def.child_by_field_name("body")?;
    let values = params.iter().map(|p| (p.clone(), Value::Known(p.clone()))).collect();
    let mut st = State { values, ..State::default() };
    Reader { text: src, merge: Merge::Ternary }.block(body, usize::MAX, &mut st, 0);
    let outputs: Vec<(usize, String)> = references
        .into_iter()
        .filter_map(|i| {
            let p = params.get(i)?;
            match st.values.get(p)? {
                Value::Known(v) if v != p => Some((i, v.clone())),
                _ => None,
            }
        })
        .collect();
    (!outputs.is_empty()).then_some(OutParams { function, params, outputs })
}

/// The file's calls and reference-parameter summaries, for [`bind`].
#[derive(Default)]
pub(super) struct Callers<'a> {
    /// Calls by callee: (item index, call).
    calls: HashMap<&'a str, Vec<(usize, &'a CallDraft)>>,
    /// Calls by item, in order.
    by_item: HashMap<usize, Vec<&'a CallDraft>>,
    outs: HashMap<&'a str, &'a OutParams>,
    /// The host functions the file's entry points reach, whose calls bind first.
    reached: Option<&'a BTreeSet<String>>,
}

impl<'a> Callers<'a> {
    pub fn add(&mut self, item: usize, calls: &'a [CallDraft], outs: &'a [OutParams]) {
        for c in calls {
            self.calls.entry(c.callee.as_str()).or_default().push((item, c));
            self.by_item.entry(item).or_default().push(c);
        }
        for o in outs {
            self.outs.entry(o.function.as_str()).or_insert(o);
        }
    }

    /// The file's calls of `function`, in file order.
    pub fn calls_of(&self, function: &str) -> impl Iterator<Item = &'a CallDraft> + '_ {
        self.calls.get(function).into_iter().flatten().map(|(_, c)| *c)
    }

    /// Calls made from `reached` functions bind before others (an entry point's call of a
    /// launcher, not a test harness's sweep earlier in the file).
    pub fn prefer(&mut self, reached: Option<&'a BTreeSet<String>>) {
        self.reached = reached;
    }

    /// The values of `function`'s parameters at the first call of it in the file (from a
    /// function the entry points reach, where the file has entry points and one does).
    fn values(&self, function: &str, params: &[String], depth: usize) -> BTreeMap<String, String> {
        let mut out = BTreeMap::new();
        let candidates = || {
            self.calls.get(function).into_iter().flatten().filter(|(_, c)| c.function != function && c.binds(params))
        };
        let reached = |c: &CallDraft| self.reached.is_some_and(|r| r.contains(&c.function));
        let Some((item, call)) = candidates().find(|(_, c)| reached(c)).or_else(|| candidates().next()) else {
            return out;
        };
        let mut texts = call.known_locals();
        if depth < MAX_CALLERS {
            for (k, v) in self.values(&call.function, &call.function_params, depth + 1) {
                texts.entry(k).or_insert(v);
            }
        }
        // What the caller's own caller leaves out keeps its default.
        for (k, v) in &call.function_defaults {
            texts.entry(k.clone()).or_insert_with(|| v.clone());
        }
        // Earlier calls of the same function that set its locals through references.
        let earlier =
            self.by_item.get(item).into_iter().flatten().filter(|c| c.function == call.function && c.at < call.at);
        for c in earlier {
            let Some(o) = self.outs.get(c.callee.as_str()).filter(|o| o.params.len() == c.args.len()) else { continue };
            for (i, text) in &o.outputs {
                let Some(target) = c.args.get(*i).filter(|a| a.chars().all(|ch| ch.is_alphanumeric() || ch == '_'))
                else {
                    continue;
                };
                let value = replace_words(text, |w| {
                    o.params.iter().position(|p| p == w).and_then(|j| c.args.get(j)).map(|a| format!("({a})"))
                });
                texts.insert(target.clone(), value);
            }
        }
        let env = crate::features::expr::Env::default();
        let by_name = params.iter().filter_map(|p| Some((p, call.keywords.get(p)?)));
        for (p, a) in params.iter().zip(&call.args).chain(by_name) {
            let Some(text) = written_out(a, &texts) else { continue };
            let value = match env.eval_quiet(&text).filter(|e| e.guesses == 0) {
                Some(e) => super::host::number(e.value),
                None => text,
            };
            out.insert(p.clone(), value);
        }
        out
    }
}

/// `text` with the caller's names written out (a few rounds), `None` if too long.
pub(super) fn written_out(text: &str, texts: &BTreeMap<String, String>) -> Option<String> {
    let mut t = text.to_string();
    for _ in 0..6 {
        let next = replace_words(&t, |w| texts.get(w).filter(|v| v.as_str() != w).map(|v| format!("({v})")));
        if next == t {
            break;
        }
        t = next;
        if t.len() > MAX_TEXT {
            return None;
        }
    }
    Some(t)
}

/// Binds the launching function's parameters (`params`) that the launch does not already
/// know from the first call of the function in the file. A value that uses a name the
/// launching function has for something else is left out.
pub(super) fn bind(site: &mut LaunchSite, params: &[String], callers: &Callers) {
    if params.is_empty() || site.host_name.is_empty() || params.iter().all(|p| site.locals.contains_key(p)) {
        return;
    }
    let own: BTreeSet<String> = params.iter().chain(site.locals.keys()).cloned().collect();
    let values = callers.values(&site.host_name, params, 1);
    for (p, v) in values {
        let clash = super::words(&v).any(|w| own.contains(w));
        if !clash && !site.locals.contains_key(&p) {
            site.locals.insert(p, v);
        }
    }
}
