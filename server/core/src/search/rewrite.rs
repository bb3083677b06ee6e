//! The LLM rewrite operator's pure half: the prompt that asks a language model for a
//! faster version of one kernel, and the reading of its answer into a whole file text.
//! The chat client, the cache and the operator itself are the server's
//! (`kforecast::llm::rewrite`).
//!
//! The answer format the prompt asks for: a one-line summary, one fenced code block with
//! the whole rewritten kernel definition, and only if the launch changes, a second block
//! tagged `launch` with the whole rewritten launching function. It is read leniently: any
//! fence tag, the kernel in any block, the launching function in a block of its own or
//! after the kernel, a JSON object (`{"kernel": …, "launch": …}`), a bare definition;
//! `#include`s, imports and verbatim copies of the file's own definitions are dropped,
//! new helpers kept next to the kernel. Spliced in, the rewrite replaces exactly the
//! kernel's definition (and the launching function, where given). It is refused, with the
//! reason, when the reply is empty or cut off, has no kernel of that name, renames it,
//! changes its signature or the launching function's, redefines something the file
//! defines, has a syntax error, or leaves the kernel as it was.

use super::evolve::Parent;
use super::validate::tokens;
use crate::extract::extract_text;
use crate::forecast::llm_prompt::{self, bounded, declared_sizes, one_line, ChatMessage, Hardware, MAX_SOURCE_BYTES};
use crate::hash::{ContentHash, Hasher};
use crate::kernel::{Kernel, Language, TextRange};
use crate::source::SourceText;
use serde_json::Value;

/// Version of the rewrite prompt and answer format; part of every cache key.
pub const PROMPT_VERSION: &str = "r1";

/// The largest rewritten kernel (with its new helpers) accepted, in bytes.
pub const MAX_REWRITE_BYTES: usize = 64 * 1024;

/// The largest reply read, in bytes.
const MAX_REPLY_BYTES: usize = 1024 * 1024;

/// Why an answer gives no usable rewrite.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RewriteError {
    #[error("the reply is empty")]
    Empty,
    #[error("the reply ends inside a code block (cut off?)")]
    CutOff,
    #[error("no definition of `{0}` in the reply")]
    NoKernel(String),
    #[error("the reply renames the kernel: it defines `{found}`, not `{name}`")]
    Renamed { name: String, found: String },
    #[error("the rewritten `{0}` has a syntax error")]
    SyntaxError(String),
    #[error("the rewrite changes the signature of `{name}`: `{before}` became `{after}`")]
    Signature { name: String, before: String, after: String },
    #[error("the launch block does not define `{0}`, the launching function")]
    NoLauncher(String),
    #[error("the rewrite changes the parameters of the launching function `{0}`")]
    LauncherSignature(String),
    #[error("the rewrite redefines `{0}`, which the file already defines")]
    Redefines(String),
    #[error("the rewritten file has no kernel `{0}`")]
    Lost(String),
    #[error("the rewrite leaves the kernel as it was")]
    Unchanged,
    #[error("the rewrite is larger than {} KiB", .0 / 1024)]
    TooLarge(usize),
}

/// A usable rewrite: the whole file text with it spliced in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rewrite {
    pub text: String,
    /// The model's one-line summary (may be empty).
    pub summary: String,
    /// The launching function was rewritten too.
    pub launch_changed: bool,
}

/// Cache key of the answer for `parent`: what the prompt is made of, the model and the
/// prompt version.
pub fn key(model: &str, parent: &Parent<'_>, device: &str) -> ContentHash {
    Hasher::new()
        .str("llm-rewrite")
        .str(PROMPT_VERSION)
        .str(model)
        .str(parent.kernel.language.name())
        .str(&parent.kernel.name)
        .str(parent.text)
        .str(device)
        .finish()
}

/// The instructions: the goal, the rules and the answer format.
pub fn system_prompt(language: Language) -> String {
    let tag = llm_prompt::fence(language);
    let (what, keep) = match language {
        Language::Cuda => (
            "its body, qualifiers and `__launch_bounds__`",
            "the kernel's name, its template parameters and its parameter list (names, types, order)",
        ),
        Language::Triton => (
            "its body and its decorators (e.g. `@triton.autotune` configurations)",
            "the kernel's name and its parameter list (names, annotations, order)",
        ),
    };
    format!(
        "You are an expert GPU performance engineer. You rewrite one GPU kernel so that it runs faster on \
         the given GPU while computing the same results: the same outputs for the same inputs, within \
         floating-point rounding.\n\n\
         Rules:\n\
         - Keep {keep} exactly as they are.\n\
         - Change only the kernel ({what}) and, if the launch must change, its launching function, which \
           keeps its name and parameters.\n\
         - Leave the helpers shown as they are. Define any new constant or helper function in your code \
           block, under a new name.\n\n\
         Answer format:\n\
         1. One line summarising the change.\n\
         2. One fenced code block with the whole rewritten kernel definition:\n\
         ```{tag}\n<the rewritten kernel>\n```\n\
         3. Only if the launch configuration must change (grid, block size, shared memory, meta-parameters \
           such as block sizes or num_warps): a second fenced code block tagged `launch` with the whole \
           rewritten launching function:\n\
         ```launch\n<the rewritten launching function>\n```\n\
         No other code blocks, nothing after them."
    )
}

