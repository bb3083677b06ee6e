//! A file's kernels built from its items' facts: each kernel draft with its launches
//! (from any item of the file), the helpers and file constants it uses, its
//! declaration and identity. A kernel whose inputs are those it was last built from
//! (the same draft and launch facts at the same offsets, the same file-level helpers
//! and declaration) is taken from the last assembly, not built again: an edit rebuilds
//! the kernels of the items it changed.

use super::callers::Callers;
use super::{words, HelperDraft, ItemFacts, KernelDraft, LaunchDraft, SwitchCase};
use crate::declaration::{is_comment_line, items_before, Declared, PREFIX as DECLARATION_PREFIX};
use crate::hash::{ContentHash, Hasher};
use crate::kernel::{definition_value, Helper, HelperKind, Kernel, Language, LaunchSite};
use crate::source::SourceText;
use std::collections::hash_map::Entry as Slot;
use std::collections::{BTreeSet, HashMap};
use std::sync::Arc;

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

/// A launch inside a function template (`template <int BLOCK> int run(…) { k<BLOCK><<<…>>> }`)
/// takes the template's arguments from the file's call of it (`run<256>(…)`) as locals,
/// so that the kernel's instance and its launch shape are known.
fn bind_host_template(site: &mut LaunchSite, params: &[String], calls: &HashMap<&str, &[String]>) {
    // A call may leave trailing parameters to their defaults (`run<256>()` of
    // `template <int B, int S = 1>`).
    let Some(args) = calls.get(site.host_name.as_str()).filter(|a| !a.is_empty() && a.len() <= params.len()) else {
        return;
    };
    for (param, arg) in params.iter().zip(args.iter()) {
        if param != arg {
            site.locals.entry(param.clone()).or_insert_with(|| arg.clone());
        }
    }
}

