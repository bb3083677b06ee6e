//! A Triton kernel's `@triton.autotune` configurations, as its authors write them: a list
//! of `triton.Config(…)` calls, a list comprehension over literal lists
//! (`[triton.Config({"BLOCK": b}, num_warps=w) for b in [64, 128] for w in [4, 8]]`), lists
//! added together, a module-level list named by `configs=NAME`, or the list a module-level
//! function returns (`configs=get_autotune_config()`). The last two are read in [`bind`],
//! over the whole file: an item's facts are cached by its own text, and an edit of
//! the list must reach the kernel.

use super::{node_text, squash, substitute};
use crate::kernel::{Kernel, Language};
use crate::source::SourceText;
use std::collections::BTreeMap;
use tree_sitter::Node;

/// One configuration: meta-parameter (and `num_warps`, `num_stages`) → its value's text.
pub type Config = BTreeMap<String, String>;

/// The most configurations kept of a comprehension (evenly spaced over its product): the
/// cheapest of them stands for the autotuner's choice, and each is profiled.
const MOST: usize = 64;

/// The configurations the `@triton.autotune(…)` call `call` writes out in its item (none
/// from a module-level name: see [`bind`]).
pub(super) fn configs(call: Node, src: &SourceText) -> Vec<Config> {
    configs_value(call, src).map(|v| list(v, None, src, 0)).unwrap_or_default()
}

/// The configurations of the kernels (and their wrappers' other kernels) whose
/// `@triton.autotune` names a module-level list (`configs=CONFIGS`), read from the file's
/// current text; their identities follow.
pub(super) fn bind(root: Node, src: &SourceText, kernels: &mut [Kernel]) {
    for k in kernels.iter_mut().filter(|k| k.language == Language::Triton) {
        let mut changed = false;
        for c in &mut k.companions {
            if read_named(root, src, c) {
                c.identity = c.compute_identity();
                changed = true;
            }
        }
        if read_named(root, src, k) || changed {
            k.identity = k.compute_identity();
        }
    }
}

/// Reads the configurations of a kernel whose autotune call names a module-level list;
/// whether it found any.
fn read_named(root: Node, src: &SourceText, k: &mut Kernel) -> bool {
    if !k.autotune.is_empty() || !k.source.contains("autotune") {
        return false;
    }
    let mut item = root.descendant_for_byte_range(k.range.start, k.range.start);
    while let Some(node) = item.filter(|n| n.kind() != "decorated_definition") {
        item = node.parent();
    }
    let value = item.and_then(|item| call(item, src)).and_then(|call| configs_value(call, src));
    k.autotune = value.map(|v| list(v, Some(root), src, 0)).unwrap_or_default();
    !k.autotune.is_empty()
}

/// The `@triton.autotune(…)` call among a decorated definition's decorators.
pub(super) fn call<'t>(item: Node<'t>, src: &SourceText) -> Option<Node<'t>> {
    let mut cursor = item.walk();
    let decorators: Vec<Node> = item.named_children(&mut cursor).filter(|c| c.kind() == "decorator").collect();
    decorators.into_iter().filter_map(|d| d.named_child(0).filter(|e| e.kind() == "call")).find(|call| {
        call.child_by_field_name("function").is_some_and(|f| node_text(f, src).rsplit('.').next() == Some("autotune"))
    })
}

/// The expression an autotune call gives its configurations as (`configs=…`, or first).
fn configs_value<'t>(call: Node<'t>, src: &SourceText) -> Option<Node<'t>> {
    let args = call.child_by_field_name("arguments")?;
    let mut cursor = args.walk();
    let found = args.named_children(&mut cursor).find_map(|a| {
        if a.kind() == "keyword_argument"
            && a.child_by_field_name("name").is_some_and(|n| node_text(n, src) == "configs")
        {
            a.child_by_field_name("value")
        } else if matches!(a.kind(), "list" | "list_comprehension" | "identifier") {
            Some(a)
        } else {
            None
        }
    });
    found
}

/// The configurations the expression `value` makes; a name is looked up among `module`'s
/// assignments where a module is given.
fn list<'t>(value: Node<'t>, module: Option<Node<'t>>, src: &SourceText, depth: usize) -> Vec<Config> {
    if depth > 8 {
        return Vec::new();
    }
    match value.kind() {
        "list" => {
            let mut cursor = value.walk();
            let items: Vec<Node> = value.named_children(&mut cursor).collect();
            items
                .into_iter()
                .flat_map(|item| match item.kind() {
                    "call" => entry(item, src, &BTreeMap::new()).into_iter().collect(),
                    "list_splat" => item.named_child(0).map(|v| list(v, module, src, depth + 1)).unwrap_or_default(),
                    _ => Vec::new(),
                })
                .collect()
        }
        "list_comprehension" => comprehension(value, src),
        "parenthesized_expression" => value.named_child(0).map(|v| list(v, module, src, depth + 1)).unwrap_or_default(),
        "binary_operator" => {
            let side =
                |f: &str| value.child_by_field_name(f).map(|v| list(v, module, src, depth + 1)).unwrap_or_default();
            let mut out = side("left");
            out.extend(side("right"));
            out
        }
        "identifier" => module
            .and_then(|m| module_value(&node_text(value, src), m, value.start_byte(), src))
            .map(|v| list(v, module, src, depth + 1))
            .unwrap_or_default(),
        // `configs=get_autotune_config()`: what the module's function of that name returns.
        "call" => module
            .zip(value.child_by_field_name("function").filter(|f| f.kind() == "identifier"))
            .and_then(|(m, f)| function_return(&node_text(f, src), m, src))
            .map(|v| list(v, module, src, depth + 1))
            .unwrap_or_default(),
        _ => Vec::new(),
    }
}

