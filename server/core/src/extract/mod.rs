//! Kernel extraction from a parsed file.
//!
//! A file is a list of top-level items (functions, templates, `#define`s, decorated
//! definitions…). Each item is summarised once into [`ItemFacts`] (kernels and helpers
//! it defines, launch sites it contains), cached by the hash of its text, so an edit
//! inside one kernel of a large file re-reads only that kernel. The file-level pass then
//! resolves helpers and attaches launch sites to kernels by name.

mod assemble;
mod autotune;
mod borrow_inputs;
mod branches;
mod callers;
mod cuda;
mod embedded_cuda;
pub mod gpumode;
pub mod host;
mod macro_kernels;
mod macro_launches;
pub(crate) mod macros;
mod normalize;
mod passed_kernels;
mod pieces;
mod pybranch;
mod pycall;
mod pycallers;
mod pydtype;
mod pyhelper;
mod pyreach;
mod pyshapes;
mod pystring;
mod reach;
mod split;
mod statements;
mod torch_program;
mod trips;
mod triton;
mod walk;
pub mod workspace;

pub use borrow_inputs::borrow_inputs;
pub use cuda::library_program;
pub use embedded_cuda::MARKERS as EMBEDDED_CUDA_MARKERS;
pub use pieces::FOCUS_LIMIT;
pub use pydtype::agreed as agreed_element_size;
pub use torch_program::{entry_program, torch_program};

pub(crate) use cuda::declarator_name;
pub(crate) use triton::parameters as python_parameters;
pub(crate) use walk::preorder as walk_preorder;

use crate::hash::ContentHash;
use crate::kernel::{HelperKind, Kernel, Language, LaunchSite, TextRange};
use crate::source::SourceText;
use assemble::{assemble, orphan_launches, Built};
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::Arc;
use std::time::Instant;
use tree_sitter::Node;

/// The kernels of one file.
#[derive(Clone, Debug, Default)]
pub struct Extraction {
    pub kernels: Vec<Kernel>,
    /// Byte ranges of syntax errors (at most a few dozen).
    pub syntax_errors: Vec<TextRange>,
    /// Launches of kernels this file does not define (callee, site), for the files that
    /// define them.
    pub external_launches: Vec<(String, LaunchSite)>,
    /// Pieces of the file not read yet ([`Extractor::read`] with a deadline): the
    /// kernels are those of the pieces read, with what those pieces tell of them.
    pub unread: usize,
    /// A parse ran out of time (the whole text's, or a piece's: its kernels are missing).
    pub timed_out: bool,
}

impl Extraction {
    pub fn kernel(&self, name: &str) -> Option<&Kernel> {
        self.kernels.iter().find(|k| k.name == name)
    }
}

/// A kernel as found inside one item; ranges are relative to the item's start.
#[derive(Clone, Debug)]
struct KernelDraft {
    name: String,
    /// Definition text and its hash, read once per item text.
    source: Arc<str>,
    raw_hash: ContentHash,
    range: TextRange,
    name_range: TextRange,
    signature_end: usize,
    normalized: ContentHash,
    uses: BTreeSet<String>,
    launch_bounds: Vec<String>,
    constexpr_params: Vec<String>,
    autotune: Vec<BTreeMap<String, String>>,
    has_errors: bool,
}

#[derive(Clone, Debug)]
struct HelperDraft {
    name: String,
    kind: HelperKind,
    text: String,
    normalized: ContentHash,
    uses: BTreeSet<String>,
    /// The `#if` regions it is defined in (see [`Guard`]).
    guard: Guard,
}

/// The conditions of the `#if`/`#ifdef` regions a file-level item lies in, outermost
/// first: each condition's C text (`use_padding == 1`, `defined(X)`) and whether it holds
/// there (`false` in the `#else` part).
type Guard = Vec<(String, bool)>;

#[derive(Clone, Debug)]
struct LaunchDraft {
    callee: String,
    /// Template arguments of a CUDA launch, in order.
    template_args: Vec<String>,
    /// Template parameters of the launching function (`template <int BLOCK> void run()`),
    /// bound by a call of it elsewhere in the file (`run<256>()`).
    host_template: Vec<String>,
    /// Parameters of the launching function, bound from its caller in the file
    /// (`callers::bind`).
    host_fn_params: Vec<String>,
    /// The case of a `switch` over block sizes this launch is in.
    case: Option<SwitchCase>,
    site: LaunchSite,
}

/// A launch's case in a `switch (threads) { case 512: k<512><<<…>>>(…); … }`.
#[derive(Clone, Debug, PartialEq)]
struct SwitchCase {
    variable: String,
    value: f64,
    /// Every case's value.
    values: Vec<f64>,
}

