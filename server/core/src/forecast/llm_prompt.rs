//! The LLM surrogate's prompt and the parsing of its answer: pure functions, no network.
//!
//! The prompt carries both kernel versions (with the helpers they use and how they are
//! launched), the problem sizes declared in their `kforecast:` lines and the hardware;
//! the answer is a JSON probability over the 8 bins, found wherever it is in the reply
//! (code fences, surrounding prose), validated and renormalised.

use crate::bins::{BinProbs, EDGES, NAMES, NUM_BINS, RANGES};
use crate::hash::{ContentHash, Hasher};
use crate::kernel::{Helper, HelperKind, Kernel, Language, LaunchSite};
use crate::measure::spec;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// Version of the prompt and answer format; part of every cache key.
pub const PROMPT_VERSION: &str = "p1";

/// The longest kernel text (definition and helpers) put into a prompt, in bytes.
pub const MAX_SOURCE_BYTES: usize = 24_000;

/// One chat message (OpenAI chat-completions format).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChatMessage {
    pub role: String,
    pub content: String,
}

impl ChatMessage {
    pub fn system(content: impl Into<String>) -> Self {
        Self { role: "system".to_string(), content: content.into() }
    }

    pub fn user(content: impl Into<String>) -> Self {
        Self { role: "user".to_string(), content: content.into() }
    }
}

/// What the prompt says about the GPU.
#[derive(Clone, Debug, PartialEq)]
pub struct Hardware {
    pub name: String,
    /// Key rates in words, empty for a device kforecast has no figures for.
    pub rates: String,
}

impl Hardware {
    /// The device's name and, for GPUs kforecast knows, its key rates.
    pub fn for_device(device: &str) -> Self {
        let lower = device.to_ascii_lowercase();
        let rates = if lower.contains("h100") {
            "compute capability 9.0, 132 SMs, about 3.0 TB/s HBM3, 50 MB L2, 228 KB shared memory per SM, \
             about 67 TFLOP/s fp32 and 800 TFLOP/s dense bf16 on tensor cores"
        } else if lower.contains("h200") {
            "compute capability 9.0, 132 SMs, about 4.8 TB/s HBM3e, 50 MB L2, 228 KB shared memory per SM, \
             about 67 TFLOP/s fp32 and 990 TFLOP/s dense bf16 on tensor cores"
        } else if lower.contains("a100") {
            "compute capability 8.0, 108 SMs, about 2.0 TB/s HBM2e, 40 MB L2, 164 KB shared memory per SM, \
             about 19.5 TFLOP/s fp32 and 312 TFLOP/s dense bf16 on tensor cores"
        } else {
            ""
        };
        Self { name: device.trim().to_string(), rates: rates.to_string() }
    }

    /// `NVIDIA H100 (compute capability 9.0, 132 SMs, …)`.
    pub fn describe(&self) -> String {
        if self.rates.is_empty() {
            self.name.clone()
        } else {
            format!("{} ({})", self.name, self.rates)
        }
    }
}

/// Everything the prompt needs about one (base, candidate) pair, owned so that it can
/// travel to another thread.
#[derive(Clone, Debug, PartialEq)]
pub struct PairContext {
    pub base: Kernel,
    pub candidate: Kernel,
    /// The `kforecast:` declarations above each version (`n = 1 << 24; x: f32[n]`), or empty.
    pub base_sizes: String,
    pub candidate_sizes: String,
    pub device: String,
}

/// The declaration items above `kernel` in its file, as one line.
pub fn declared_sizes(file_text: &str, kernel: &Kernel) -> String {
    spec::items(file_text, kernel)
        .iter()
        .map(|i| {
            let sep = if i.typed { ": " } else { " = " };
            if i.value.is_empty() {
                i.key.clone()
            } else {
                format!("{}{sep}{}", i.key, i.value)
            }
        })
        .collect::<Vec<_>>()
        .join("; ")
}