/// The chat messages asking for a faster rewrite of `parent`'s kernel on `device`.
pub fn messages(parent: &Parent<'_>, device: &str) -> Vec<ChatMessage> {
    let k = parent.kernel;
    let tag = llm_prompt::fence(k.language);
    let sizes = declared_sizes(parent.text, k);
    let mut user = format!(
        "GPU: {}\nLanguage: {}\nKernel: `{}`\nProblem sizes (`kforecast:` declarations): {}\n\n",
        Hardware::for_device(device).describe(),
        k.language.name(),
        k.name,
        if sizes.is_empty() { "none declared" } else { &sizes }
    );
    let helpers = llm_prompt::helpers_source(k);
    if !helpers.is_empty() {
        user += &format!(
            "## Helpers the kernel uses (leave them as they are)\n\n```{tag}\n{}\n```\n\n",
            bounded(&helpers, MAX_SOURCE_BYTES)
        );
    }
    user += &format!("## The kernel to rewrite\n\n```{tag}\n{}\n```\n", bounded(&k.source, MAX_SOURCE_BYTES));
    if let Some((range, _)) = launcher(parent.text, k) {
        let text = parent.text.get(range.start..range.end).unwrap_or("");
        user += &format!("\n## Its launching function\n\n```{tag}\n{}\n```\n", bounded(text, MAX_SOURCE_BYTES / 2));
    } else {
        // How it is launched, when its launching function is not shown.
        user.extend(k.launches.iter().filter_map(|l| llm_prompt::launched_with(l, false)));
    }
    user += &format!("\nRewrite `{}` to run faster on this GPU, in the answer format described.", k.name);
    vec![ChatMessage::system(system_prompt(k.language)), ChatMessage::user(user)]
}

/// One fenced code block of a reply.
struct Block {
    tag: String,
    body: String,
}

/// The fenced blocks of `text`, their bodies dedented; a block left open is a cut-off reply.
fn fenced(text: &str) -> Result<Vec<Block>, RewriteError> {
    let mut blocks = Vec::new();
    let mut open: Option<(String, Vec<&str>)> = None;
    for line in text.lines() {
        let trimmed = line.trim_start();
        let fence = trimmed.starts_with("```") || trimmed.starts_with("~~~");
        match open.take() {
            None if fence => {
                let tag = trimmed.trim_start_matches(['`', '~']).trim().to_ascii_lowercase();
                open = Some((tag, Vec::new()));
            }
            None => {}
            Some((tag, lines)) if fence && trimmed.trim_end_matches(['`', '~']).trim().is_empty() => {
                blocks.push(Block { tag, body: dedent(&lines) });
            }
            Some((tag, mut lines)) => {
                lines.push(line);
                open = Some((tag, lines));
            }
        }
    }
    if open.is_some() {
        return Err(RewriteError::CutOff);
    }
    Ok(blocks)
}

/// Lines joined, without the indentation they all share.
fn dedent(lines: &[&str]) -> String {
    let indent =
        lines.iter().filter(|l| !l.trim().is_empty()).map(|l| l.len() - l.trim_start().len()).min().unwrap_or(0);
    let out: Vec<&str> = lines.iter().map(|l| l.get(indent..).unwrap_or_else(|| l.trim_start())).collect();
    out.join("\n")
}

/// What an answer holds, before it is spliced in.
struct Answer {
    /// Code holding the kernel's definition (and maybe helpers and the launching function).
    kernel: String,
    /// The kernel as extracted from `kernel`.
    found: Kernel,
    /// Use only the kernel's own definition out of `kernel` (a bare, unfenced answer).
    bare: bool,
    /// Code for the launching function, if given apart.
    launch: Vec<String>,
    /// A block tagged `launch` was given.
    launch_tagged: bool,
    summary: String,
}