/// What one top-level item contributes.
#[derive(Clone, Debug, Default)]
struct ItemFacts {
    kernels: Vec<KernelDraft>,
    helpers: Vec<HelperDraft>,
    launches: Vec<LaunchDraft>,
    /// Calls of function templates with explicit arguments (`launch_dot<256, 8>(…)`).
    template_calls: Vec<(String, Vec<String>)>,
    /// A host function's calls of other functions (CUDA, and Python's of the module's own).
    calls: Vec<callers::CallDraft>,
    /// What a host function leaves in its reference parameters (CUDA).
    out_params: Vec<callers::OutParams>,
    /// The host functions it defines, for what the file's entry points reach.
    host_defs: Vec<reach::HostDef>,
}

/// Reads one document; keeps a per-item cache between calls.
pub struct Extractor {
    language: Language,
    /// A Python file's items (its whole tree is parsed).
    cache: HashMap<ContentHash, Arc<ItemFacts>>,
    /// A CUDA file's pieces (never parsed whole).
    pieces: pieces::Pieces,
    /// The kernels last assembled, per text (a document's and its baseline's).
    built: Vec<(u64, Built)>,
    /// Parses of the CUDA strings of a Python file.
    embedded: embedded_cuda::Cache,
}

impl Extractor {
    pub fn new(language: Language) -> Self {
        Self {
            language,
            cache: HashMap::new(),
            pieces: pieces::Pieces::default(),
            built: Vec::new(),
            embedded: HashMap::new(),
        }
    }

    /// Extracts the kernels of `src` (a Python text's tree must be up to date), reading
    /// all of it.
    pub fn extract(&mut self, src: &SourceText) -> Extraction {
        self.read(src, 0..0, None);
        self.assemble(src)
    }

    /// Reads the parts of a CUDA text not read yet: those near the byte range `focus`
    /// first, then the others until `deadline`. Returns how many are left. (A Python
    /// text is read whole by [`Extractor::assemble`].)
    pub fn read(&mut self, src: &SourceText, focus: std::ops::Range<usize>, deadline: Option<Instant>) -> usize {
        match self.language {
            Language::Cuda => self.pieces.read(src, focus, deadline),
            Language::Triton => 0,
        }
    }

    /// The kernels of `placed` items of `src`, those built last time for this text kept.
    fn assemble_kernels(&mut self, placed: Vec<(usize, Arc<ItemFacts>)>, src: &SourceText) -> Vec<Kernel> {
        let id = src.revision().0;
        let mut built = match self.built.iter().position(|(i, _)| *i == id) {
            Some(at) => self.built.remove(at).1,
            None => Built::default(),
        };
        let kernels = assemble(self.language, placed, src, &mut built);
        self.built.insert(0, (id, built));
        self.built.truncate(2);
        kernels
    }

    /// Forgets what was kept to read and assemble `src` again (a baseline read whole):
    /// its cached facts go with the next assemblies of the other texts.
    pub fn forget(&mut self, src: &SourceText) {
        let id = src.revision().0;
        self.built.retain(|(i, _)| *i != id);
        self.pieces.forget(id);
    }

    /// The kernels of what has been read of `src` ([`Extraction::unread`] says what not).
    pub fn assemble(&mut self, src: &SourceText) -> Extraction {
        if self.language == Language::Cuda {
            let placed = self.pieces.placed(src);
            let external_launches = orphan_launches(&placed.items);
            let defining = macro_kernels::defining(&placed.items);
            let mut kernels = self.assemble_kernels(placed.items, src);
            // Kernels a macro defines, one per use (rare: read again with the uses expanded).
            if !defining.is_empty() && placed.unread == 0 {
                let defined = macro_kernels::kernels(&src.slice(0, src.len_bytes()), &defining, &kernels);
                kernels.extend(defined);
            }
            return Extraction {
                kernels,
                syntax_errors: placed.errors,
                external_launches,
                unread: placed.unread,
                timed_out: placed.timed_out,
            };
        }
        let Some(tree) = src.tree() else {
            return Extraction { timed_out: src.timed_out(), ..Extraction::default() };
        };
        let root = tree.root_node();
        let mut items = Vec::new();
        collect_items(self.language, root, src, &mut items);

        let mut live = HashMap::with_capacity(items.len());
        let mut placed: Vec<(usize, Arc<ItemFacts>)> = Vec::with_capacity(items.len());
        for (item, _) in items {
            let key = src.hash_range(item.start_byte(), item.end_byte());
            let facts = match self.cache.get(&key) {
                Some(facts) => facts.clone(),
                None => Arc::new(triton::item_facts(item, src).relative_to(item.start_byte())),
            };
            live.insert(key, facts.clone());
            placed.push((item.start_byte(), facts));
        }
        // Keep only what the current text still has, so the cache cannot grow without bound.
        self.cache = live;

        let mut syntax_errors = Vec::new();
        if root.has_error() {
            walk::errors(root, &mut syntax_errors, 32);
        }
        let external_launches = orphan_launches(&placed);
        let mut kernels = self.assemble_kernels(placed, src);
        // Shapes `get_inputs()` or `generate_input(…)` give the wrappers' tensors.
        pyshapes::bind(root, src, &mut kernels);
        // `@triton.autotune(configs=CONFIGS)`: the module's list as the text has it now.
        autotune::bind(root, src, &mut kernels);
        // CUDA written as strings (`load_inline`, CuPy): its kernels are CUDA kernels.
        let embedded = embedded_cuda::kernels(root, src, &mut self.embedded, &kernels);
        kernels.extend(embedded);
        Extraction { kernels, syntax_errors, external_launches, unread: 0, timed_out: false }
    }
}