impl PairContext {
    /// The pair's context; the file texts are where each version's declarations are read.
    pub fn new(base: &Kernel, base_text: &str, candidate: &Kernel, candidate_text: &str, device: &str) -> Self {
        Self {
            base: base.clone(),
            candidate: candidate.clone(),
            base_sizes: declared_sizes(base_text, base),
            candidate_sizes: declared_sizes(candidate_text, candidate),
            device: device.to_string(),
        }
    }

    /// Content hash of what the answer depends on: the forecaster (model and prompt
    /// version), both versions' identities, their declared sizes and the device.
    pub fn key(&self, forecaster: &str) -> ContentHash {
        Hasher::new()
            .str("llm-forecast")
            .str(PROMPT_VERSION)
            .str(forecaster)
            .hash(&self.base.identity())
            .hash(&self.candidate.identity())
            .str(&self.base_sizes)
            .str(&self.candidate_sizes)
            .str(&self.device)
            .finish()
    }
}

/// The instructions: the target, the bins and the answer format.
pub fn system_prompt() -> String {
    let mut s = String::from(
        "You are an expert GPU performance engineer. You forecast how an edit changes the running \
         time of a GPU kernel. The speedup is S = t_base / t_candidate: S > 1 means the candidate \
         is faster. Give a probability for each of these 8 bins of S, slowest first:\n",
    );
    for (i, name) in NAMES.iter().enumerate() {
        s += &format!("{}. S {} ({name})\n", i + 1, bin_condition(i));
    }
    s += "\nReply with only a JSON object, no other text:\n\
          {\"bins\": [p1, p2, p3, p4, p5, p6, p7, p8], \"why\": \"<one short sentence>\"}\n\
          The 8 probabilities are numbers from 0 to 1, slowest bin first, summing to 1. \
          Spread probability over neighbouring bins when unsure. Judge speed only, as if both \
          versions compute the right result.";
    s
}

/// The bin's range of S, its edges to three decimals (`in (0.707, 1]`).
fn bin_condition(i: usize) -> String {
    let edge = |j: usize| (EDGES[j] * 1000.0).round() / 1000.0;
    match i {
        0 => format!("≤ {}", edge(0)),
        i if i == NUM_BINS - 1 => format!("> {}", edge(NUM_BINS - 2)),
        i => format!("in ({}, {}]", edge(i - 1), edge(i)),
    }
}

/// Cuts `text` to at most `max` bytes at a character boundary, saying so.
pub fn bounded(text: &str, max: usize) -> String {
    if text.len() <= max {
        return text.to_string();
    }
    let mut end = max;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}\n… ({} more bytes left out)", &text[..end], text.len() - end)
}

/// The code fence's language tag for a kernel's source.
pub fn fence(language: Language) -> &'static str {
    match language {
        Language::Cuda => "cuda",
        Language::Triton => "python",
    }
}

/// The helpers a kernel uses, as they read in the file (a `#define` with its name, not
/// only its value).
pub fn helpers_source(k: &Kernel) -> String {
    let line = |h: &Helper| match (h.kind, k.language) {
        (HelperKind::Define, _) => format!("#define {} {}", h.name, h.text),
        (HelperKind::Constant, Language::Triton) if !h.text.contains('=') => format!("{} = {}", h.name, h.text),
        _ => h.text.clone(),
    };
    k.helpers.iter().map(line).collect::<Vec<_>>().join("\n")
}

fn version_block(title: &str, k: &Kernel, sizes: &str) -> String {
    let fence = fence(k.language);
    let helpers = helpers_source(k);
    let code = if helpers.is_empty() { k.source.to_string() } else { format!("{helpers}\n\n{}", k.source) };
    let mut s = format!("## {title}\n\n");
    s += &format!(
        "Problem sizes (`kforecast:` declarations): {}\n\n",
        if sizes.is_empty() { "none declared" } else { sizes }
    );
    s += &format!("```{fence}\n{}\n```\n", bounded(&code, MAX_SOURCE_BYTES));
    for l in &k.launches {
        if let Some(line) = launched_with(l, true) {
            s += &line;
        }
    }
    for config in &k.autotune {
        let c: Vec<String> = config.iter().map(|(k, v)| format!("{k}={v}")).collect();
        s += &format!("Autotune config: {}\n", c.join(", "));
    }
    s
}

