//! Kernel extraction from a parsed file.
//!
//! A file is a list of top-level items (functions, templates, `#define`s, decorated
//! definitions…). Each item is summarised once into [`ItemFacts`] (kernels and helpers
//! it defines, launch sites it contains), cached by the hash of its text, so an edit
//! inside one kernel of a large file re-reads only that kernel. The file-level pass then
//! resolves helpers and attaches launch sites to kernels by name.

mod cuda;
mod embedded_cuda;
pub mod gpumode;
pub mod host;
mod normalize;
mod pycall;
mod pystring;
mod trips;
mod triton;
mod walk;
pub mod workspace;

pub use embedded_cuda::MARKERS as EMBEDDED_CUDA_MARKERS;

pub(crate) use cuda::declarator_name;
pub(crate) use triton::parameters as python_parameters;
pub(crate) use walk::preorder as walk_preorder;

use crate::declaration::{is_comment_line, items_before, Declared, PREFIX as DECLARATION_PREFIX};
use crate::hash::ContentHash;
use crate::kernel::{definition_value, Helper, HelperKind, Kernel, Language, LaunchSite, TextRange};
use crate::source::SourceText;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::Arc;
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
    source: String,
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
}

#[derive(Clone, Debug)]
struct LaunchDraft {
    callee: String,
    /// Template arguments of a CUDA launch, in order.
    template_args: Vec<String>,
    /// Template parameters of the launching function (`template <int BLOCK> void run()`),
    /// bound by a call of it elsewhere in the file (`run<256>()`).
    host_template: Vec<String>,
    site: LaunchSite,
}

/// What one top-level item contributes.
#[derive(Clone, Debug, Default)]
struct ItemFacts {
    kernels: Vec<KernelDraft>,
    helpers: Vec<HelperDraft>,
    launches: Vec<LaunchDraft>,
    /// Calls of function templates with explicit arguments (`launch_dot<256, 8>(…)`).
    template_calls: Vec<(String, Vec<String>)>,
}

/// Bytes above a kernel searched for its `kforecast:` declaration.
const DECLARATION_WINDOW: usize = 4096;

/// The `kforecast:` declaration in the comment lines right above `start`. Only those
/// lines are read (at most [`DECLARATION_WINDOW`] bytes of them), not the document.
fn declaration_above(src: &SourceText, start: usize) -> Declared {
    let rope = src.rope();
    let start = src.snap(start);
    let line = rope.byte_to_line(start);
    let mut first = line;
    while first > 0
        && start - rope.line_to_byte(first - 1) <= DECLARATION_WINDOW
        && is_comment_line(&std::borrow::Cow::from(rope.line(first - 1)))
    {
        first -= 1;
    }
    let window = src.slice(rope.line_to_byte(first), start);
    // Most kernels declare nothing: no need to read the lines item by item.
    if !window.contains(DECLARATION_PREFIX) {
        return Declared::default();
    }
    Declared::from_items(&items_before(&window, window.len()))
}

/// Reads one document; keeps a per-item cache between calls.
pub struct Extractor {
    language: Language,
    cache: HashMap<ContentHash, Arc<ItemFacts>>,
    /// Parses of the CUDA strings of a Python file.
    embedded: embedded_cuda::Cache,
}

impl Extractor {
    pub fn new(language: Language) -> Self {
        Self { language, cache: HashMap::new(), embedded: HashMap::new() }
    }

