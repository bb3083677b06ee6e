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

use super::diff;
use crate::declaration::split_top;
use crate::extract::extract_text;
use crate::kernel::{HelperKind, Kernel, Language, TextRange};
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

/// A decimal integer starting exactly at `at`: (value, end).
fn int_at(text: &str, at: usize) -> Option<(i64, usize)> {
    let bytes = text.as_bytes();
    let mut end = at;
    while end < bytes.len() && bytes[end].is_ascii_digit() {
        end += 1;
    }
    if end == at || end - at > 9 {
        return None;
    }
    // `0x10`, `1.5`, `10u` are not plain decimal literals.
    if end < bytes.len() && (bytes[end].is_ascii_alphanumeric() || bytes[end] == b'.' || bytes[end] == b'_') {
        return None;
    }
    Some((text[at..end].parse().ok()?, end))
}

/// The whole of `text[range]` is one decimal literal (surrounding spaces allowed).
fn literal_in(text: &str, start: usize, end: usize) -> Option<(i64, TextRange)> {
    let slice = text.get(start..end)?;
    let lead = slice.len() - slice.trim_start().len();
    let trimmed = slice.trim();
    let (v, e) = int_at(text, start + lead)?;
    (e - (start + lead) == trimmed.len()).then_some((v, TextRange::new(start + lead, e)))
}

/// The top-level arguments between the bracket at `open` and its partner, as byte
/// ranges (untrimmed), and the closing bracket's offset.
fn split_args(text: &str, open: usize) -> Option<(Vec<(usize, usize)>, usize)> {
    let bytes = text.as_bytes();
    let (opener, closer) = match bytes.get(open)? {
        b'(' => (b'(', b')'),
        b'<' => (b'<', b'>'),
        b'{' => (b'{', b'}'),
        b'[' => (b'[', b']'),
        _ => return None,
    };
    let mut depth = 0i32;
    let mut parts = Vec::new();
    let mut start = open + 1;
    let mut quote: Option<u8> = None;
    for (i, &c) in bytes.iter().enumerate().skip(open) {
        if let Some(q) = quote {
            if c == q {
                quote = None;
            }
            continue;
        }
        match c {
            b'"' | b'\'' => quote = Some(c),
            c if c == opener || (opener != b'<' && matches!(c, b'(' | b'[' | b'{')) => depth += 1,
            c if c == closer || (opener != b'<' && matches!(c, b')' | b']' | b'}')) => {
                depth -= 1;
                if depth == 0 {
                    if text[start..i].trim().is_empty() && parts.is_empty() {
                        return Some((parts, i));
                    }
                    parts.push((start, i));
                    return Some((parts, i));
                }
            }
            b',' if depth == 1 => {
                parts.push((start, i));
                start = i + 1;
            }
            _ => {}
        }
    }
    None
}

/// Line starts and texts of `text[start..end]`.
fn lines_in(text: &str, start: usize, end: usize) -> impl Iterator<Item = (usize, &str)> {
    let slice = text.get(start..end).unwrap_or("");
    let mut at = start;
    slice.split_inclusive('\n').map(move |l| {
        let here = at;
        at += l.len();
        (here, l.trim_end_matches('\n'))
    })
}

