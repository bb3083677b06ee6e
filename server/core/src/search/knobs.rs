//! The tunable knobs of one kernel and where their text is: `#define`d and `constexpr`
//! constants it or its launch use, the launch's block size and template arguments,
//! `#pragma unroll` factors, `__launch_bounds__`' blocks per SM; for Triton the launch's
//! `BLOCK_*`, `GROUP_*`, `num_warps` and `num_stages` (literal, through a local of the
//! launching function, or absent) and the values of `@triton.autotune` configurations.
//!
//! A choice of values is rendered by rewriting only those literals, so a variant differs
//! from the file in the kernel, its launch and the constants they use, nothing else.
//! Named constants that feed both the kernel and its launch are mutated as one knob, so
//! a kernel that assumes `blockDim.x == TILE` keeps that true.

mod literals;

use super::diff;
use crate::declaration::split_top;
use crate::extract::extract_text;
use crate::kernel::{HelperKind, Kernel, Language, TextRange};
pub(super) use literals::line_number;
use literals::{constant_literal, ident_char, int_at, lines_in, literal_in, local_literal, local_literals, split_args};
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;

/// What a knob controls (for the domain of values it may take).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum KnobKind {
    /// A named compile-time constant (`#define TILE 32`, `constexpr int TILE = 32;`).
    Constant,
    /// Threads per block written as a literal at the launch (tied to equal template
    /// arguments and `__launch_bounds__`).
    Block,
    /// A literal template argument of the launch.
    TemplateArg,
    /// `#pragma unroll N` (0: plain `#pragma unroll`).
    Unroll,
    /// `__launch_bounds__(…, N)` (0: not given).
    MinBlocks,
    /// Triton `BLOCK_*` / tile sizes: powers of two.
    TileSize,
    /// Triton `GROUP_*` (program-id swizzle).
    Group,
    /// Triton `num_warps` (0: not given, Triton's default 4).
    NumWarps,
    /// Triton `num_stages` (0: not given, Triton's default 3).
    NumStages,
}

/// How a knob's value is written at one place.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Style {
    /// The number itself.
    Number,
    /// After `#pragma unroll`: ` N`, or nothing for 0.
    Unroll,
    /// After `__launch_bounds__`' first argument: `, N`, or nothing for 0.
    MinBlocks,
    /// After a launch's last argument: `, name=N`, or nothing for 0.
    Kwarg(String),
}

impl Style {
    fn render(&self, value: i64) -> String {
        match (self, value) {
            (Style::Number, v) => v.to_string(),
            (Style::Unroll | Style::MinBlocks | Style::Kwarg(_), 0) => String::new(),
            (Style::Unroll, v) => format!(" {v}"),
            (Style::MinBlocks, v) => format!(", {v}"),
            (Style::Kwarg(name), v) => format!(", {name}={v}"),
        }
    }
}

/// One place a knob's value is written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Site {
    pub range: TextRange,
    pub style: Style,
}