/// Launches of kernels no item of the file defines, with file offsets.
pub(super) fn orphan_launches(placed: &[(usize, Arc<ItemFacts>)]) -> Vec<(String, LaunchSite)> {
    let defined: BTreeSet<&str> = placed.iter().flat_map(|(_, f)| f.kernels.iter().map(|k| k.name.as_str())).collect();
    let mut out = Vec::new();
    for (base, facts) in placed {
        // A launch through a parameter (`reduce_kernel<<<…>>>` in `solve_impl(…, reduce_kernel)`)
        // launches what the callers pass, not a kernel of another file.
        let through_parameter = |l: &&LaunchDraft| l.host_fn_params.contains(&l.callee);
        for l in
            facts.launches.iter().filter(|l| !defined.contains(l.callee.as_str())).filter(|l| !through_parameter(l))
        {
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

/// What a kernel was last built from, and the kernel (under its draft's name).
struct Entry {
    /// The item holding the draft (kept alive, so no other item takes its address).
    item: Arc<ItemFacts>,
    base: usize,
    /// Its launches: the item of each (kept alive too), the launch's index there and
    /// the item's offset.
    sites: Vec<(Arc<ItemFacts>, usize, usize)>,
    /// The file-level helpers, template calls and Triton kernels it may use.
    context: ContentHash,
    kernel: Kernel,
}

/// The kernels of the last assembly, by their draft (its item's address and index).
#[derive(Default)]
pub(super) struct Built(HashMap<(usize, usize), Entry>);

/// A launch draft of the file: the draft, its item's offset, the item's place in
/// `placed` and the draft's index in the item.
type Launch<'a> = (&'a LaunchDraft, usize, usize, usize);

/// Hashes what every kernel may take from the rest of the file (with the host functions
/// its entry points reach, which choose the call a launcher's parameters are bound from).
fn context(placed: &[(usize, Arc<ItemFacts>)], language: Language, reached: Option<&BTreeSet<String>>) -> ContentHash {
    let mut h = Hasher::new();
    for name in reached.into_iter().flatten() {
        h.str(name);
    }
    h.str("\0");
    // Calls of launching functions (and of their callers, as far as `callers::bind`
    // follows them) and what functions leave in references bind launches.
    let mut launching: BTreeSet<&str> =
        placed.iter().flat_map(|(_, f)| f.launches.iter().map(|l| l.site.host_name.as_str())).collect();
    for _ in 0..super::callers::MAX_CALLERS {
        let calling: Vec<&str> = placed
            .iter()
            .flat_map(|(_, f)| &f.calls)
            .filter(|c| launching.contains(c.callee.as_str()))
            .map(|c| c.function.as_str())
            .collect();
        launching.extend(calling);
    }
    for (_, facts) in placed {
        for c in facts.calls.iter().filter(|c| launching.contains(c.callee.as_str())) {
            c.hash_into(&mut h);
        }
        for o in &facts.out_params {
            o.hash_into(&mut h);
        }
    }
    for (_, facts) in placed {
        for helper in &facts.helpers {
            h.str(&helper.name).str(&format!("{:?}", helper.kind)).hash(&helper.normalized).str(&helper.text);
            for (condition, holds) in &helper.guard {
                h.str(condition).str(if *holds { "1" } else { "0" });
            }
            for used in &helper.uses {
                h.str(used);
            }
            h.str("\0");
        }
        for (callee, args) in &facts.template_calls {
            h.str(callee);
            for a in args {
                h.str(a);
            }
            h.str("\0");
        }
        if language == Language::Triton {
            for k in &facts.kernels {
                h.str(&k.name).hash(&k.normalized);
                for used in &k.uses {
                    h.str(used);
                }
            }
        }
    }
    h.finish()
}

pub(super) fn assemble(
    language: Language,
    placed: Vec<(usize, Arc<ItemFacts>)>,
    src: &SourceText,
    built: &mut Built,
) -> Vec<Kernel> {
    let mut placed = placed;
    if language == Language::Cuda {
        let expanded = super::macro_launches::items(&placed, src);
        placed.extend(expanded);
    }
    let mut callers = Callers::default();
    for (at, (_, facts)) in placed.iter().enumerate() {
        callers.add(at, &facts.calls, &facts.out_params);
    }
    // Kernels the file's calls pass to a launcher that launches its parameter.
    let passed = super::passed_kernels::launches(&placed, &callers);
    let mut helpers: HashMap<&str, &HelperDraft> = HashMap::new();
    let mut launches: HashMap<&str, Vec<Launch>> = HashMap::new();
    let mut jit_kernels: HashMap<&str, &KernelDraft> = HashMap::new();
    let mut template_calls: HashMap<&str, &[String]> = HashMap::new();
    let mut preprocessor = Preprocessor::default();
    for (at, (base, facts)) in placed.iter().enumerate() {
        for (callee, args) in &facts.template_calls {
            template_calls.entry(callee.as_str()).or_insert(args);
        }
        for h in &facts.helpers {
            preprocessor.add(h, &mut helpers);
        }
        for (i, l) in facts.launches.iter().enumerate() {
            launches.entry(l.callee.as_str()).or_default().push((l, *base, at, i));
        }
        if language == Language::Triton {
            for k in &facts.kernels {
                jit_kernels.entry(k.name.as_str()).or_insert(k);
            }
        }
    }
    for (l, base, at, i) in &passed {
        launches.entry(l.callee.as_str()).or_default().push((l, *base, *at, *i));
    }
    // Host functions the file's entry points reach (`None` without entry points).
    let reached = super::reach::reached_in(&placed);
    callers.prefer(reached.as_ref());
    let context = context(&placed, language, reached.as_ref());

    let mut kernels: Vec<Kernel> = Vec::new();
    let mut seen: HashMap<String, usize> = HashMap::new();
    let mut now = Built::default();
    for (base, facts) in &placed {
        for (index, draft) in facts.kernels.iter().enumerate() {
            let range = draft.range.shifted(*base as isize);
            let declared = declaration_above(src, range.start);
            let launched = launches.get(draft.name.as_str()).map(Vec::as_slice).unwrap_or_default();
            let sites: Vec<(Arc<ItemFacts>, usize, usize)> =
                launched.iter().map(|(_, b, at, i)| (placed[*at].1.clone(), *i, *b)).collect();
            let key = (Arc::as_ptr(facts) as usize, index);
            let same = |e: &Entry| {
                Arc::ptr_eq(&e.item, facts)
                    && e.base == *base
                    && e.context == context
                    && e.kernel.declared == declared
                    && e.sites.len() == sites.len()
                    && e.sites.iter().zip(&sites).all(|(a, b)| Arc::ptr_eq(&a.0, &b.0) && a.1 == b.1 && a.2 == b.2)
            };
            let mut kernel = match built.0.remove(&key).filter(|e| same(e)) {
                Some(entry) => entry.kernel,
                None => build(
                    language,
                    draft,
                    *base,
                    launched,
                    &Context {
                        helpers: &helpers,
                        template_calls: &template_calls,
                        jit_kernels: &jit_kernels,
                        callers: &callers,
                    },
                    declared,
                ),
            };
            now.0.insert(key, Entry { item: facts.clone(), base: *base, sites, context, kernel: kernel.clone() });
            let count = seen.entry(draft.name.clone()).or_insert(0);
            *count += 1;
            if *count > 1 {
                kernel.name = format!("{}#{}", draft.name, count);
            }
            kernels.push(kernel);
        }
    }
    *built = now;
    super::reach::mark_unreached(&placed, reached.as_ref(), &mut kernels);
    if language == Language::Triton {
        let launches: HashMap<&str, Vec<(&LaunchDraft, usize)>> =
            launches.iter().map(|(k, v)| (*k, v.iter().map(|(l, b, _, _)| (*l, *b)).collect())).collect();
        add_companions(&mut kernels, &launches);
    }
    kernels
}

/// The file's definitions as the preprocessor meets them, in file order: a definition in
/// an `#if` region is taken where the region's conditions hold given what is defined above
/// it (and then replaces an earlier one, which the region must have `#undef`ined), dropped
/// where they do not, and taken as the first of its name where they cannot be told. The
/// definitions taken are evaluated only once a file has an `#if` region to decide.
#[derive(Default)]
struct Preprocessor {
    env: Option<crate::features::expr::Env>,
}

impl Preprocessor {
    fn add<'a>(&mut self, h: &'a HelperDraft, helpers: &mut HashMap<&'a str, &'a HelperDraft>) {
        if !h.guard.is_empty() && self.env.is_none() {
            let mut env = crate::features::expr::Env::default();
            for d in helpers.values() {
                env.define_definition(&d.name, d.kind, &d.text);
            }
            self.env = Some(env);
        }
        let holds = self.env.as_ref().and_then(|env| {
            h.guard
                .iter()
                .try_fold(true, |all, (condition, holds)| Some(all && env.preprocessor_condition(condition)? == *holds))
        });
        let taken = match (holds, helpers.entry(h.name.as_str())) {
            (Some(false), _) => false,
            (Some(true), Slot::Occupied(mut e)) if !h.guard.is_empty() => {
                e.insert(h);
                true
            }
            (_, Slot::Vacant(e)) => {
                e.insert(h);
                true
            }
            (_, Slot::Occupied(_)) => false,
        };
        if let Some(env) = self.env.as_mut().filter(|_| taken) {
            env.define_definition(&h.name, h.kind, &h.text);
        }
    }
}

/// Of the launches in a `switch` over block sizes, the one its variable picks where the
/// launch's values give it (`threads` bound from the caller to 128), else the typical case
/// (256 where it is one, else the largest); the variable takes the case's value.
fn pick_cases(sites: Vec<(LaunchSite, Option<&SwitchCase>)>) -> Vec<LaunchSite> {
    let chosen = |site: &LaunchSite, case: &SwitchCase| {
        let env = crate::features::expr::Env::of_texts(&site.locals);
        // Sizes the text does not give take the prior's typical size here.
        let known = env.eval_quiet(&case.variable).map(|e| e.value);
        match known {
            Some(v) if case.values.contains(&v) => v,
            _ if case.values.contains(&256.0) => 256.0,
            _ => case.values.iter().copied().fold(0.0, f64::max),
        }
    };
    sites
        .into_iter()
        .filter_map(|(mut site, case)| {
            let Some(case) = case else { return Some(site) };
            let pick = chosen(&site, case);
            (case.value == pick).then(|| {
                site.locals.insert(case.variable.clone(), format!("{pick}"));
                site
            })
        })
        .collect()
}

/// What every kernel of the file may take from the rest of it.
struct Context<'c, 'a> {
    helpers: &'c HashMap<&'a str, &'a HelperDraft>,
    template_calls: &'c HashMap<&'a str, &'a [String]>,
    jit_kernels: &'c HashMap<&'a str, &'a KernelDraft>,
    callers: &'c Callers<'a>,
}

/// Builds one kernel from its draft (at `base`), its launches and the file's helpers.
fn build(
    language: Language,
    draft: &KernelDraft,
    base: usize,
    launched: &[Launch],
    cx: &Context,
    declared: Declared,
) -> Kernel {
    let Context { helpers, template_calls, jit_kernels, callers } = *cx;
    let range = draft.range.shifted(base as isize);
    let sites: Vec<(LaunchSite, Option<&SwitchCase>)> = launched
        .iter()
        .map(|(l, b, _, _)| {
            let mut site = l.site.clone();
            site.range = site.range.shifted(*b as isize);
            add_file_constants(&mut site, helpers);
            bind_host_template(&mut site, &l.host_template, template_calls);
            // A Triton wrapper's parameters, from the module's calls of it.
            let wrapper = (language == Language::Triton).then(|| site.host_params.clone());
            super::callers::bind(&mut site, wrapper.as_deref().unwrap_or(&l.host_fn_params), callers);
            for (i, arg) in l.template_args.iter().enumerate() {
                let key = draft.constexpr_params.get(i).cloned().unwrap_or(format!("T{i}"));
                site.meta.insert(key, arg.clone());
            }
            (site, l.case.as_ref())
        })
        .collect();
    let sites = torch_entry_first(pick_cases(sites));
    // The kernel's helpers, and the function-like macros its launches are written with.
    let mut uses = draft.uses.clone();
    uses.extend(launch_macros(&sites, helpers));
    let mut used = Vec::new();
    resolve_helpers(&draft.name, &uses, helpers, jit_kernels, &mut used);
    let mut kernel = Kernel {
        name: draft.name.clone(),
        language,
        range,
        name_range: draft.name_range.shifted(base as isize),
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
        declared,
        companions: Vec::new(),
        torch_program: false,
        torch_loops: false,
    };
    kernel.identity = kernel.compute_identity();
    kernel
}

/// A torch extension that keeps its command-line test (`int main()` calling a C launcher
/// with `N = 3`) is run from Python through its `torch::Tensor` entry: the launches that
/// entry makes (their arguments `x.data_ptr<float>()`) come first, and those a `main`
/// makes last.
fn torch_entry_first(sites: Vec<LaunchSite>) -> Vec<LaunchSite> {
    let rank = |site: &LaunchSite| {
        let torch = site.args.iter().chain(site.locals.values()).any(|a| a.contains("data_ptr"));
        match (torch, site.host_name == "main") {
            (true, _) => 0,
            (false, false) => 1,
            (false, true) => 2,
        }
    };
    let mut sites = sites;
    sites.sort_by_key(rank);
    sites
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
            // Its explicit specialisations (`template<> … f<half, 2>(…)`), which a call of the
            // template with those arguments runs.
            let prefix = format!("{name}<");
            let mut special: Vec<&&HelperDraft> =
                helpers.iter().filter(|(n, _)| n.starts_with(&prefix)).map(|(_, h)| h).collect();
            special.sort_by(|a, b| a.name.cmp(&b.name));
            for h in special {
                if done.insert(h.name.as_str()) {
                    out.push(Helper { name: h.name.clone(), kind: h.kind, text: h.text.clone(), hash: h.normalized });
                    pending.extend(h.uses.iter().map(String::as_str));
                }
            }
        } else if let Some(k) = jit.get(name) {
            out.push(Helper {
                name: k.name.clone(),
                kind: HelperKind::JitFunction,
                // Its definition, walked where the kernel calls it.
                text: k.source.to_string(),
                hash: k.normalized,
            });
            pending.extend(k.uses.iter().map(String::as_str));
        }
    }
    out.sort_by(|a, b| a.name.cmp(&b.name));
}