/// The kernel `name` defined in `code`, or the name of another kernel it defines. For
/// Triton a `def name(` without its decorators gets the parent's.
fn kernel_in(code: &str, parent: &Kernel) -> Result<(String, Kernel), Option<String>> {
    let found = extract_text(parent.language, code);
    if let Some(k) = found.kernel(&parent.name) {
        return Ok((code.to_string(), k.clone()));
    }
    if parent.language == Language::Triton {
        let def = format!("def {}(", parent.name);
        if let (Some(at), Some(in_parent)) = (code.find(&def), parent.source.find(&def)) {
            let line_start = code[..at].rfind('\n').map(|i| i + 1).unwrap_or(0);
            let decorators = &parent.source[..in_parent];
            if code[line_start..at].trim().is_empty() && !decorators.trim().is_empty() {
                let fixed = format!("{}{}{}", &code[..line_start], decorators, &code[at..]);
                if let Some(k) = extract_text(parent.language, &fixed).kernel(&parent.name) {
                    return Ok((fixed.clone(), k.clone()));
                }
            }
        }
    }
    Err(found.kernels.first().map(|k| k.name.clone()))
}

const CODE_KEYS: [&str; 5] = ["kernel", "code", "source", "rewrite", "kernel_code"];
const LAUNCH_KEYS: [&str; 3] = ["launch", "launcher", "launch_code"];
const SUMMARY_KEYS: [&str; 4] = ["summary", "why", "description", "explanation"];

fn read_answer(reply: &str, parent: &Kernel) -> Result<Answer, RewriteError> {
    let blocks = fenced(reply)?;
    let summary_of = |s: &str| one_line(s.lines().find(|l| !l.trim().is_empty()).unwrap_or(""), 100);
    let mut renamed: Option<String> = None;
    for (i, b) in blocks.iter().enumerate() {
        if b.tag.contains("launch") {
            continue;
        }
        match kernel_in(&b.body, parent) {
            Ok((kernel, found)) => {
                let launch_tagged = blocks.iter().any(|b| b.tag.contains("launch"));
                // Launch blocks first, then the other blocks.
                let mut launch: Vec<String> =
                    blocks.iter().filter(|b| b.tag.contains("launch")).map(|b| b.body.clone()).collect();
                if !launch_tagged {
                    launch.extend(blocks.iter().enumerate().filter(|(j, _)| *j != i).map(|(_, b)| b.body.clone()));
                }
                let before = reply.find("```").or_else(|| reply.find("~~~")).unwrap_or(0);
                let summary = summary_of(reply[..before].trim().trim_start_matches('#').trim());
                return Ok(Answer { kernel, found, bare: false, launch, launch_tagged, summary });
            }
            Err(other) => renamed = renamed.or(other),
        }
    }
    // A JSON object with the code in a field: the whole reply, a block, or from the first
    // `{` to the last `}`.
    let mut candidates: Vec<&str> = vec![reply.trim()];
    candidates.extend(blocks.iter().map(|b| b.body.trim()));
    if let (Some(a), Some(b)) = (reply.find('{'), reply.rfind('}')) {
        candidates.extend(reply.get(a..=b));
    }
    for candidate in candidates.into_iter().filter(|c| c.starts_with('{')) {
        let Ok(Value::Object(map)) = serde_json::from_str::<Value>(candidate) else { continue };
        let field = |keys: &[&str]| keys.iter().find_map(|k| map.get(*k)).and_then(Value::as_str).map(str::to_string);
        let Some(code) = field(&CODE_KEYS) else { continue };
        let code = strip_fences(&code);
        match kernel_in(&code, parent) {
            Ok((kernel, found)) => {
                let launch: Vec<String> = field(&LAUNCH_KEYS).map(|l| strip_fences(&l)).into_iter().collect();
                let launch_tagged = !launch.is_empty();
                let summary = field(&SUMMARY_KEYS).map(|s| summary_of(&s)).unwrap_or_default();
                return Ok(Answer { kernel, found, bare: false, launch, launch_tagged, summary });
            }
            Err(other) => renamed = renamed.or(other),
        }
    }
    // A bare definition, no fences: its definition only.
    if blocks.is_empty() {
        match kernel_in(reply, parent) {
            Ok((kernel, found)) => {
                let (launch, summary) = (Vec::new(), String::new());
                return Ok(Answer { kernel, found, bare: true, launch, launch_tagged: false, summary });
            }
            Err(other) => renamed = renamed.or(other),
        }
    }
    Err(match renamed {
        Some(found) => RewriteError::Renamed { name: parent.name.clone(), found },
        None => RewriteError::NoKernel(parent.name.clone()),
    })
}

/// Code from a JSON field, without fences if it kept them.
fn strip_fences(code: &str) -> String {
    match fenced(code) {
        Ok(blocks) if !blocks.is_empty() => blocks.into_iter().map(|b| b.body).collect::<Vec<_>>().join("\n\n"),
        _ => code.to_string(),
    }
}