/// The value of the first `return` of `module`'s function `name` (a function that picks
/// its list by a setting returns its first one: the conditions are not evaluated).
fn function_return<'t>(name: &str, module: Node<'t>, src: &SourceText) -> Option<Node<'t>> {
    let mut cursor = module.walk();
    let def = module
        .named_children(&mut cursor)
        .map(|s| if s.kind() == "decorated_definition" { s.child_by_field_name("definition").unwrap_or(s) } else { s })
        .find(|s| {
            s.kind() == "function_definition"
                && s.child_by_field_name("name").is_some_and(|n| node_text(n, src) == name)
        })?;
    let mut found = None;
    super::walk::preorder(def.child_by_field_name("body")?, |n| {
        if found.is_some() || n.kind() == "function_definition" {
            return false;
        }
        if n.kind() == "return_statement" {
            found = n.named_child(0);
            return false;
        }
        true
    });
    found
}

/// The value last assigned to `name` among `module`'s statements ending before `before`.
fn module_value<'t>(name: &str, module: Node<'t>, before: usize, src: &SourceText) -> Option<Node<'t>> {
    let mut cursor = module.walk();
    let statements: Vec<Node> = module.named_children(&mut cursor).collect();
    statements
        .into_iter()
        .rev()
        .filter(|s| s.end_byte() <= before && s.kind() == "expression_statement")
        .filter_map(|s| s.named_child(0).filter(|a| a.kind() == "assignment"))
        .filter(|a| a.child_by_field_name("left").is_some_and(|l| node_text(l, src) == name))
        .find_map(|a| a.child_by_field_name("right"))
}

/// `[triton.Config(…) for a in [...] for b in (...)]`: a configuration for each binding of
/// the loop variables to their literal lists' items (an `if` filter is not applied).
fn comprehension(value: Node, src: &SourceText) -> Vec<Config> {
    let Some(body) = value.child_by_field_name("body").filter(|b| b.kind() == "call") else {
        return Vec::new();
    };
    let mut cursor = value.walk();
    let mut bindings: Vec<BTreeMap<String, String>> = vec![BTreeMap::new()];
    for clause in value.named_children(&mut cursor).filter(|c| c.kind() == "for_in_clause") {
        let (Some(left), Some(right)) = (clause.child_by_field_name("left"), clause.child_by_field_name("right"))
        else {
            return Vec::new();
        };
        let Some(items) = literal_items(right, src) else {
            return Vec::new();
        };
        let names: Vec<String> = match left.kind() {
            "identifier" => vec![node_text(left, src).into_owned()],
            "pattern_list" | "tuple_pattern" => {
                let mut c = left.walk();
                left.named_children(&mut c).map(|n| node_text(n, src).into_owned()).collect()
            }
            _ => return Vec::new(),
        };
        let mut next = Vec::new();
        for b in &bindings {
            for item in &items {
                let values: Vec<String> = match (names.len(), item) {
                    (1, Item::One(v)) => vec![v.clone()],
                    (n, Item::Tuple(vs)) if vs.len() == n => vs.clone(),
                    _ => return Vec::new(),
                };
                let mut b = b.clone();
                b.extend(names.iter().cloned().zip(values));
                next.push(b);
            }
        }
        bindings = next;
        if bindings.len() > 4096 {
            return Vec::new();
        }
    }
    let step = bindings.len().div_ceil(MOST).max(1);
    bindings.iter().step_by(step).filter_map(|b| entry(body, src, b)).collect()
}

enum Item {
    One(String),
    Tuple(Vec<String>),
}

/// The items of a literal list or tuple (each a value or a tuple of values).
fn literal_items(node: Node, src: &SourceText) -> Option<Vec<Item>> {
    if !matches!(node.kind(), "list" | "tuple") {
        return None;
    }
    let mut cursor = node.walk();
    let items: Vec<Node> = node.named_children(&mut cursor).collect();
    items
        .into_iter()
        .map(|item| match item.kind() {
            "tuple" | "list" => {
                let mut c = item.walk();
                Some(Item::Tuple(item.named_children(&mut c).map(|v| squash(&node_text(v, src))).collect()))
            }
            _ => Some(Item::One(squash(&node_text(item, src)))),
        })
        .collect()
}

