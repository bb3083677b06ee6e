//! What a program runs: where a file has entry points (`main`, a function of an
//! `extern "C"` block; Python's in [`super::pyreach`]), a launch in a host function they do not reach is not run by the
//! program (a step's launcher of a ladder whose entry runs another step, a test harness's
//! variant left uncalled). Reaching is by name: a function is reached where a reached
//! function's body names it (a call, a function pointer, a template argument), so a call
//! the reader cannot follow never hides a launch.

use super::{node_text, ItemFacts};
use crate::kernel::Kernel;
use crate::source::SourceText;
use std::collections::BTreeSet;
use std::sync::Arc;
use tree_sitter::Node;

/// A host function of the file: its name, whether it is an entry point, and the names its
/// body uses.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct HostDef {
    pub name: String,
    pub entry: bool,
    pub names: Vec<String>,
    /// Names it uses only as a member (`torch.matmul`, `self.step`, `obj.run()`): a method
    /// of a class it names, never a function or class of the file's own.
    pub members: Vec<String>,
}

/// The host function `def` (in top-level `item`), if it has a name and a body.
pub(super) fn host_def(def: Node, item: Node, src: &SourceText) -> Option<HostDef> {
    let name = qualified_name(def, src)?;
    let body = def.child_by_field_name("body")?;
    let mut linkage = item.kind() == "linkage_specification";
    let mut at = def;
    while let Some(parent) = at.parent().filter(|_| !linkage) {
        linkage = parent.kind() == "linkage_specification";
        at = parent;
    }
    let extern_c = linkage || node_text(def, src).trim_start().starts_with("extern \"C\"");
    let entry = name == "main" || extern_c;
    let (names, members) = names_used(body, src);
    Some(HostDef { name, entry, names, members })
}

/// The names the code of `node` uses, each once (what a definition's body reaches), and
/// apart those it uses only as members (`x.name`: Python's attributes, C++'s fields); its
/// comments and docstrings name nothing (`// as main() does` calls no `main`, a docstring's
/// "row-wise softmax in plain torch" no `softmax`).
pub(super) fn names_used(node: Node, src: &SourceText) -> (Vec<String>, Vec<String>) {
    let start = node.start_byte();
    let mut text = node_text(node, src).into_owned();
    let mut as_member: std::collections::BTreeMap<String, usize> = std::collections::BTreeMap::new();
    super::walk::preorder(node, |n| {
        if n.kind() == "comment" || docstring(n) {
            let (a, b) = (n.start_byte() - start, n.end_byte() - start);
            if let Some(range) = text.get_mut(a..b) {
                // Blanked byte for byte: every offset stays where it was.
                let blank = " ".repeat(range.len());
                text.replace_range(a..b, &blank);
            }
            return false;
        }
        let field = match n.kind() {
            "attribute" => n.child_by_field_name("attribute"),
            "field_expression" => n.child_by_field_name("field"),
            _ => None,
        };
        if let Some(f) = field {
            *as_member.entry(node_text(f, src).into_owned()).or_default() += 1;
        }
        true
    });
    let mut uses: std::collections::BTreeMap<&str, usize> = std::collections::BTreeMap::new();
    for w in super::names_in(&text) {
        *uses.entry(w).or_default() += 1;
    }
    let members: Vec<String> = as_member.keys().cloned().collect();
    let names =
        uses.into_iter().filter(|(w, n)| as_member.get(*w).is_none_or(|m| n > m)).map(|(w, _)| w.to_string()).collect();
    (names, members)
}

/// A Python statement that is a string alone (a docstring): text, not code.
fn docstring(n: Node) -> bool {
    n.kind() == "expression_statement"
        && n.named_child_count() == 1
        && n.named_child(0).is_some_and(|s| s.kind() == "string")
}

/// The entry point kforecast's measurement (`verify`, the worker) calls.
pub(super) const HARNESS_ENTRY: &str = "kf_run";