/// 1-based line of a byte offset.
pub(super) fn line_number(text: &str, offset: usize) -> usize {
    text.get(..offset).map(|t| t.matches('\n').count() + 1).unwrap_or(1)
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

fn ident_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

/// `NAME` as a whole word at `at` in `text`.
fn word_at(text: &str, at: usize, name: &str) -> bool {
    let bytes = text.as_bytes();
    text.get(at..at + name.len()) == Some(name)
        && (at == 0 || !ident_char(bytes[at - 1]))
        && bytes.get(at + name.len()).is_none_or(|c| !ident_char(*c))
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
        let trimmed = line.trim_start();
        let Some(rest) = trimmed.strip_prefix("#pragma") else { continue };
        let Some(after) = rest.trim_start().strip_prefix("unroll") else { continue };
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

/// `#define NAME 32` or `constexpr int NAME = 32;` at file level: the literal.
fn constant_literal(text: &str, name: &str) -> Option<(i64, TextRange)> {
    for (start, line) in lines_in(text, 0, text.len()) {
        let trimmed = line.trim_start();
        let lead = line.len() - trimmed.len();
        if let Some(rest) = trimmed.strip_prefix("#define") {
            let after = rest.trim_start();
            let name_at = start + lead + 7 + (rest.len() - after.len());
            if word_at(text, name_at, name) {
                let value_at = name_at + name.len();
                let gap = text[value_at..].len() - text[value_at..].trim_start_matches([' ', '\t']).len();
                let (v, e) = int_at(text, value_at + gap)?;
                let tail = text[e..].split('\n').next().unwrap_or("").trim();
                return (tail.is_empty() || tail.starts_with("//") || tail.starts_with("/*"))
                    .then_some((v, TextRange::new(value_at + gap, e)));
            }
        } else if (trimmed.starts_with("constexpr") || trimmed.starts_with("const ") || trimmed.starts_with("static"))
            && !trimmed.contains('(')
        {
            let Some(eq) = trimmed.find('=') else { continue };
            let head = trimmed[..eq].trim_end();
            if !head.ends_with(name) || !word_at(text, start + lead + head.len() - name.len(), name) {
                continue;
            }
            let value_at = start + lead + eq + 1;
            let gap = text[value_at..].len() - text[value_at..].trim_start().len();
            let (v, e) = int_at(text, value_at + gap)?;
            return text[e..].trim_start().starts_with(';').then_some((v, TextRange::new(value_at + gap, e)));
        }
    }
    None
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

/// The last `NAME = <int>` (C or Python) before `before` in the enclosing function,
/// if there is exactly one such assignment there.
fn local_literal(text: &str, name: &str, before: usize) -> Option<(i64, TextRange)> {
    let found = local_literals(text, name, before);
    (found.len() == 1).then(|| found[0])
}

/// Every `NAME = <int>` and `A, NAME = 1, <int>` between the start of the enclosing
/// function and `before`.
fn local_literals(text: &str, name: &str, before: usize) -> Vec<(i64, TextRange)> {
    let window = text.get(..before).unwrap_or("");
    let start =
        ["\ndef ", "\nasync def ", "\n}"].iter().filter_map(|p| window.rfind(p)).max().map(|i| i + 1).unwrap_or(0);
    let mut out = Vec::new();
    for (line_start, line) in lines_in(text, start, before) {
        let code = line.split("//").next().unwrap_or(line);
        let code = code.split('#').next().unwrap_or(code);
        let Some(eq) = code.find('=') else { continue };
        if code[eq + 1..].starts_with('=') || code[..eq].ends_with(['<', '>', '!', '+', '-', '*', '/']) {
            continue;
        }
        let targets: Vec<&str> = code[..eq].split(',').map(|t| t.split_whitespace().last().unwrap_or("")).collect();
        let Some(slot) = targets.iter().position(|t| *t == name) else { continue };
        // The value list, split like the targets.
        let mut value_at = line_start + eq + 1;
        for (i, part) in code[eq + 1..].split(',').enumerate() {
            if i == slot {
                let v = part.trim().trim_end_matches(';').trim();
                let lead = part.len() - part.trim_start().len();
                if let Some((value, end)) = int_at(text, value_at + lead) {
                    if end - (value_at + lead) == v.len() && targets.len() == code[eq + 1..].split(',').count() {
                        out.push((value, TextRange::new(value_at + lead, end)));
                    }
                }
                break;
            }
            value_at += part.len() + 1;
        }
    }
    out
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
mod tests {
    use super::*;

    const TRANSPOSE: &str = r#"#define TILE_DIM   32
#define BLOCK_ROWS 8   // rows per block
#define WARP_SIZE 32
// kforecast: rows = 4096; cols = 4096; in: f32[rows, cols]; out: f32[rows, cols]
__global__ void __launch_bounds__(TILE_DIM * BLOCK_ROWS)
transpose(const float* __restrict__ in, float* __restrict__ out, int rows, int cols)
{
    __shared__ float tile[TILE_DIM][TILE_DIM + 1];
    int x = blockIdx.x * TILE_DIM + threadIdx.x;
#pragma unroll
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS) tile[threadIdx.y + j][threadIdx.x] = in[x + j * WARP_SIZE];
    __syncthreads();
    #pragma unroll 4
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS) out[x + j] = tile[threadIdx.x][threadIdx.y + j];
}
void launch(const float* in, float* out, int rows, int cols) {
    dim3 block(TILE_DIM, BLOCK_ROWS);
    dim3 grid(cols / TILE_DIM, rows / TILE_DIM);
    transpose<<<grid, block>>>(in, out, rows, cols);
}
"#;

    fn names(space: &KnobSpace) -> Vec<&str> {
        space.knobs.iter().map(|k| k.name.as_str()).collect()
    }

    #[test]
    fn cuda_constants_unrolls_and_launch_bounds() {
        let space = KnobSpace::discover(TRANSPOSE, Language::Cuda, "transpose").expect("space");
        assert_eq!(names(&space), vec!["TILE_DIM", "BLOCK_ROWS", "minBlocksPerSM", "unroll@L10", "unroll@L13"]);
        assert_eq!(space.original(), vec![32, 8, 0, 0, 4]);
        let mut v = space.original();
        v[0] = 64;
        v[2] = 2;
        v[3] = 2;
        v[4] = 0;
        let text = space.render(&v);
        assert!(
            text.starts_with("#define TILE_DIM   64\n#define BLOCK_ROWS 8   // rows per block\n#define WARP_SIZE 32")
        );
        assert!(text.contains("__launch_bounds__(TILE_DIM * BLOCK_ROWS, 2)"), "{text}");
        assert!(text.contains("#pragma unroll 2\n") && text.contains("    #pragma unroll\n"), "{text}");
        assert_eq!(space.render(&space.original()), TRANSPOSE);
        assert_eq!(
            space.describe(&v),
            "TILE_DIM 32→64, minBlocksPerSM default→2, unroll@L10 full→2, unroll@L13 4→full"
        );
        // Re-reading the variant finds the new values at the same knobs.
        let again = KnobSpace::discover(&text, Language::Cuda, "transpose").expect("again");
        assert_eq!(again.original(), v);
        let all: Vec<Vec<i64>> = space.combinations().collect();
        assert_eq!(all.len() as f64, space.size());
        assert_eq!(all[0], space.original());
        assert_eq!(all.iter().collect::<std::collections::HashSet<_>>().len(), all.len());
    }

    #[test]
    fn cuda_literal_block_ties_template_argument_and_bounds() {
        let text = "template <int BLOCK>\n__global__ void __launch_bounds__(256) k(float* o) { o[threadIdx.x] = BLOCK; }\nvoid go(float* o) {\n    const int threads = 256;\n    k<256><<<4, threads>>>(o);\n}\n";
        let space = KnobSpace::discover(text, Language::Cuda, "k").expect("space");
        let block = space.knobs.iter().find(|k| k.name == "block").expect("block");
        assert_eq!(block.sites.len(), 3, "{block:?}");
        let i = space.knobs.iter().position(|k| k.name == "block").expect("i");
        let mut v = space.original();
        v[i] = 128;
        let out = space.render(&v);
        assert!(
            out.contains("__launch_bounds__(128)") && out.contains("threads = 128;") && out.contains("k<128><<<"),
            "{out}"
        );
    }

    const ADD: &str = r#"import triton
# kforecast: wrapper = add(x, y); x: f32[1 << 24]; y: f32[1 << 24]
@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)

def add(x, y):
    out = torch.empty_like(x)
    BLOCK_SIZE = 64
    grid = (triton.cdiv(n, BLOCK_SIZE),)
    add_kernel[grid](x, y, out, n, BLOCK_SIZE=BLOCK_SIZE, num_warps=1)
    return out
"#;

    #[test]
    fn triton_locals_literals_and_absent_options() {
        let space = KnobSpace::discover(ADD, Language::Triton, "add_kernel").expect("space");
        assert_eq!(names(&space), vec!["BLOCK_SIZE", "num_warps", "num_stages"]);
        assert_eq!(space.original(), vec![64, 1, 0]);
        let text = space.render(&[1024, 4, 2]);
        assert!(text.contains("    BLOCK_SIZE = 1024\n"), "{text}");
        assert!(text.contains("BLOCK_SIZE=BLOCK_SIZE, num_warps=4, num_stages=2)"), "{text}");
        let tuple = ADD.replace("    BLOCK_SIZE = 64\n", "    BLOCK_SIZE, OTHER = 64, 3\n");
        let space = KnobSpace::discover(&tuple, Language::Triton, "add_kernel").expect("tuple");
        assert!(space.render(&[128, 1, 0]).contains("BLOCK_SIZE, OTHER = 128, 3"));
    }

    #[test]
    fn triton_branching_locals_and_autotune_configs() {
        let branches = ADD
            .replace("num_warps=1", "num_warps=nw")
            .replace("    BLOCK_SIZE = 64\n", "    BLOCK_SIZE = 64\n    nw = 4\n    if n > 10:\n        nw = 8\n");
        let space = KnobSpace::discover(&branches, Language::Triton, "add_kernel").expect("space");
        let nw = space.knobs.iter().find(|k| k.name == "num_warps").expect("num_warps");
        assert_eq!(nw.value, 8);
        assert!(space.render(&[64, 2, 0]).contains("num_warps=2)"));
        let tuned = ADD.replace(
            "@triton.jit",
            "@triton.autotune(configs=[triton.Config({\"BLOCK_SIZE\": 128}, num_warps=4)], key=[\"n\"])\n@triton.jit",
        )
        .replace(", BLOCK_SIZE=BLOCK_SIZE, num_warps=1", "");
        let space = KnobSpace::discover(&tuned, Language::Triton, "add_kernel").expect("tuned");
        assert_eq!(names(&space), vec!["config1.BLOCK_SIZE", "config1.num_warps"]);
        assert!(space.render(&[256, 8]).contains("triton.Config({\"BLOCK_SIZE\": 256}, num_warps=8)"));
    }

    #[test]
    fn problem_sizes_are_never_knobs() {
        let sgemm = include_str!("../../../../tests/data/foreign/sgemm/sgemm_2d.cu");
        let space = KnobSpace::discover(sgemm, Language::Cuda, "sgemm2DBlocktiling").expect("space");
        let found = names(&space);
        for tile in ["BM", "BN", "BK", "TM", "TN"] {
            assert!(found.contains(&tile), "{tile} is a knob: {found:?}");
        }
        for size in ["M", "N", "K"] {
            assert!(!found.contains(&size), "{size} sets the problem: {found:?}");
        }
        let matvec = include_str!("../../../../tests/data/foreign/matvec.cu");
        let space = KnobSpace::discover(matvec, Language::Cuda, "matvec").expect("space");
        let found = names(&space);
        assert!(found.contains(&"threads") && !found.contains(&"M") && !found.contains(&"N"), "{found:?}");
        // A declared size is not a knob either.
        let declared = "#define N 4096\n#define TILE 32\n// kforecast: N = 4096\n__global__ void k(float* x) { x[threadIdx.x % TILE] = N; }\nvoid run(float* x) { k<<<N / TILE, TILE>>>(x); }\n";
        let space = KnobSpace::discover(declared, Language::Cuda, "k").expect("space");
        assert_eq!(names(&space), vec!["TILE"]);
    }
}
