//! Reading a language model's answer leniently: fenced blocks (any tag), a JSON object
//! with the code in a field, or a bare definition; which of them holds the kernel and
//! which the launching function.

use super::RewriteError;
use crate::extract::extract_text;
use crate::forecast::llm_prompt::one_line;
use crate::kernel::{Kernel, Language};
use serde_json::Value;

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
pub(super) struct Answer {
    /// Code holding the kernel's definition (and maybe helpers and the launching function).
    pub(super) kernel: String,
    /// The kernel as extracted from `kernel`.
    pub(super) found: Kernel,
    /// Use only the kernel's own definition out of `kernel` (a bare, unfenced answer).
    pub(super) bare: bool,
    /// Code for the launching function, if given apart.
    pub(super) launch: Vec<String>,
    /// A block tagged `launch` was given.
    pub(super) launch_tagged: bool,
    pub(super) summary: String,
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

pub(super) fn read_answer(reply: &str, parent: &Kernel) -> Result<Answer, RewriteError> {
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