/// The host functions the entry points reach; `None` where the file has no entry point
/// (a library's file: everything may run). A function is reached where a reached function
/// names it; a class's method (`Scan::Run`) where reached functions name both its class and
/// it (`Scan<256>::Run(…)`, or a harness `run<Scan<256>>()` calling `Algo::Run`).
pub(super) fn reached(defs: &[&HostDef]) -> Option<BTreeSet<String>> {
    if !defs.iter().any(|d| d.entry) {
        return None;
    }
    // `kf_run`, the entry kforecast's measurement calls, is the program where the file has
    // one: a `main` beside it is the author's own driver (allocations, checks, timing) that
    // `verify` does not run.
    let harness = defs.iter().any(|d| d.entry && d.name == HARNESS_ENTRY);
    let mut reached: Vec<bool> = defs.iter().map(|d| d.entry && (!harness || d.name == HARNESS_ENTRY)).collect();
    let mut named: BTreeSet<&str> = BTreeSet::new();
    let mut member: BTreeSet<&str> = BTreeSet::new();
    // Each function's names are added once, when it is reached.
    let mut fresh: Vec<usize> = (0..defs.len()).filter(|&i| reached[i]).collect();
    while !fresh.is_empty() {
        for i in fresh.drain(..) {
            named.extend(defs[i].names.iter().map(String::as_str));
            member.extend(defs[i].members.iter().map(String::as_str));
        }
        for (i, d) in defs.iter().enumerate() {
            if reached[i] {
                continue;
            }
            let hit = match d.name.rsplit_once("::") {
                Some((class, method)) => named.contains(class) && (named.contains(method) || member.contains(method)),
                None => named.contains(d.name.as_str()),
            };
            if hit {
                reached[i] = true;
                fresh.push(i);
            }
        }
    }
    Some(defs.iter().zip(&reached).filter(|(_, r)| **r).map(|(d, _)| d.name.clone()).collect())
}

/// The name a launch's host function is known by: a class's method as `Class::method`
/// (every step's struct may have its own `Run`), any other function as its plain name.
pub(super) fn qualified_name(def: Node, src: &SourceText) -> Option<String> {
    let (name, _) = super::callers::signature(def, src)?;
    let class = def
        .parent()
        .filter(|p| p.kind() == "field_declaration_list")
        .and_then(|list| list.parent())
        .filter(|c| matches!(c.kind(), "struct_specifier" | "class_specifier"))
        .and_then(|c| c.child_by_field_name("name"))
        .map(|n| node_text(n, src).into_owned());
    Some(match class {
        Some(class) => format!("{class}::{name}"),
        None => name,
    })
}

/// The host functions the entry points of the file's items reach (see [`reached`]).
pub(super) fn reached_in(placed: &[(usize, Arc<ItemFacts>)]) -> Option<BTreeSet<String>> {
    reached(&placed.iter().flat_map(|(_, f)| &f.host_defs).collect::<Vec<_>>())
}