/// Top-level items of `text` (comments left out), as ranges.
fn items(language: Language, text: &str) -> Vec<TextRange> {
    let src = SourceText::new(language, text);
    let Some(tree) = src.tree() else { return Vec::new() };
    let root = tree.root_node();
    let mut cursor = root.walk();
    let out = root
        .named_children(&mut cursor)
        .filter(|n| n.kind() != "comment")
        .map(|n| TextRange::new(n.start_byte(), n.end_byte()))
        .collect();
    out
}

/// The top-level item of `text` holding the kernel's first launch (not the kernel
/// itself), and the name of the function it defines.
pub fn launcher(text: &str, kernel: &Kernel) -> Option<(TextRange, String)> {
    let launch = kernel.launches.first().filter(|l| l.external.is_none())?;
    let item = items(kernel.language, text).into_iter().find(|i| {
        i.start <= launch.range.start
            && launch.range.end <= i.end
            && !(i.start <= kernel.range.start && kernel.range.end <= i.end)
    })?;
    let name = defined_name(text.get(item.start..item.end)?, kernel.language)?;
    Some((item, name))
}

/// Without comments (`//`, `/* */` in CUDA, `#` in Python; strings are not looked into).
fn strip_comments(text: &str, language: Language) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    loop {
        let next = match language {
            Language::Cuda => [rest.find("//"), rest.find("/*")].into_iter().flatten().min(),
            Language::Triton => rest.find('#'),
        };
        let Some(at) = next else { break };
        out.push_str(&rest[..at]);
        let after = &rest[at..];
        let end = if after.starts_with("/*") {
            after.find("*/").map(|e| e + 2).unwrap_or(after.len())
        } else {
            after.find('\n').unwrap_or(after.len())
        };
        out.push(' ');
        rest = &after[end..];
    }
    out.push_str(rest);
    out
}

/// The tokens of a text without comments, space-separated: equal for texts that differ
/// only in layout and comments.
fn normalized(text: &str, language: Language) -> String {
    tokens(&strip_comments(text, language)).join(" ")
}

/// The name an item defines: a `#define`d macro, a function, a constant.
fn defined_name(item: &str, language: Language) -> Option<String> {
    let code = strip_comments(item, language);
    let toks = tokens(&code);
    let ident = |t: &&str| t.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_');
    match language {
        Language::Cuda => {
            let trimmed = code.trim_start();
            if let Some(rest) = trimmed.strip_prefix("#define") {
                return tokens(rest).first().map(|t| t.to_string());
            }
            if trimmed.starts_with('#') {
                return None;
            }
            // The identifier before the first `(` that is not an attribute's, else before `=`, `[` or `;`.
            let mut i = 0;
            let mut last: Option<&str> = None;
            let mut angle = 0i32;
            while i < toks.len() {
                let t = toks[i];
                match t {
                    "<" => angle += 1,
                    ">" => angle -= 1,
                    "(" if angle <= 0 => {
                        if !matches!(last, Some("__launch_bounds__" | "__attribute__" | "__align__" | "alignas")) {
                            return last.map(str::to_string);
                        }
                        // An attribute's arguments: skipped.
                        i = closing(&toks, i).unwrap_or(toks.len()) + 1;
                        last = None;
                        continue;
                    }
                    "=" | "[" | ";" | "{" if angle <= 0 => return last.map(str::to_string),
                    t if ident(&t) => last = Some(t),
                    _ => {}
                }
                i += 1;
            }
            last.map(str::to_string)
        }
        Language::Triton => {
            let first = code.lines().map(str::trim).find(|l| !l.is_empty() && !l.starts_with('@'))?;
            if let Some(rest) = first.strip_prefix("def ").or_else(|| first.strip_prefix("class ")) {
                return tokens(rest).first().map(|t| t.to_string());
            }
            if first.starts_with("import ") || first.starts_with("from ") {
                return None;
            }
            let lhs = first.split('=').next().filter(|_| first.contains('='))?;
            tokens(lhs).first().filter(|t| ident(t)).map(|t| t.to_string())
        }
    }
}

/// `#include`s, `#pragma once`, imports: dropped from a rewrite.
fn is_preamble(item: &str) -> bool {
    let t = item.trim_start();
    t.starts_with("#include") || t.starts_with("#pragma once") || t.starts_with("import ") || t.starts_with("from ")
}

/// The text of `name(…)` in a definition: from the name to the parameters' closing bracket.
fn params_of(def: &str, name: &str, language: Language) -> Option<String> {
    let code = strip_comments(def, language);
    let toks = tokens(&code);
    let start = toks.windows(2).position(|w| w[0] == name && w[1] == "(")?;
    let end = closing(&toks, start + 1)?;
    Some(toks[start..=end].join(" "))
}

