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

mod answer;

use super::evolve::Parent;
use super::validate::tokens;
use crate::extract::extract_text;
use crate::forecast::llm_prompt::{self, bounded, declared_sizes, one_line, ChatMessage, Hardware, MAX_SOURCE_BYTES};
use crate::hash::{ContentHash, Hasher};
use crate::kernel::{Kernel, Language, TextRange};
use crate::source::SourceText;
use answer::read_answer;

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

/// Top-level items of `text` (comments left out), as ranges.
fn items(language: Language, text: &str) -> Vec<TextRange> {
    SourceText::new(language, text).item_ranges()
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
pub(crate) fn normalized(text: &str, language: Language) -> String {
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
mod tests;