    /// Extracts the kernels of `src` (whose tree must be up to date).
    pub fn extract(&mut self, src: &SourceText) -> Extraction {
        let Some(tree) = src.tree() else {
            return Extraction::default();
        };
        let root = tree.root_node();
        let mut items = Vec::new();
        collect_items(self.language, root, &mut items);

        let mut live = HashMap::with_capacity(items.len());
        let mut placed: Vec<(usize, Arc<ItemFacts>)> = Vec::with_capacity(items.len());
        for item in items {
            let key = src.hash_range(item.start_byte(), item.end_byte());
            let facts = match self.cache.get(&key) {
                Some(facts) => facts.clone(),
                None => {
                    let facts = match self.language {
                        Language::Cuda => cuda::item_facts(item, src),
                        Language::Triton => triton::item_facts(item, src),
                    };
                    Arc::new(facts.relative_to(item.start_byte()))
                }
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
        let mut kernels = assemble(self.language, placed, src);
        if self.language == Language::Triton {
            // CUDA written as strings (`load_inline`, CuPy): its kernels are CUDA kernels.
            let embedded = embedded_cuda::kernels(root, src, &mut self.embedded, &kernels);
            kernels.extend(embedded);
        }
        Extraction { kernels, syntax_errors, external_launches }
    }
}

/// Extracts without keeping a cache (CLI, tests).
pub fn extract(src: &SourceText) -> Extraction {
    Extractor::new(src.language()).extract(src)
}

/// Parses and extracts a text in one go.
pub fn extract_text(language: Language, text: &str) -> Extraction {
    extract(&SourceText::new(language, text))
}

fn collect_items<'t>(language: Language, node: Node<'t>, out: &mut Vec<Node<'t>>) {
    let mut cursor = node.walk();
    for child in node.named_children(&mut cursor) {
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
            ),
            Language::Triton => matches!(child.kind(), "if_statement" | "block" | "else_clause"),
        };
        if container {
            collect_items(language, child, out);
        } else if child.kind() != "comment" {
            out.push(child);
        }
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

/// A launch inside a function template (`template <int BLOCK> int run(…) { k<BLOCK><<<…>>> }`)
/// takes the template's arguments from the file's call of it (`run<256>(…)`) as locals,
/// so that the kernel's instance and its launch shape are known.
fn bind_host_template(site: &mut LaunchSite, params: &[String], calls: &HashMap<&str, &[String]>) {
    let Some(args) = calls.get(site.host_name.as_str()).filter(|a| a.len() == params.len()) else {
        return;
    };
    for (param, arg) in params.iter().zip(args.iter()) {
        if param != arg {
            site.locals.entry(param.clone()).or_insert_with(|| arg.clone());
        }
    }
}

/// Launches of kernels no item of the file defines, with file offsets.
fn orphan_launches(placed: &[(usize, Arc<ItemFacts>)]) -> Vec<(String, LaunchSite)> {
    let defined: BTreeSet<&str> = placed.iter().flat_map(|(_, f)| f.kernels.iter().map(|k| k.name.as_str())).collect();
    let mut out = Vec::new();
    for (base, facts) in placed {
        for l in facts.launches.iter().filter(|l| !defined.contains(l.callee.as_str())) {
            let mut site = l.site.clone();
            site.range = site.range.shifted(*base as isize);
            for (i, arg) in l.template_args.iter().enumerate() {
                site.meta.insert(format!("T{i}"), arg.clone());
            }
            out.push((l.callee.clone(), site));
            if out.len() >= 256 {
                return out;
            }
        }
    }
    out
}

fn assemble(language: Language, placed: Vec<(usize, Arc<ItemFacts>)>, src: &SourceText) -> Vec<Kernel> {
    let mut helpers: HashMap<&str, &HelperDraft> = HashMap::new();
    let mut launches: HashMap<&str, Vec<(&LaunchDraft, usize)>> = HashMap::new();
    let mut jit_kernels: HashMap<&str, &KernelDraft> = HashMap::new();
    let mut template_calls: HashMap<&str, &[String]> = HashMap::new();
    for (base, facts) in &placed {
        for (callee, args) in &facts.template_calls {
            template_calls.entry(callee.as_str()).or_insert(args);
        }
        for h in &facts.helpers {
            helpers.entry(h.name.as_str()).or_insert(h);
        }
        for l in &facts.launches {
            launches.entry(l.callee.as_str()).or_default().push((l, *base));
        }
        if language == Language::Triton {
            for k in &facts.kernels {
                jit_kernels.entry(k.name.as_str()).or_insert(k);
            }
        }
    }

    let mut kernels: Vec<Kernel> = Vec::new();
    let mut seen: HashMap<String, usize> = HashMap::new();
    for (base, facts) in &placed {
        for draft in &facts.kernels {
            let range = draft.range.shifted(*base as isize);
            let sites: Vec<LaunchSite> = launches
                .get(draft.name.as_str())
                .map(|sites| {
                    sites
                        .iter()
                        .map(|(l, b)| {
                            let mut site = l.site.clone();
                            site.range = site.range.shifted(*b as isize);
                            add_file_constants(&mut site, &helpers);
                            bind_host_template(&mut site, &l.host_template, &template_calls);
                            for (i, arg) in l.template_args.iter().enumerate() {
                                let key = draft.constexpr_params.get(i).cloned().unwrap_or(format!("T{i}"));
                                site.meta.insert(key, arg.clone());
                            }
                            site
                        })
                        .collect()
                })
                .unwrap_or_default();
            // The kernel's helpers, and the function-like macros its launches are written with.
            let mut uses = draft.uses.clone();
            uses.extend(launch_macros(&sites, &helpers));
            let mut used = Vec::new();
            resolve_helpers(&draft.name, &uses, &helpers, &jit_kernels, &mut used);
            let count = seen.entry(draft.name.clone()).or_insert(0);
            *count += 1;
            let name = if *count == 1 { draft.name.clone() } else { format!("{}#{}", draft.name, count) };
            let mut kernel = Kernel {
                name,
                language,
                range,
                name_range: draft.name_range.shifted(*base as isize),
                signature_end: draft.signature_end + base,
                raw_hash: draft.raw_hash,
                source: draft.source.clone(),
                normalized_hash: draft.normalized,
                identity: ContentHash::default(),
                helpers: used,
                launch_bounds: draft.launch_bounds.clone(),
                constexpr_params: draft.constexpr_params.clone(),
                launches: sites,
                autotune: draft.autotune.clone(),
                has_errors: draft.has_errors,
                declared: declaration_above(src, range.start),
                companions: Vec::new(),
            };
            kernel.identity = kernel.compute_identity();
            kernels.push(kernel);
        }
    }
    if language == Language::Triton {
        add_companions(&mut kernels, &launches);
    }
    kernels
}

/// Gives each Triton kernel the other kernels its launching wrapper launches (a
/// measurement runs the whole wrapper), each seen under the kernel's declaration. The
/// launching wrapper is the one the declaration names, or else the first that launches it.
fn add_companions(kernels: &mut [Kernel], launches: &HashMap<&str, Vec<(&LaunchDraft, usize)>>) {
    // The item (by offset) of the wrapper that launches `k`.
    let launching_item = |k: &Kernel| {
        let mut sites = launches.get(k.name.split('#').next().unwrap_or_default())?.iter();
        let wrapper = &k.declared.wrapper;
        let site = if wrapper.is_empty() { sites.next() } else { sites.find(|(l, _)| &l.site.host_name == wrapper) };
        site.map(|(_, b)| *b)
    };
    let mut found: Vec<Vec<Kernel>> = vec![Vec::new(); kernels.len()];
    for (i, k) in kernels.iter().enumerate() {
        let Some(item) = launching_item(k) else { continue };
        let mut others: Vec<(usize, usize, &Kernel)> = kernels
            .iter()
            .filter(|o| o.name != k.name && !o.name.contains('#'))
            .filter_map(|o| {
                let sites = launches.get(o.name.as_str())?;
                let j = sites.iter().position(|(_, b)| *b == item)?;
                Some((sites[j].0.site.range.start, j, o))
            })
            .collect();
        others.sort_by_key(|(at, _, _)| *at);
        found[i] = others
            .into_iter()
            .map(|(_, j, o)| {
                let mut c = o.clone();
                c.companions.clear();
                // Its launch from this wrapper is the one that counts.
                if j < c.launches.len() {
                    let site = c.launches.remove(j);
                    c.launches.insert(0, site);
                }
                if c.declared.is_empty() {
                    c.declared = k.declared.clone();
                }
                c.identity = c.compute_identity();
                c
            })
            .collect();
    }
    for (k, companions) in kernels.iter_mut().zip(found) {
        if !companions.is_empty() {
            k.companions = companions;
            k.identity = k.compute_identity();
        }
    }
}

/// Adds the file-level `#define`s and constants a launch's texts and arguments mention to
/// its locals, so `grid`/`block` and arguments written with host-side constants (a Python
/// module's `BLOCK = 1024`) can be evaluated.
fn add_file_constants(site: &mut LaunchSite, helpers: &HashMap<&str, &HelperDraft>) {
    for _ in 0..3 {
        let mut found = Vec::new();
        // The launch's arguments too: `kernel[grid](x, y, n, BLOCK)` passes a constant.
        for word in site.texts().chain(site.args.iter().map(String::as_str)).flat_map(words) {
            if let Some(h) = helpers.get(word) {
                if matches!(h.kind, HelperKind::Define | HelperKind::Constant) && !site.locals.contains_key(word) {
                    found.push((word.to_string(), definition_value(h.kind, &h.text).to_string()));
                }
            }
        }
        if found.is_empty() {
            break;
        }
        for (k, v) in found {
            site.locals.insert(k, v);
        }
    }
}

/// The function-like macros named in launch texts (`<<<BLOCKS_FOR(n, 256), 256>>>`).
fn launch_macros(sites: &[LaunchSite], helpers: &HashMap<&str, &HelperDraft>) -> Vec<String> {
    sites
        .iter()
        .flat_map(|site| site.texts().flat_map(words))
        .filter(|word| helpers.get(word).is_some_and(|h| h.kind == HelperKind::Macro))
        .map(str::to_string)
        .collect()
}

fn resolve_helpers(
    kernel: &str,
    uses: &BTreeSet<String>,
    helpers: &HashMap<&str, &HelperDraft>,
    jit: &HashMap<&str, &KernelDraft>,
    out: &mut Vec<Helper>,
) {
    let mut pending: Vec<&str> = uses.iter().map(String::as_str).collect();
    let mut done: BTreeSet<&str> = BTreeSet::new();
    done.insert(kernel);
    while let Some(name) = pending.pop() {
        if !done.insert(name) {
            continue;
        }
        if let Some(h) = helpers.get(name) {
            out.push(Helper { name: h.name.clone(), kind: h.kind, text: h.text.clone(), hash: h.normalized });
            pending.extend(h.uses.iter().map(String::as_str));
        } else if let Some(k) = jit.get(name) {
            out.push(Helper {
                name: k.name.clone(),
                kind: HelperKind::JitFunction,
                text: String::new(),
                hash: k.normalized,
            });
            pending.extend(k.uses.iter().map(String::as_str));
        }
    }
    out.sort_by(|a, b| a.name.cmp(&b.name));
}

/// The identifier-like words of `text` (runs of letters, digits and `_`; empty ones too).
pub(crate) fn words(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| !(c.is_alphanumeric() || c == '_'))
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

pub(crate) fn node_text<'a>(node: Node, src: &'a SourceText) -> std::borrow::Cow<'a, str> {
    src.slice(node.start_byte(), node.end_byte())
}

pub(crate) fn node_range(node: Node) -> TextRange {
    TextRange::new(node.start_byte(), node.end_byte())
}