/// Marks each launch of `kernels` whose host function is defined in the file as reached
/// from its entry points or not (`reached`, of [`reached_in`]; see the module's note); a
/// launch elsewhere, or in a file without entry points, is neither.
pub(super) fn mark_unreached(
    placed: &[(usize, Arc<ItemFacts>)],
    reached: Option<&BTreeSet<String>>,
    kernels: &mut [Kernel],
) {
    let defined: BTreeSet<&str> = placed.iter().flat_map(|(_, f)| &f.host_defs).map(|d| d.name.as_str()).collect();
    // A launch in a method is known by the method's plain name (`forward`): where a function
    // of that name is defined too, which of them holds the launch is not known.
    let methods: BTreeSet<&str> = defined.iter().filter_map(|d| d.rsplit_once("::")).map(|(_, m)| m).collect();
    for k in kernels.iter_mut() {
        let mut changed = false;
        for site in &mut k.launches {
            let host = site.host_name.as_str();
            let known = site.external.is_none() && defined.contains(host) && !methods.contains(host);
            let made = match reached {
                Some(r) if known => Some(r.contains(host)),
                _ => None,
            };
            let marks = (made == Some(false), made == Some(true));
            if (site.unreached, site.reached) != marks {
                (site.unreached, site.reached) = marks;
                changed = true;
            }
        }
        if changed {
            k.identity = k.compute_identity();
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::extract::extract_text;
    use crate::kernel::Language;

    const LADDER: &str = r#"
__global__ void naive(const char* d, unsigned n, unsigned* h) { atomicAdd(&h[d[threadIdx.x]], 1); }
__global__ void privatized(const char* d, unsigned n, unsigned* h) { atomicAdd(&h[d[threadIdx.x]], 1); }
void runNaive(const char* d, unsigned n, unsigned* h) { naive<<<(n + 255) / 256, 256>>>(d, n, h); }
void runPrivate(const char* d, unsigned n, unsigned* h) { privatized<<<(n + 255) / 256, 256>>>(d, n, h); }
"#;

    fn unreached(src: &str, kernel: &str) -> Vec<bool> {
        let ex = extract_text(Language::Cuda, src);
        ex.kernel(kernel).expect("kernel").launches.iter().map(|l| l.unreached).collect()
    }

    #[test]
    fn a_launcher_the_entry_point_does_not_reach_does_not_run() {
        let src = format!(
            "{LADDER}\nextern \"C\" void entry(const char* d, unsigned n, unsigned* h) {{ runPrivate(d, n, h); }}\n"
        );
        assert_eq!(unreached(&src, "naive"), [true]);
        assert_eq!(unreached(&src, "privatized"), [false]);
        let ex = extract_text(Language::Cuda, &src);
        assert!(ex.kernel("privatized").expect("kernel").launches[0].reached, "the entry makes that launch");
        // Through a function pointer, and from `main`, just as well.
        let src = format!("{LADDER}\ntypedef void (*Run)(const char*, unsigned, unsigned*);\nint main() {{ Run r = runNaive; r(0, 0, 0); return 0; }}\n");
        assert_eq!(unreached(&src, "naive"), [false]);
        assert_eq!(unreached(&src, "privatized"), [true]);
    }

    #[test]
    fn kf_run_beside_a_main_is_the_program_verify_times() {
        // A ladder step's file keeps the author's `main` (allocation, a check, a timed loop of
        // another step); `kf_run`, which verify calls, launches the step alone.
        let src = format!(
            "{LADDER}\nint main() {{ runNaive(0, 0, 0); runPrivate(0, 0, 0); return 0; }}\n\
             extern \"C\" void kf_run(const char* d, unsigned n, unsigned* h) {{\n  \
             // the launch of main(), without runNaive's\n  runPrivate(d, n, h);\n}}\n"
        );
        assert_eq!(unreached(&src, "naive"), [true], "main's other step is not timed");
        assert_eq!(unreached(&src, "privatized"), [false]);
    }

    #[test]
    fn a_file_without_an_entry_point_may_run_every_launch() {
        assert_eq!(unreached(LADDER, "naive"), [false]);
        assert_eq!(unreached(LADDER, "privatized"), [false]);
        let ex = extract_text(Language::Cuda, LADDER);
        assert!(!ex.kernel("naive").expect("kernel").launches[0].reached, "nothing says it runs either");
    }

    #[test]
    fn a_steps_struct_runs_where_the_entry_names_it_and_its_method() {
        let src = r#"
__global__ void chained(const int* in, int* out, int n) { out[threadIdx.x] = in[threadIdx.x]; }
__global__ void lookback(const int* in, int* out, int n) { out[threadIdx.x] = in[threadIdx.x]; }
template <int B> struct Chained { static void Run(const int* in, int* out, int n) { chained<<<n / B, B>>>(in, out, n); } };
template <int B> struct Lookback { static void Run(const int* in, int* out, int n) { lookback<<<n / B, B>>>(in, out, n); } };
template <typename Algo> void bench(const int* in, int* out, int n) { Algo::Run(in, out, n); }
"#;
        let direct = format!(
            "{src}extern \"C\" void entry(const int* in, int* out, int n) {{ Lookback<256>::Run(in, out, n); }}\n"
        );
        assert_eq!(unreached(&direct, "chained"), [true]);
        assert_eq!(unreached(&direct, "lookback"), [false]);
        // A harness that runs every step through a template reaches them all.
        let harness = format!(
            "{src}int main() {{ bench<Chained<256>>(0, 0, 1024); bench<Lookback<256>>(0, 0, 1024); return 0; }}\n"
        );
        assert_eq!(unreached(&harness, "chained"), [false]);
        assert_eq!(unreached(&harness, "lookback"), [false]);
    }
}