/// One `triton.Config({'BLOCK_M': 128, …}, num_warps=8, num_stages=3)`, the loop
/// variables in `bound` replaced by their values.
fn entry(config: Node, src: &SourceText, bound: &BTreeMap<String, String>) -> Option<Config> {
    let config_args = config.child_by_field_name("arguments")?;
    let value =
        |v: Node| bound.iter().fold(squash(&node_text(v, src)), |text, (name, with)| substitute(&text, name, with));
    let mut entry = BTreeMap::new();
    let mut c = config_args.walk();
    for arg in config_args.named_children(&mut c) {
        match arg.kind() {
            "dictionary" => {
                let mut pc = arg.walk();
                for pair in arg.named_children(&mut pc).filter(|p| p.kind() == "pair") {
                    if let (Some(k), Some(v)) = (pair.child_by_field_name("key"), pair.child_by_field_name("value")) {
                        let key = node_text(k, src).trim_matches(|c| c == '"' || c == '\'').to_string();
                        entry.insert(key, value(v));
                    }
                }
            }
            "keyword_argument" => {
                if let (Some(k), Some(v)) = (arg.child_by_field_name("name"), arg.child_by_field_name("value")) {
                    entry.insert(node_text(k, src).into_owned(), value(v));
                }
            }
            _ => {}
        }
    }
    Some(entry)
}

#[cfg(test)]
mod tests {
    use crate::extract::extract_text;
    use crate::kernel::Language;

    fn configs(src: &str) -> Vec<super::Config> {
        let ex = extract_text(Language::Triton, src);
        ex.kernels.first().expect("a kernel").autotune.clone()
    }

    const KERNEL: &str = "@triton.jit\ndef scale(x_ptr, n, BLOCK: tl.constexpr, GROUPS: tl.constexpr):\n    \
        offs = tl.program_id(0) * BLOCK * GROUPS + tl.arange(0, BLOCK * GROUPS)\n    \
        tl.store(x_ptr + offs, tl.load(x_ptr + offs, mask=offs < n) * 2, mask=offs < n)\n";

    #[test]
    fn an_edit_of_a_named_configuration_list_reaches_the_kernel() {
        // The kernel's own text is unchanged between the two reads: its cached facts must
        // not keep the list as it was.
        let text = |blocks: &str| {
            format!(
                "import triton\nimport triton.language as tl\n\nCONFIGS = [triton.Config({{'BLOCK': b, 'GROUPS': 1}}) for b in [{blocks}]]\n\n\
                 @triton.autotune(configs=CONFIGS, key=['n'])\n{KERNEL}"
            )
        };
        let mut extractor = crate::extract::Extractor::new(Language::Triton);
        let first = extractor.extract(&crate::extract::source_for(Language::Triton, &text("64, 128")));
        let edited = extractor.extract(&crate::extract::source_for(Language::Triton, &text("256, 512, 1024")));
        assert_eq!(first.kernels[0].autotune.len(), 2);
        let blocks: Vec<&str> =
            edited.kernels[0].autotune.iter().filter_map(|c| c.get("BLOCK").map(String::as_str)).collect();
        assert_eq!(blocks, ["256", "512", "1024"]);
        assert_ne!(first.kernels[0].identity(), edited.kernels[0].identity(), "a new configuration is a change");
    }

    #[test]
    fn configurations_named_or_made_by_a_comprehension_are_read() {
        let named = format!(
            "import triton\nimport triton.language as tl\n\nCONFIGS = [\n    triton.Config({{'BLOCK': 128, 'GROUPS': g}}, num_warps=w)\n    \
             for g in [2, 16, 64]\n    for w in (4, 8)\n]\n\n@triton.autotune(configs=CONFIGS, key=['n'])\n{KERNEL}"
        );
        let read = configs(&named);
        assert_eq!(read.len(), 6, "{read:?}");
        assert!(
            read.iter().any(|c| c.get("GROUPS").map(String::as_str) == Some("64")
                && c.get("num_warps").map(String::as_str) == Some("8")),
            "{read:?}"
        );
        // Pairs unpacked from tuples, and lists added together.
        let pairs = format!(
            "import triton\nimport triton.language as tl\n\n@triton.autotune(configs=[triton.Config({{'BLOCK': b, 'GROUPS': g}}) \
             for b, g in [(64, 2), (256, 4)]] + [triton.Config({{'BLOCK': 1024, 'GROUPS': 1}})], key=['n'])\n{KERNEL}"
        );
        let read = configs(&pairs);
        let blocks: Vec<&str> = read.iter().filter_map(|c| c.get("BLOCK").map(String::as_str)).collect();
        assert_eq!(blocks, ["64", "256", "1024"], "{read:?}");
    }
}