impl Site {
    /// The literal at `range`.
    fn number(range: TextRange) -> Self {
        Self { range, style: Style::Number }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Knob {
    /// Unique within the kernel: `TILE_DIM`, `num_warps`, `unroll@L23`, `config2.BLOCK_M`.
    pub name: String,
    pub kind: KnobKind,
    /// The value in the file (0: absent, the compiler's default).
    pub value: i64,
    /// The values it may take, ascending; contains `value`.
    pub domain: Vec<i64>,
    pub sites: Vec<Site>,
}

/// The knobs of one kernel in one file text.
#[derive(Clone, Debug)]
pub struct KnobSpace {
    pub text: String,
    pub knobs: Vec<Knob>,
}

impl KnobSpace {
    /// Finds the knobs of `kernel` in `text`.
    pub fn discover(text: &str, language: Language, kernel: &str) -> Result<Self, String> {
        let extraction = extract_text(language, text);
        let Some(k) = extraction.kernel(kernel) else {
            return Err(format!("no kernel named `{kernel}` in the file"));
        };
        Ok(Self::of(text, k))
    }

    /// The knobs of a kernel already extracted from `text`.
    pub fn of(text: &str, k: &Kernel) -> Self {
        let mut knobs = match k.language {
            Language::Cuda => cuda_knobs(text, k),
            Language::Triton => triton_knobs(text, k),
        };
        // A value that sets the problem is never tuned.
        let problem = problem_sizes(text, k);
        knobs.retain(|kn| !problem.contains(&kn.name));
        // Unique names, in a stable order (by first site).
        knobs.sort_by_key(|kn| kn.sites.first().map(|s| s.range.start).unwrap_or(0));
        let mut seen = std::collections::BTreeMap::<String, usize>::new();
        for kn in &mut knobs {
            let n = seen.entry(kn.name.clone()).or_insert(0);
            *n += 1;
            if *n > 1 {
                kn.name = format!("{}#{}", kn.name, n);
            }
            if !kn.domain.contains(&kn.value) {
                kn.domain.push(kn.value);
            }
            kn.domain.sort_unstable();
            kn.domain.dedup();
        }
        Self { text: text.to_string(), knobs }
    }

    /// The values in the file.
    pub fn original(&self) -> Vec<i64> {
        self.knobs.iter().map(|k| k.value).collect()
    }

    /// The file text with these values (only the literals of changed knobs are rewritten).
    pub fn render(&self, values: &[i64]) -> String {
        let mut edits = Vec::new();
        for (k, &v) in self.knobs.iter().zip(values) {
            if v != k.value {
                edits.extend(k.sites.iter().map(|s| (s.range, s.style.render(v))));
            }
        }
        diff::apply(&self.text, &edits)
    }

    /// `TILE_DIM 32→64, num_warps 4→8`; `original` when nothing changed.
    pub fn describe(&self, values: &[i64]) -> String {
        let shown = |k: &Knob, v: i64| match (k.kind, v) {
            (KnobKind::Unroll, 0) => "full".to_string(),
            (KnobKind::MinBlocks | KnobKind::NumWarps | KnobKind::NumStages, 0) => "default".to_string(),
            (_, v) => v.to_string(),
        };
        let parts: Vec<String> = self
            .knobs
            .iter()
            .zip(values)
            .filter(|(k, v)| k.value != **v)
            .map(|(k, &v)| format!("{} {}→{}", k.name, shown(k, k.value), shown(k, v)))
            .collect();
        if parts.is_empty() {
            "original".to_string()
        } else {
            parts.join(", ")
        }
    }

    /// Number of value combinations (before validity checks).
    pub fn size(&self) -> f64 {
        self.knobs.iter().map(|k| k.domain.len() as f64).product()
    }

    /// Every combination in a fixed order: the original first, then the others with the
    /// last knob turning fastest. Lazy: a space may be astronomically large.
    pub fn combinations(&self) -> impl Iterator<Item = Vec<i64>> + '_ {
        let original = self.original();
        let mut index: Option<Vec<usize>> = (!self.knobs.is_empty()).then(|| vec![0; self.knobs.len()]);
        let rest = std::iter::from_fn(move || {
            let idx = index.as_mut()?;
            let values: Vec<i64> = self.knobs.iter().zip(idx.iter()).map(|(k, &i)| k.domain[i]).collect();
            // Odometer step; past the last combination there is none.
            let mut pos = idx.len();
            loop {
                if pos == 0 {
                    index = None;
                    break;
                }
                pos -= 1;
                idx[pos] += 1;
                if idx[pos] < self.knobs[pos].domain.len() {
                    break;
                }
                idx[pos] = 0;
            }
            Some(values)
        });
        let first = original.clone();
        std::iter::once(first).chain(rest.filter(move |v| *v != original))
    }
}

fn pow2_between(lo: i64, hi: i64) -> Vec<i64> {
    let mut out = Vec::new();
    let mut v = 1i64;
    while v <= hi {
        if v >= lo {
            out.push(v);
        }
        v *= 2;
    }
    out
}

/// A named size's powers of two: from an eighth to eight times its value, at most 1024.
fn pow2_near(value: i64) -> Vec<i64> {
    pow2_between((value / 8).max(1), (value * 8).min(1024))
}

fn is_pow2(v: i64) -> bool {
    v > 0 && v & (v - 1) == 0
}

/// Names that set the problem, never knobs: declared sizes and the names in declared
/// shapes, the names a `cudaMalloc` size is computed from, the names passed as a CUDA
/// kernel's arguments at a launch (unless that launch also uses them for its block,
/// template arguments or shared memory, as it does a tile), and what those are defined
/// from in the launching function or the file.
pub fn problem_sizes(text: &str, k: &Kernel) -> BTreeSet<String> {
    let name_like = |w: &&str| w.chars().next().is_some_and(|c| c.is_alphabetic() || c == '_');
    let mut out: BTreeSet<String> = k.declared.values.keys().cloned().collect();
    for dims in k.declared.shapes.values() {
        out.extend(dims.iter().flat_map(|d| crate::extract::words(d).filter(name_like).map(str::to_string)));
    }
    if k.language == Language::Cuda {
        out.extend(crate::extract::host::allocation_names(text));
    }
    for l in k.launches.iter().filter(|_| k.language == Language::Cuda) {
        let shape: BTreeSet<&str> =
            l.block.iter().chain(&l.shared_mem).chain(l.meta.values()).flat_map(|t| crate::extract::words(t)).collect();
        for a in &l.args {
            out.extend(crate::extract::words(a).filter(name_like).filter(|w| !shape.contains(w)).map(str::to_string));
        }
    }
    // `const int M = SIZE;`: SIZE sets the problem too.
    let mut pending: Vec<String> = out.iter().cloned().collect();
    let mut steps = 0;
    while let Some(name) = pending.pop() {
        steps += 1;
        if steps > 256 {
            break;
        }
        let defs = k
            .launches
            .iter()
            .filter_map(|l| l.locals.get(&name).cloned())
            .chain(k.helpers.iter().filter(|h| h.name == name).map(|h| h.value().to_string()));
        for d in defs.collect::<Vec<_>>() {
            for w in crate::extract::words(&d).filter(name_like) {
                if out.insert(w.to_string()) {
                    pending.push(w.to_string());
                }
            }
        }
    }
    out
}

/// Names that are facts of the hardware or bit masks, never tuning knobs.
fn fixed_name(name: &str) -> bool {
    let upper = name.to_ascii_uppercase();
    ["WARP", "MASK", "LANE", "BITS", "SHIFT"].iter().any(|w| upper.contains(w))
}

fn cuda_knobs(text: &str, k: &Kernel) -> Vec<Knob> {
    let mut knobs = Vec::new();
    let launch = k.launches.first();
    // Named constants the kernel or its launch use.
    let mut names: Vec<String> = k
        .helpers
        .iter()
        .filter(|h| matches!(h.kind, HelperKind::Define | HelperKind::Constant))
        .map(|h| h.name.clone())
        .collect();
    if let Some(l) = launch {
        names.extend(l.locals.keys().cloned());
    }
    names.sort();
    names.dedup();
    for name in names.iter().filter(|n| !fixed_name(n)) {
        if let Some((value, range)) = constant_literal(text, name) {
            if is_pow2(value) {
                knobs.push(Knob {
                    name: name.clone(),
                    kind: KnobKind::Constant,
                    value,
                    domain: pow2_near(value),
                    sites: vec![Site::number(range)],
                });
            }
        }
    }
    // `#pragma unroll [N]` in the kernel.
    for (start, line) in lines_in(text, k.range.start, k.range.end) {
        let Some(after) = crate::extract::pragma_unroll(line) else { continue };
        let at = start + (line.len() - after.len());
        let digits = at + (after.len() - after.trim_start().len());
        let (value, end) = match int_at(text, digits) {
            Some((v, e)) => (v, e),
            None if after.trim().is_empty() => (0, at),
            None => continue,
        };
        knobs.push(Knob {
            name: format!("unroll@L{}", line_number(text, start)),
            kind: KnobKind::Unroll,
            value,
            domain: vec![0, 1, 2, 4, 8],
            sites: vec![Site { range: TextRange::new(at, end), style: Style::Unroll }],
        });
    }
    // `__launch_bounds__(threads[, blocks])`.
    let mut bounds_literal: Option<(i64, TextRange)> = None;
    if let Some(p) = k.source.find("__launch_bounds__") {
        let base = k.range.start;
        let open = k.source[p..].find('(').map(|o| base + p + o);
        if let Some((args, _)) = open.and_then(|o| split_args(text, o)) {
            if let Some(&(s0, e0)) = args.first() {
                let first_end = s0 + text[s0..e0].trim_end().len();
                bounds_literal = literal_in(text, s0, e0);
                let (value, range) = match args.get(1) {
                    Some(&(s1, e1)) => match literal_in(text, s1, e1) {
                        Some((v, r)) => (Some(v), TextRange::new(first_end, r.end)),
                        None => (None, TextRange::default()),
                    },
                    None => (Some(0), TextRange::new(first_end, first_end)),
                };
                if let Some(value) = value {
                    knobs.push(Knob {
                        name: "minBlocksPerSM".to_string(),
                        kind: KnobKind::MinBlocks,
                        value,
                        domain: vec![0, 1, 2, 4],
                        sites: vec![Site { range, style: Style::MinBlocks }],
                    });
                }
            }
        }
    }
    if let Some(l) = launch.filter(|l| l.external.is_none()) {
        launch_literals(text, k, l.range, bounds_literal, &mut knobs);
    }
    knobs
}

/// Literal block size and template arguments at the launch `<<<…>>>`, tied to equal
/// literals in `__launch_bounds__`; a block given by a host local `int threads = 256;`.
fn launch_literals(
    text: &str,
    k: &Kernel,
    site: TextRange,
    mut bounds: Option<(i64, TextRange)>,
    knobs: &mut Vec<Knob>,
) {
    let Some(launch) = text.get(site.start..site.end) else { return };
    let Some(chevrons) = launch.find("<<<") else { return };
    let op_start = site.start + chevrons + 3;
    let Some(op_end) = launch.find(">>>").map(|e| site.start + e) else { return };
    let operands = split_top(&text[op_start..op_end], ',');
    let mut template: Vec<(String, i64, TextRange)> = Vec::new();
    let head = &launch[..chevrons];
    if head.trim_end().ends_with('>') {
        if let Some(open) = head.find('<') {
            if let Some((args, _)) = split_args(text, site.start + open) {
                for (i, (s, e)) in args.into_iter().enumerate() {
                    if let Some((v, r)) = literal_in(text, s, e) {
                        let name = k.constexpr_params.get(i).cloned().unwrap_or(format!("T{i}"));
                        template.push((name, v, r));
                    }
                }
            }
        }
    }
    let block = operands.get(1).and_then(|operand| {
        let s = op_start + operands[0].len() + 1;
        let e = s + operand.len();
        literal_in(text, s, e).or_else(|| {
            // `int threads = 256;` in the launching code, above the launch.
            let ident = operand.trim();
            if ident.is_empty() || !ident.bytes().all(ident_char) {
                return None;
            }
            local_literal(text, ident, site.start)
        })
    });
    if let Some((value, range)) = block.filter(|(v, _)| *v % 32 == 0) {
        let mut sites = vec![Site::number(range)];
        template.retain(|(_, v, r)| {
            let tie = *v == value;
            if tie {
                sites.push(Site::number(*r));
            }
            !tie
        });
        if let Some((_, r)) = bounds.take_if(|(v, _)| *v == value) {
            sites.push(Site::number(r));
        }
        knobs.push(Knob {
            name: "block".to_string(),
            kind: KnobKind::Block,
            value,
            domain: pow2_between(32, 1024),
            sites,
        });
    }
    for (name, value, range) in template {
        if fixed_name(&name) || !is_pow2(value) {
            continue;
        }
        let mut sites = vec![Site::number(range)];
        if let Some((_, r)) = bounds.take_if(|(v, _)| *v == value) {
            sites.push(Site::number(r));
        }
        knobs.push(Knob { name, kind: KnobKind::TemplateArg, value, domain: pow2_near(value), sites });
    }
}

fn triton_domain(name: &str, value: i64, dot: bool) -> Option<(KnobKind, Vec<i64>)> {
    let upper = name.to_ascii_uppercase();
    if name == "num_warps" {
        Some((KnobKind::NumWarps, vec![1, 2, 4, 8, 16]))
    } else if name == "num_stages" {
        Some((KnobKind::NumStages, vec![1, 2, 3, 4, 5]))
    } else if upper.starts_with("GROUP") {
        Some((KnobKind::Group, vec![1, 2, 4, 8, 16]))
    } else if (upper.starts_with("BLOCK") || upper.starts_with("TILE") || upper.ends_with("_SIZE")) && is_pow2(value) {
        Some((KnobKind::TileSize, if dot { pow2_between(16, 256) } else { pow2_between(16, 4096) }))
    } else {
        None
    }
}

fn triton_knobs(text: &str, k: &Kernel) -> Vec<Knob> {
    let mut knobs = Vec::new();
    let dot = k.source.contains("tl.dot");
    let autotuned = !k.autotune.is_empty();
    // `@triton.autotune(configs=[triton.Config({...}, num_warps=…), …])`.
    let mut search_from = 0;
    let mut config = 0;
    while let Some(p) = k.source[search_from..].find("Config(") {
        let open = k.range.start + search_from + p + "Config".len();
        search_from += p + 1;
        let Some((args, _)) = split_args(text, open) else { continue };
        config += 1;
        for (s, e) in args {
            let arg = text[s..e].trim_start();
            let lead = e - s - arg.len();
            if arg.starts_with('{') {
                let Some((pairs, _)) = split_args(text, s + lead) else { continue };
                for (ps, pe) in pairs {
                    let Some(colon) = text[ps..pe].find(':') else { continue };
                    let key = text[ps..ps + colon].trim().trim_matches(|c| c == '"' || c == '\'').to_string();
                    push_triton(
                        &mut knobs,
                        &format!("config{config}.{key}"),
                        &key,
                        literal_in(text, ps + colon + 1, pe),
                        dot,
                    );
                }
            } else if let Some(eq) = arg.find('=') {
                let key = arg[..eq].trim().to_string();
                push_triton(
                    &mut knobs,
                    &format!("config{config}.{key}"),
                    &key,
                    literal_in(text, s + lead + eq + 1, e),
                    dot,
                );
            }
        }
    }
    let Some(site) = k.launches.first().filter(|l| l.external.is_none()).map(|l| l.range) else { return knobs };
    let Some(launch) = text.get(site.start..site.end) else { return knobs };
    let Some(call) = launch.find("](").map(|i| site.start + i + 1) else { return knobs };
    let Some((args, _)) = split_args(text, call) else { return knobs };
    let mut given = Vec::new();
    for &(s, e) in &args {
        let arg = &text[s..e];
        let Some(eq) = arg.find('=') else { continue };
        let key = arg[..eq].trim().to_string();
        if !key.bytes().all(ident_char) || arg[eq + 1..].starts_with('=') {
            continue;
        }
        given.push(key.clone());
        let autotuned_key = autotuned && (k.autotune.iter().any(|c| c.contains_key(&key)) || key.starts_with("num_"));
        if autotuned_key {
            continue;
        }
        let (vs, ve) = (s + eq + 1, e);
        if let Some(lit) = literal_in(text, vs, ve) {
            push_triton(&mut knobs, &key, &key, Some(lit), dot);
            continue;
        }
        let ident = text[vs..ve].trim();
        if ident.is_empty() || !ident.bytes().all(ident_char) {
            continue;
        }
        let found = local_literals(text, ident, site.start);
        match found.len() {
            1 => push_triton(&mut knobs, ident, &key, Some(found[0]), dot),
            // `num_warps = 4; if …: num_warps = 8`: the launch gets one literal instead.
            n if n > 1 && key.starts_with("num_") => {
                let lead = text[vs..ve].len() - text[vs..ve].trim_start().len();
                let range = TextRange::new(vs + lead, vs + lead + ident.len());
                if let Some((kind, domain)) = triton_domain(&key, 1, dot) {
                    let value = found[n - 1].0;
                    knobs.push(Knob { name: key.clone(), kind, value, domain, sites: vec![Site::number(range)] });
                }
            }
            _ => {}
        }
    }
    if !autotuned {
        let insert_at = args.last().map(|&(s, e)| s + text[s..e].trim_end().len());
        for (key, default) in [("num_warps", 4), ("num_stages", 3)] {
            if given.iter().any(|g| g == key) {
                continue;
            }
            let (Some(at), Some((kind, domain))) = (insert_at, triton_domain(key, default, dot)) else { continue };
            let mut domain: Vec<i64> = domain.into_iter().filter(|v| *v != default).collect();
            domain.insert(0, 0);
            knobs.push(Knob {
                name: key.to_string(),
                kind,
                value: 0,
                domain,
                sites: vec![Site { range: TextRange::new(at, at), style: Style::Kwarg(key.to_string()) }],
            });
        }
    }
    knobs
}

fn push_triton(knobs: &mut Vec<Knob>, name: &str, key: &str, literal: Option<(i64, TextRange)>, dot: bool) {
    let Some((value, range)) = literal else { return };
    let Some((kind, domain)) = triton_domain(key, value, dot) else { return };
    knobs.push(Knob { name: name.to_string(), kind, value, domain, sites: vec![Site::number(range)] });
}

#[cfg(test)]
mod tests;