/// The chat messages for one pair: the instructions, then the hardware and both versions.
pub fn messages(ctx: &PairContext) -> Vec<ChatMessage> {
    let hw = Hardware::for_device(&ctx.device);
    let mut user = format!(
        "GPU: {}\nLanguage: {}\nKernel: `{}`\n\n",
        hw.describe(),
        ctx.candidate.language.name(),
        ctx.candidate.name
    );
    user += &version_block("Base version", &ctx.base, &ctx.base_sizes);
    user += "\n";
    user += &version_block("Candidate version", &ctx.candidate, &ctx.candidate_sizes);
    user += "\nForecast S = t_base / t_candidate on this GPU as the JSON object described.";
    vec![ChatMessage::system(system_prompt()), ChatMessage::user(user)]
}

/// A parsed answer.
#[derive(Clone, Debug, PartialEq)]
pub struct LlmAnswer {
    /// Renormalised to sum to one.
    pub bins: BinProbs,
    /// The model's one-line reason, if it gave one (at most 240 characters).
    pub why: Option<String>,
}

/// Why an answer could not be used.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum ReplyError {
    #[error("the reply is empty")]
    Empty,
    #[error("no JSON with 8 bin probabilities in the reply")]
    NoJson,
    #[error("expected 8 bin probabilities, got {0}")]
    WrongCount(usize),
    #[error("bin {bin} ({range}) is not a number: {value}")]
    NotNumber { bin: usize, range: &'static str, value: String },
    #[error("bin {bin} ({range}) is not finite")]
    NotFinite { bin: usize, range: &'static str },
    #[error("bin {bin} ({range}) is negative: {value}")]
    Negative { bin: usize, range: &'static str, value: f64 },
    #[error("all bin probabilities are zero")]
    AllZero,
    #[error("bin {bin} ({range}) is missing from the answer")]
    MissingBin { bin: usize, range: &'static str },
    #[error("`{0}` is not one of the 8 bins")]
    UnknownBin(String),
}

impl ReplyError {
    /// Errors about a JSON value that is not an answer at all, as opposed to a wrong answer.
    fn is_shape(&self) -> bool {
        matches!(self, ReplyError::NoJson)
    }
}

/// Parses a model's reply: the first JSON value in it (the whole text, a code fence, or
/// an object or array within prose) that holds 8 bin probabilities, as
/// `{"bins": [8 numbers]}`, `{"bins": {label: p, …}}`, a map keyed by bin labels
/// (`"≤0.25×"`, `"0.25-0.5"`, `"severe slowdown"`, `"1"`…`"8"`, `"bin1"`) or a bare array.
/// Probabilities (or percentages) are renormalised; NaN, negative, missing or extra
/// bins, or all zeros are errors.
pub fn parse_reply(text: &str) -> Result<LlmAnswer, ReplyError> {
    if text.trim().is_empty() {
        return Err(ReplyError::Empty);
    }
    let mut first_error: Option<ReplyError> = None;
    for candidate in json_candidates(text) {
        let Ok(value) = serde_json::from_str::<Value>(candidate) else { continue };
        match answer_of(&value) {
            Ok(a) => return Ok(a),
            Err(e) if e.is_shape() => {}
            Err(e) => {
                first_error.get_or_insert(e);
            }
        }
    }
    Err(first_error.unwrap_or(ReplyError::NoJson))
}

/// Places in `text` that may hold the JSON answer, most likely first: the whole text,
/// the inside of each code fence, then each balanced `{…}` or `[…]`.
fn json_candidates(text: &str) -> Vec<&str> {
    let mut out = vec![text.trim()];
    let mut rest = text;
    while let Some(start) = rest.find("```") {
        let after = &rest[start + 3..];
        let body_start = after.find('\n').map(|i| i + 1).unwrap_or(0);
        let Some(end) = after[body_start..].find("```") else {
            out.push(after[body_start..].trim());
            break;
        };
        out.push(after[body_start..body_start + end].trim());
        rest = &after[body_start + end + 3..];
    }
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if matches!(bytes[i], b'{' | b'[') {
            if let Some(end) = balanced_end(text, i) {
                out.push(&text[i..end]);
                i = end;
                continue;
            }
        }
        i += 1;
    }
    out
}

/// End (exclusive) of the bracketed value starting at `start`, skipping strings.
fn balanced_end(text: &str, start: usize) -> Option<usize> {
    let mut depth = 0usize;
    let mut in_string = false;
    let mut escaped = false;
    for (i, c) in text[start..].char_indices() {
        if in_string {
            match c {
                _ if escaped => escaped = false,
                '\\' => escaped = true,
                '"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match c {
            '"' => in_string = true,
            '{' | '[' => depth += 1,
            '}' | ']' => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    return Some(start + i + c.len_utf8());
                }
            }
            _ => {}
        }
    }
    None
}

const BINS_KEYS: [&str; 4] = ["bins", "probabilities", "probs", "distribution"];
const WHY_KEYS: [&str; 4] = ["why", "reason", "rationale", "explanation"];

fn answer_of(value: &Value) -> Result<LlmAnswer, ReplyError> {
    let (probs, why) = match value {
        Value::Array(items) => (numbers(items)?, None),
        Value::Object(map) => {
            let why = WHY_KEYS.iter().find_map(|k| map.get(*k)).and_then(Value::as_str).map(|w| one_line(w, 240));
            let probs = match BINS_KEYS.iter().find_map(|k| map.get(*k)) {
                Some(Value::Array(items)) => numbers(items)?,
                Some(Value::Object(inner)) => labelled(inner, true)?,
                Some(_) => return Err(ReplyError::NoJson),
                None => labelled(map, false)?,
            };
            (probs, why)
        }
        _ => return Err(ReplyError::NoJson),
    };
    let total: f64 = probs.iter().sum();
    if total <= 0.0 {
        return Err(ReplyError::AllZero);
    }
    Ok(LlmAnswer { bins: BinProbs(probs).normalized(), why })
}

/// `s` on one line (runs of whitespace as one space), cut to `max` characters with `…`.
pub fn one_line(s: &str, max: usize) -> String {
    let line = s.split_whitespace().collect::<Vec<_>>().join(" ");
    match line.char_indices().nth(max) {
        Some((end, _)) => format!("{}…", &line[..end]),
        None => line,
    }
}

fn numbers(items: &[Value]) -> Result<[f64; NUM_BINS], ReplyError> {
    if items.len() != NUM_BINS {
        return Err(ReplyError::WrongCount(items.len()));
    }
    let mut out = [0.0; NUM_BINS];
    for (i, v) in items.iter().enumerate() {
        out[i] = probability(i, v)?;
    }
    Ok(out)
}

/// A map keyed by bin labels. Under `"bins"` (`strict`) every key must be a bin; in a
/// top-level map other keys (`why`, `confidence`, …) are ignored.
fn labelled(map: &serde_json::Map<String, Value>, strict: bool) -> Result<[f64; NUM_BINS], ReplyError> {
    let mut found: [Option<f64>; NUM_BINS] = [None; NUM_BINS];
    let mut unknown = None;
    for (key, v) in map {
        match bin_of_label(key) {
            Some(i) => found[i] = Some(probability(i, v)?),
            None if !strict || WHY_KEYS.contains(&key.as_str()) => {}
            None => {
                unknown.get_or_insert_with(|| key.clone());
            }
        }
    }
    if found.iter().all(Option::is_none) {
        return Err(ReplyError::NoJson);
    }
    if let Some(key) = unknown {
        return Err(ReplyError::UnknownBin(key));
    }
    let mut out = [0.0; NUM_BINS];
    for (i, p) in found.iter().enumerate() {
        out[i] = p.ok_or(ReplyError::MissingBin { bin: i + 1, range: RANGES[i] })?;
    }
    Ok(out)
}

fn probability(i: usize, v: &Value) -> Result<f64, ReplyError> {
    let (bin, range) = (i + 1, RANGES[i]);
    let p = match v {
        Value::Number(n) => n.as_f64(),
        Value::String(s) => s.trim().trim_end_matches('%').trim().parse::<f64>().ok(),
        _ => None,
    };
    let Some(p) = p else {
        let mut value = v.to_string();
        value.truncate(40);
        return Err(ReplyError::NotNumber { bin, range, value });
    };
    if !p.is_finite() {
        return Err(ReplyError::NotFinite { bin, range });
    }
    if p < 0.0 {
        return Err(ReplyError::Negative { bin, range, value: p });
    }
    Ok(p)
}

/// Index of the bin a label names, if it names one.
fn bin_of_label(label: &str) -> Option<usize> {
    let lower = label.trim().to_lowercase().replace(['_', '-'], " ");
    if let Some(i) = NAMES.iter().position(|n| *n == lower) {
        return Some(i);
    }
    let digits = lower.trim_start_matches("bin").trim();
    if let Ok(n) = digits.parse::<usize>() {
        return (1..=NUM_BINS).contains(&n).then(|| n - 1);
    }
    let canon = canonical_range(label);
    let aliases: [&[&str]; NUM_BINS] = [
        &["≤0.25", "<0.25"],
        &["0.25-0.5", "0.25<s≤0.5"],
        &["0.5-0.71", "0.5-0.707", "0.5<s≤0.707", "0.5<s≤0.71"],
        &["0.71-1", "0.707-1", "0.71-1.0", "0.707-1.0", "0.707<s≤1", "0.707<s≤1.0"],
        &["1-1.41", "1-1.414", "1.0-1.41", "1.0-1.414", "1<s≤1.414", "1.0<s≤1.414"],
        &["1.41-2", "1.414-2", "1.41-2.0", "1.414-2.0", "1.414<s≤2", "1.414<s≤2.0"],
        &["2-4", "2.0-4.0", "2<s≤4", "2.0<s≤4.0"],
        &[">4", ">4.0", "≥4", "s>4"],
    ];
    aliases.iter().position(|list| list.iter().any(|a| canonical_range(a) == canon))
}

/// A range label without spaces, `×`/`x`, with `<=` as `≤` and dashes as `-`.
fn canonical_range(label: &str) -> String {
    label
        .to_lowercase()
        .replace("<=", "≤")
        .replace(">=", "≥")
        .replace(['–', '—'], "-")
        .chars()
        .filter(|c| !c.is_whitespace() && !matches!(c, '×' | 'x' | '(' | ')' | '[' | ']'))
        .collect()
}

/// "Launched with: grid …, block …, META=…" for a launch (and its locals when asked), or
/// None when nothing about it is known.
pub fn launched_with(l: &LaunchSite, locals: bool) -> Option<String> {
    let mut parts = Vec::new();
    for (name, value) in [("grid", &l.grid), ("block", &l.block), ("shared memory", &l.shared_mem)] {
        if let Some(v) = value {
            parts.push(format!("{name} {v}"));
        }
    }
    parts.extend(l.meta.iter().map(|(k, v)| format!("{k}={v}")));
    if locals {
        parts.extend(l.locals.iter().map(|(k, v)| format!("{k} = {v}")));
    }
    (!parts.is_empty()).then(|| format!("Launched with: {}\n", bounded(&parts.join(", "), 2_000)))
}

#[cfg(test)]
mod tests;