/// Extracts without keeping a cache (CLI, tests).
pub fn extract(src: &SourceText) -> Extraction {
    Extractor::new(src.language()).extract(src)
}

/// Parses and extracts a text in one go (a CUDA text in pieces, never whole).
pub fn extract_text(language: Language, text: &str) -> Extraction {
    extract(&source_for(language, text))
}

/// A text as the extractor reads it: a CUDA text as a rope read in pieces (never parsed
/// whole), a Python text parsed.
pub fn source_for(language: Language, text: &str) -> SourceText {
    match language {
        Language::Cuda => SourceText::unparsed(language, text),
        Language::Triton => SourceText::new(language, text),
    }
}

fn collect_items<'t>(language: Language, node: Node<'t>, src: &SourceText, out: &mut Vec<(Node<'t>, Guard)>) {
    collect_guarded(language, node, src, &Guard::new(), out);
}

/// The items of `node`'s containers (namespaces, `extern "C"` blocks, `#if` regions), each
/// with the conditions of the `#if` regions around it (CUDA).
fn collect_guarded<'t>(
    language: Language,
    node: Node<'t>,
    src: &SourceText,
    guard: &Guard,
    out: &mut Vec<(Node<'t>, Guard)>,
) {
    let condition = preproc_condition(node, src);
    // A region's condition (`#if` expression, `#ifdef` name) is not an item.
    let condition_node = condition
        .as_ref()
        .and_then(|_| node.child_by_field_name("condition").or_else(|| node.child_by_field_name("name")));
    let alternative = node.child_by_field_name("alternative");
    let inner = match &condition {
        Some((c, holds)) => {
            let mut g = guard.clone();
            g.push((c.clone(), *holds));
            g
        }
        None => guard.clone(),
    };
    let mut cursor = node.walk();
    for child in node.named_children(&mut cursor) {
        if Some(child) == condition_node {
            continue;
        }
        let container = match language {
            Language::Cuda => matches!(
                child.kind(),
                "linkage_specification"
                    | "namespace_definition"
                    | "declaration_list"
                    | "preproc_if"
                    | "preproc_ifdef"
                    | "preproc_else"
                    | "preproc_elif"
                    | "preproc_elifdef"
            ),
            Language::Triton => matches!(child.kind(), "if_statement" | "block" | "else_clause"),
        };
        if Some(child) == alternative {
            // `#else`, `#elif`: where the region's condition does not hold.
            let mut g = guard.clone();
            if let Some((c, holds)) = &condition {
                g.push((c.clone(), !holds));
            }
            collect_guarded(language, child, src, &g, out);
        } else if container {
            collect_guarded(language, child, src, &inner, out);
        } else if child.kind() != "comment" {
            out.push((child, inner.clone()));
        }
    }
}

/// The condition a CUDA `#if`, `#elif`, `#ifdef` or `#ifndef` region's body is read
/// under: its C text and whether it holds there (`#ifndef X` is `defined(X)`, not holding).
fn preproc_condition(node: Node, src: &SourceText) -> Option<(String, bool)> {
    match node.kind() {
        "preproc_if" | "preproc_elif" => {
            let c = node.child_by_field_name("condition")?;
            Some((squash(&node_text(c, src)), true))
        }
        "preproc_ifdef" | "preproc_elifdef" => {
            let name = node.child_by_field_name("name")?;
            let negated = node.child(0).is_some_and(|d| d.kind().ends_with("ifndef"));
            if negated && include_guard(node, name, src) {
                // `#ifndef KERNELS_CUH` / `#define KERNELS_CUH`: a header's include guard,
                // whose body is read once, always (not a region its own `#define` turns off).
                return None;
            }
            Some((format!("defined({})", node_text(name, src)), !negated))
        }
        _ => None,
    }
}