/// The index of the `)` that closes the `(` at `open`.
fn closing(toks: &[&str], open: usize) -> Option<usize> {
    let mut depth = 0;
    for (i, t) in toks.iter().enumerate().skip(open) {
        match *t {
            "(" => depth += 1,
            ")" => {
                depth -= 1;
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
    }
    None
}

/// Re-indents all lines but the first with the indentation of the line `at` is on, when
/// only whitespace precedes `at` there (a definition nested in a block).
fn indent_like(text: &str, at: usize, code: &str) -> String {
    let line_start = text.get(..at).and_then(|t| t.rfind('\n')).map(|i| i + 1).unwrap_or(0);
    let indent = text.get(line_start..at).unwrap_or("");
    if indent.is_empty() || !indent.trim().is_empty() {
        return code.to_string();
    }
    code.lines()
        .enumerate()
        .map(|(i, l)| if i == 0 || l.is_empty() { l.to_string() } else { format!("{indent}{l}") })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The file text with the rewrite in `reply` spliced into `parent`, or why not.
pub fn apply(parent: &Parent<'_>, reply: &str) -> Result<Rewrite, RewriteError> {
    let k = parent.kernel;
    let language = k.language;
    if reply.trim().is_empty() {
        return Err(RewriteError::Empty);
    }
    if reply.len() > MAX_REPLY_BYTES {
        return Err(RewriteError::TooLarge(MAX_REPLY_BYTES));
    }
    let answer = read_answer(reply, k)?;
    // What the file defines at top level (name → normalised text), but the kernel.
    let file_items: Vec<(String, String)> = items(language, parent.text)
        .into_iter()
        .filter(|r| !(r.start <= k.range.start && k.range.end <= r.end))
        .filter_map(|r| {
            let t = parent.text.get(r.start..r.end)?;
            Some((defined_name(t, language)?, normalized(t, language)))
        })
        .collect();
    let file_launcher = launcher(parent.text, k);
    let launcher_name = file_launcher.as_ref().map(|(_, n)| n.clone());
    // The kernel's block: its definition, the new helpers around it, maybe the launching function.
    let new_k = &answer.found;
    let mut launch_code: Option<String> = None;
    let mut kept: Vec<String> = Vec::new();
    let mut definition = answer.kernel.get(new_k.range.start..new_k.range.end).unwrap_or("").to_string();
    if !answer.bare {
        let mut before = Vec::new();
        let mut after = Vec::new();
        for r in items(language, &answer.kernel) {
            let Some(t) = answer.kernel.get(r.start..r.end) else { continue };
            if r.start <= new_k.range.start && new_k.range.end <= r.end {
                definition = t.to_string();
                continue;
            }
            if is_preamble(t) {
                continue;
            }
            let name = defined_name(t, language);
            if name.is_some() && name == launcher_name && !answer.launch_tagged {
                launch_code = Some(t.to_string());
                continue;
            }
            if let Some(n) = &name {
                if let Some((_, existing)) = file_items.iter().find(|(f, _)| f == n) {
                    if *existing == normalized(t, language) {
                        continue;
                    }
                    return Err(RewriteError::Redefines(n.clone()));
                }
            }
            if r.end <= new_k.range.start {
                before.push(t.trim().to_string());
            } else {
                after.push(t.trim().to_string());
            }
        }
        kept.extend(before);
        kept.push(definition.trim().to_string());
        kept.extend(after);
    } else {
        kept.push(definition.trim().to_string());
    }
    let kernel_text = kept.join("\n\n");
    if kernel_text.len() > MAX_REWRITE_BYTES {
        return Err(RewriteError::TooLarge(MAX_REWRITE_BYTES));
    }
    // The launching function: from a launch block, another block, or after the kernel.
    if launch_code.is_none() {
        if let Some(name) = &launcher_name {
            for code in &answer.launch {
                let found = items(language, code).into_iter().find_map(|r| {
                    let t = code.get(r.start..r.end)?;
                    (defined_name(t, language).as_deref() == Some(name.as_str())).then(|| t.to_string())
                });
                if found.is_some() {
                    launch_code = found;
                    break;
                }
            }
            if launch_code.is_none() && answer.launch_tagged {
                return Err(RewriteError::NoLauncher(name.clone()));
            }
        } else if answer.launch_tagged {
            tracing::debug!(
                "rewrite of `{}`: a launch block, but the file has no launching function to replace",
                k.name
            );
        }
    }
    let mut edits = vec![(k.range, indent_like(parent.text, k.range.start, &kernel_text))];
    let mut launch_changed = false;
    if let (Some(code), Some((range, name))) = (&launch_code, &file_launcher) {
        let old = parent.text.get(range.start..range.end).unwrap_or("");
        if params_of(old, name, language) != params_of(code, name, language) {
            return Err(RewriteError::LauncherSignature(name.clone()));
        }
        if normalized(old, language) != normalized(code, language) {
            edits.push((*range, indent_like(parent.text, range.start, code.trim())));
            launch_changed = true;
        }
    }
    let text = super::diff::apply(parent.text, &edits);
    // The rewritten file still has the kernel, with its signature, and it changed.
    let Some(after) = extract_text(language, &text).kernel(&k.name).cloned() else {
        return Err(RewriteError::Lost(k.name.clone()));
    };
    if after.has_errors {
        return Err(RewriteError::SyntaxError(k.name.clone()));
    }
    let signature = |text: &str, k: &Kernel| {
        let s = text.get(k.name_range.start..k.signature_end).unwrap_or("");
        (normalized(s, language), k.constexpr_params.clone())
    };
    let (before_sig, after_sig) = (signature(parent.text, k), signature(&text, &after));
    if before_sig != after_sig {
        return Err(RewriteError::Signature {
            name: k.name.clone(),
            before: one_line(&before_sig.0, 120),
            after: one_line(&after_sig.0, 120),
        });
    }
    if text == parent.text || after.identity() == k.identity() {
        return Err(RewriteError::Unchanged);
    }
    Ok(Rewrite { text, summary: answer.summary, launch_changed })
}

#[cfg(test)]
mod tests {
    use super::*;

    const TRANSPOSE: &str = r#"#include <cuda_runtime.h>

#define BLOCK_X 32
#define BLOCK_Y 8

// kforecast: rows = 4096; cols = 4096; in: f32[rows, cols]; out: f32[rows, cols]
__global__ void __launch_bounds__(BLOCK_X * BLOCK_Y)
transpose(const float* __restrict__ in, float* __restrict__ out, int rows, int cols)
{
    const int x = blockIdx.x * BLOCK_X + threadIdx.x;
    const int y = blockIdx.y * BLOCK_Y + threadIdx.y;
    if (x < cols && y < rows)
        out[(size_t)x * rows + y] = in[(size_t)y * cols + x];
}

static inline int ceil_div(int a, int b) { return (a + b - 1) / b; }

extern "C" void launch_transpose(const float* in, float* out, int rows, int cols, cudaStream_t stream)
{
    dim3 block(BLOCK_X, BLOCK_Y);
    dim3 grid(ceil_div(cols, BLOCK_X), ceil_div(rows, BLOCK_Y));
    transpose<<<grid, block, 0, stream>>>(in, out, rows, cols);
}
"#;

    const TILED: &str = r#"__global__ void __launch_bounds__(BLOCK_X * BLOCK_Y)
transpose(const float* __restrict__ in, float* __restrict__ out, int rows, int cols)
{
    __shared__ float tile[32][33];
    const int x = blockIdx.x * 32 + threadIdx.x;
    for (int j = threadIdx.y; j < 32; j += BLOCK_Y)
        tile[j][threadIdx.x] = in[(size_t)(blockIdx.y * 32 + j) * cols + x];
    __syncthreads();
    for (int j = threadIdx.y; j < 32; j += BLOCK_Y)
        out[(size_t)(blockIdx.x * 32 + j) * rows + blockIdx.y * 32 + threadIdx.x] = tile[threadIdx.x][j];
}"#;

    const LAUNCH: &str = r#"extern "C" void launch_transpose(const float* in, float* out, int rows, int cols, cudaStream_t stream)
{
    dim3 block(32, BLOCK_Y);
    dim3 grid(ceil_div(cols, 32), ceil_div(rows, 32));
    transpose<<<grid, block, 0, stream>>>(in, out, rows, cols);
}"#;

    fn with<T>(text: &str, language: Language, name: &str, f: impl FnOnce(&Parent<'_>) -> T) -> T {
        let k = extract_text(language, text).kernel(name).cloned().expect("kernel");
        f(&Parent { text, kernel: &k, values: None, speedup: Some(1.0), description: "original" })
    }

    fn rewrite(reply: &str) -> Result<Rewrite, RewriteError> {
        with(TRANSPOSE, Language::Cuda, "transpose", |p| apply(p, reply))
    }

    #[test]
    fn a_fenced_kernel_replaces_exactly_the_kernel() {
        let r = rewrite(&format!("Shared-memory tiles make both accesses coalesced.\n```cuda\n{TILED}\n```\n"))
            .expect("rewrite");
        assert_eq!(r.summary, "Shared-memory tiles make both accesses coalesced.");
        assert!(!r.launch_changed);
        let start = TRANSPOSE.find("__global__").expect("start");
        let end = TRANSPOSE.find("\n\nstatic inline").expect("end");
        assert_eq!(r.text, format!("{}{TILED}{}", &TRANSPOSE[..start], &TRANSPOSE[end..]));
    }

    #[test]
    fn the_launch_is_replaced_where_given_in_any_of_the_accepted_forms() {
        let expected_launch = |r: &Rewrite| r.text.contains("dim3 grid(ceil_div(cols, 32), ceil_div(rows, 32));");
        // A block tagged `launch`.
        let r = rewrite(&format!("Tiles.\n```cuda\n{TILED}\n```\n```launch\n{LAUNCH}\n```")).expect("tagged");
        assert!(r.launch_changed && expected_launch(&r) && r.text.matches("launch_transpose").count() == 1);
        // After the kernel in its block, with copies of the file's own definitions and an include.
        let copy = "#include <cuda_runtime.h>\n#define BLOCK_Y 8\nstatic inline int ceil_div(int a, int b) { return (a + b - 1) / b; }";
        let r = rewrite(&format!("```\n{copy}\n\n{TILED}\n\n{LAUNCH}\n```")).expect("one block");
        assert!(r.launch_changed && expected_launch(&r), "{}", r.text);
        assert_eq!(r.text.matches("#define BLOCK_Y").count(), 1, "{}", r.text);
        assert_eq!(r.text.matches("ceil_div(int a").count(), 1);
        // A JSON object.
        let json = serde_json::json!({"summary": "tiles", "kernel": TILED, "launch": LAUNCH}).to_string();
        let r = rewrite(&json).expect("json");
        assert!(r.launch_changed && expected_launch(&r) && r.summary == "tiles");
        let r = rewrite(&format!("Here it is:\n```json\n{json}\n```")).expect("json in a block");
        assert!(r.launch_changed && expected_launch(&r));
        assert!(rewrite(&format!("My answer: {json} (as asked)")).is_ok(), "json in prose");
        // A bare definition.
        let r = rewrite(TILED).expect("bare");
        assert!(!r.launch_changed && r.text.contains("__shared__ float tile[32][33];"));
        // A new helper next to the kernel is kept, before it.
        let helper = "#define TILE 32";
        let r = rewrite(&format!("```cuda\n{helper}\n{}\n```", TILED.replace("[32][33]", "[TILE][TILE + 1]")))
            .expect("helper");
        assert!(r.text.contains("#define TILE 32\n\n__global__"), "{}", r.text);
    }

    #[test]
    fn unusable_answers_are_refused_with_the_reason() {
        assert_eq!(rewrite("  \n"), Err(RewriteError::Empty));
        assert_eq!(rewrite(&"{".repeat(MAX_REPLY_BYTES + 1)), Err(RewriteError::TooLarge(MAX_REPLY_BYTES)));
        assert_eq!(rewrite("I would use shared memory."), Err(RewriteError::NoKernel("transpose".into())));
        assert_eq!(rewrite(&format!("```cuda\n{}", &TILED[..200])), Err(RewriteError::CutOff));
        assert_eq!(
            rewrite(&format!("```cuda\n{}\n```", TILED.replace("\ntranspose(", "\ntranspose_tiled("))),
            Err(RewriteError::Renamed { name: "transpose".into(), found: "transpose_tiled".into() })
        );
        let e =
            rewrite(&format!("```cuda\n{}\n```", TILED.replace("int rows, int cols", "int rows, int cols, int ld")))
                .expect_err("signature");
        assert!(matches!(e, RewriteError::Signature { .. }), "{e}");
        assert!(e.to_string().contains("int ld"), "{e}");
        // Layout and comments in the signature are not a change.
        let spaced = TILED.replace("const float* __restrict__ in", "const float *__restrict__ in /* input */");
        assert!(rewrite(&format!("```cuda\n{spaced}\n```")).is_ok());
        let launch = LAUNCH.replace("cudaStream_t stream", "cudaStream_t stream, int extra");
        assert_eq!(
            rewrite(&format!("```cuda\n{TILED}\n```\n```launch\n{launch}\n```")),
            Err(RewriteError::LauncherSignature("launch_transpose".into()))
        );
        assert_eq!(
            rewrite(&format!("```cuda\n{TILED}\n```\n```launch\nvoid other() {{}}\n```")),
            Err(RewriteError::NoLauncher("launch_transpose".into()))
        );
        assert_eq!(
            rewrite(&format!("```cuda\n#define BLOCK_Y 16\n{TILED}\n```")),
            Err(RewriteError::Redefines("BLOCK_Y".into()))
        );
        assert_eq!(
            rewrite(&format!("```cuda\n{}\n```", TILED.replace("__syncthreads();", "__syncthreads(;"))),
            Err(RewriteError::SyntaxError("transpose".into()))
        );
        // The same kernel, only comments and layout changed.
        let start = TRANSPOSE.find("__global__").expect("start");
        let end = TRANSPOSE.find("\n\nstatic inline").expect("end");
        let same = TRANSPOSE[start..end].replace("    if (x", "    // bounds\n    if (x");
        assert_eq!(rewrite(&format!("```cuda\n{same}\n```")), Err(RewriteError::Unchanged));
        assert_eq!(rewrite(&format!("```cuda\n{}\n```", &TRANSPOSE[start..end])), Err(RewriteError::Unchanged));
    }

    const ADD: &str = r#"import triton
import triton.language as tl

# kforecast: wrapper = add(x, y); x: f32[1 << 24]; y: f32[1 << 24]
@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    tl.store(out_ptr + offsets, tl.load(x_ptr + offsets, mask=mask) + tl.load(y_ptr + offsets, mask=mask), mask=mask)


def add(x, y):
    out = torch.empty_like(x)
    n_elements = out.numel()
    BLOCK_SIZE = 64
    grid = (triton.cdiv(n_elements, BLOCK_SIZE),)
    add_kernel[grid](x, y, out, n_elements, BLOCK_SIZE=BLOCK_SIZE, num_warps=1)
    return out
"#;

    #[test]
    fn triton_kernels_and_wrappers_are_rewritten() {
        let kernel = "def add_kernel(x_ptr, y_ptr, out_ptr, n_elements, BLOCK_SIZE: tl.constexpr):\n    pid = tl.program_id(0)\n    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)\n    mask = offsets < n_elements\n    x = tl.load(x_ptr + offsets, mask=mask)\n    y = tl.load(y_ptr + offsets, mask=mask)\n    tl.store(out_ptr + offsets, x + y, mask=mask)";
        let wrapper = ADD[ADD.find("def add(").expect("wrapper")..].replace("BLOCK_SIZE = 64", "BLOCK_SIZE = 1024");
        let reply = format!("Bigger blocks.\n```python\nimport triton\n{kernel}\n```\n```launch\n{wrapper}```\n");
        let r = with(ADD, Language::Triton, "add_kernel", |p| apply(p, &reply)).expect("rewrite");
        assert!(r.launch_changed && r.text.contains("BLOCK_SIZE = 1024"), "{}", r.text);
        assert!(r.text.contains("@triton.jit\ndef add_kernel("), "the decorator is kept: {}", r.text);
        assert_eq!(r.text.matches("import triton\n").count(), 1);
        let prompt = with(ADD, Language::Triton, "add_kernel", |p| messages(p, "NVIDIA H100"));
        let user = &prompt[1].content;
        assert!(user.contains("```python\n@triton.jit\ndef add_kernel(") && user.contains("## Its launching function"));
        assert!(user.contains("132 SMs") && user.contains("x: f32[1 << 24]"), "{user}");
        assert!(prompt[0].content.contains("```launch"));
    }

    #[test]
    fn the_prompt_shows_helpers_kernel_launch_sizes_and_hardware() {
        let msgs = with(TRANSPOSE, Language::Cuda, "transpose", |p| messages(p, "NVIDIA H100 80GB HBM3"));
        let user = &msgs[1].content;
        for needle in [
            "#define BLOCK_X 32",
            "## The kernel to rewrite\n\n```cuda\n__global__ void __launch_bounds__",
            "extern \"C\" void launch_transpose",
            "rows = 4096; cols = 4096",
            "132 SMs",
        ] {
            assert!(user.contains(needle), "{needle}: {user}");
        }
        assert!(msgs[0].content.contains("Keep the kernel's name, its template parameters and its parameter list"));
        // The key follows the parent text, the model and the device.
        let k =
            |text: &str, model: &str, device: &str| with(text, Language::Cuda, "transpose", |p| key(model, p, device));
        assert_eq!(k(TRANSPOSE, "m", "H100"), k(TRANSPOSE, "m", "H100"));
        assert_ne!(k(TRANSPOSE, "m", "H100"), k(TRANSPOSE, "n", "H100"));
        assert_ne!(k(TRANSPOSE, "m", "H100"), k(TRANSPOSE, "m", "A100"));
        assert_ne!(k(TRANSPOSE, "m", "H100"), k(&TRANSPOSE.replace("BLOCK_Y 8", "BLOCK_Y 16"), "m", "H100"));
    }
}