/// Whether an `#ifndef NAME` region opens with `#define NAME` (no value): an include guard.
fn include_guard(region: Node, name: Node, src: &SourceText) -> bool {
    let mut cursor = region.walk();
    let first = region.named_children(&mut cursor).find(|c| *c != name && c.kind() != "comment");
    first.is_some_and(|d| {
        d.kind() == "preproc_def"
            && d.child_by_field_name("value").is_none()
            && d.child_by_field_name("name").is_some_and(|n| node_text(n, src) == node_text(name, src))
    })
}

/// Marks an item's helpers with the `#if` regions around it; what a region's condition
/// names is something each helper uses (a change of `use_padding` changes the kernels that
/// use what `#if use_padding == 1` defines).
fn guard_helpers(facts: &mut ItemFacts, guard: &Guard) {
    if guard.is_empty() {
        return;
    }
    for h in &mut facts.helpers {
        h.guard.clone_from(guard);
        for (condition, _) in guard {
            h.uses.extend(names_in(condition).map(str::to_string));
        }
        h.uses.remove("defined");
        h.uses.remove(&h.name);
    }
}

impl ItemFacts {
    fn relative_to(mut self, base: usize) -> Self {
        let rel = |r: TextRange| TextRange::new(r.start.saturating_sub(base), r.end.saturating_sub(base));
        for k in &mut self.kernels {
            k.range = rel(k.range);
            k.name_range = rel(k.name_range);
            k.signature_end = k.signature_end.saturating_sub(base);
        }
        for l in &mut self.launches {
            l.site.range = rel(l.site.range);
        }
        self
    }
}

/// The identifier-like words of `text` (runs of letters, digits and `_`; empty ones too).
pub(crate) fn words(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| !(c.is_alphanumeric() || c == '_'))
}

/// The names among `text`'s words (those that start as an identifier does, not `4` or `0x10`).
pub(crate) fn names_in(text: &str) -> impl Iterator<Item = &str> {
    words(text).filter(|w| w.starts_with(|c: char| c.is_alphabetic() || c == '_'))
}

/// What follows `#pragma unroll` in a directive's text (` 4`, ``), if it is one.
pub(crate) fn pragma_unroll(text: &str) -> Option<&str> {
    text.trim_start().strip_prefix("#pragma")?.trim_start().strip_prefix("unroll")
}

/// `text` with the identifier `name` replaced by `with` (whole words only).
pub(crate) fn substitute(text: &str, name: &str, with: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut word = String::new();
    for c in text.chars().chain(std::iter::once('\0')) {
        if c.is_alphanumeric() || c == '_' {
            word.push(c);
            continue;
        }
        out.push_str(if word == name { with } else { &word });
        word.clear();
        if c != '\0' {
            out.push(c);
        }
    }
    out
}

/// Collapses runs of whitespace so launch texts compare by meaning, not layout.
/// The value a brace initialiser gives a declared name of type `ty`: `int n{1024}` its one
/// value, `dim3 block{32, 8}` the constructor it stands for (`dim3(32, 8)`, as `dim3
/// block(32, 8)` is read); `None` for anything else (an array's or a struct's list).
pub(crate) fn brace_value(ty: &str, list: &str) -> Option<String> {
    if let Some(one) = crate::kernel::brace_single(list) {
        return Some(one.to_string());
    }
    let inner = list.trim().strip_prefix('{')?.strip_suffix('}')?.trim();
    (ty.trim() == "dim3" && !inner.is_empty() && !inner.contains('{')).then(|| format!("dim3({inner})"))
}

pub(crate) fn squash(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut space = false;
    for c in text.chars() {
        if c.is_whitespace() {
            space = !out.is_empty();
        } else {
            if space {
                out.push(' ');
                space = false;
            }
            out.push(c);
        }
    }
    out
}

/// A list's items (a call's or a template's arguments), without the comments beside them:
/// in `f(/*tile_dim*/ 128)` the comment names the argument, it is not one.
pub(crate) fn list_items(list: Node) -> Vec<Node> {
    let mut c = list.walk();
    let items = list.named_children(&mut c).filter(|a| a.kind() != "comment").collect();
    items
}

pub(crate) fn node_text<'a>(node: Node, src: &'a SourceText) -> std::borrow::Cow<'a, str> {
    src.slice(node.start_byte(), node.end_byte())
}

pub(crate) fn node_range(node: Node) -> TextRange {
    TextRange::new(node.start_byte(), node.end_byte())
}
