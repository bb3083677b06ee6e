//! Reports → LSP inlay hints, code lenses, hovers and diagnostics. The words are
//! in `wording.rs`; code actions in `actions.rs`.

use super::document::Document;
use super::position::{to_position, Encoding};
use super::wording::{bin_table, confidence_line, hint_text};
use kforecast_core::analysis::{KernelReport, Status as Compared};
use kforecast_core::forecast::Forecast;
use kforecast_core::measure::protocol::{Measurement, Status};
use serde_json::json;
use tower_lsp::lsp_types::*;

pub use super::actions::code_actions;

/// The LSP range of a byte range of the document.
pub(super) fn range(doc: &Document, start: usize, end: usize, enc: Encoding) -> Range {
    Range::new(to_position(doc.src.rope(), start, enc), to_position(doc.src.rope(), end, enc))
}

/// `≈1.8× faster · 82%`, `same speed · 74%`, `same kernel`, with `· unsure` when
/// deferred and `(last good)` when stale.
pub fn hint_label(f: &Forecast, threshold: f64, stale: bool) -> String {
    let mut label = hint_text(f);
    if f.defer(threshold) {
        label.push_str(" · unsure");
    }
    if stale {
        label.push_str(" (last good)");
    }
    label
}

pub fn inlay_hints(doc: &Document, visible: Range, enc: Encoding, threshold: f64) -> Vec<InlayHint> {
    doc.reports
        .iter()
        .filter_map(|r| {
            let f = r.forecast()?;
            let pos = to_position(doc.src.rope(), hint_offset(doc, r.signature_end), enc);
            if pos < visible.start || pos > visible.end {
                return None;
            }
            // A measurement replaces the forecast; a failed one leaves it (details in the hover).
            let label = match doc.verified(r) {
                Some(m) if matches!(m.status, Status::Ok | Status::WrongResult) => m.headline(),
                _ if doc.verifying(r) => format!("{} · measuring on GPU…", hint_label(f, threshold, r.stale)),
                _ => hint_label(f, threshold, r.stale),
            };
            Some(InlayHint {
                position: pos,
                label: InlayHintLabel::String(label),
                kind: None,
                text_edits: None,
                tooltip: Some(InlayHintTooltip::String(format!(
                    "kforecast: `{}` {}\n{}\n{}",
                    r.name,
                    f.versus(&doc.baseline.label),
                    confidence_line(f, &doc.baseline.label),
                    f.reasons.join("\n")
                ))),
                padding_left: Some(true),
                padding_right: None,
                data: None,
            })
        })
        .collect()
}

/// Where a kernel's hint goes: at the end of the line that opens its body (the `{` or
/// the `:` after the signature, or the rest of a one-line kernel), so it never sits
/// between two pieces of code; without an opener in sight, at the end of the
/// signature's line.
pub fn hint_offset(doc: &Document, signature_end: usize) -> usize {
    let len = doc.src.len_bytes();
    let end = doc.src.snap(signature_end);
    let ahead = doc.src.slice(end, (end + 512).min(len));
    // A Python file's kernel opens with `:`, or with `{` when it is CUDA inside a string.
    let python = doc.language == kforecast_core::kernel::Language::Triton;
    let opens = |c: char| c == '{' || python && c == ':';
    let mut depth = 0i32;
    let mut at = None;
    for (i, c) in ahead.char_indices() {
        match c {
            '(' | '[' => depth += 1,
            ')' | ']' => depth -= 1,
            ';' if depth <= 0 && !python => break,
            c if opens(c) && depth <= 0 => {
                at = Some(i);
                break;
            }
            _ => {}
        }
    }
    let from = at.unwrap_or(0);
    let line_end = ahead[from..].find('\n').map_or(ahead.len(), |i| from + i);
    end + ahead[..line_end].trim_end().len()
}

pub fn code_lenses(doc: &Document, uri: &Url, enc: Encoding, threshold: f64) -> Vec<CodeLens> {
    let mut lenses = Vec::new();
    for r in &doc.reports {
        let at = range(doc, r.range.start, r.range.start, enc);
        let arg = json!({"uri": uri, "kernel": r.name});
        let title = match &r.status {
            Compared::Changed(_) if doc.verified(r).is_some_and(|m| m.status == Status::Ok) => {
                format!(
                    "kforecast: {} than {}",
                    doc.verified(r).map(|m| m.headline()).unwrap_or_default(),
                    doc.baseline.label
                )
            }
            // The hint's own words, with what it is compared against.
            Compared::Changed(f) => {
                format!("kforecast: {} vs {}", hint_label(f, threshold, r.stale), doc.baseline.label)
            }
            Compared::New => format!("kforecast: new kernel (not in {})", doc.baseline.label),
            Compared::Unchanged => continue,
        };
        lenses.push(CodeLens {
            range: at,
            command: Some(Command::new(title, "kforecast.showForecast".to_string(), Some(vec![arg.clone()]))),
            data: None,
        });
        lenses.push(CodeLens {
            range: at,
            command: Some(Command::new(
                "set as baseline".to_string(),
                "kforecast.setBaseline".to_string(),
                Some(vec![arg]),
            )),
            data: None,
        });
    }
    lenses
}

/// Markdown hover for the kernel whose signature holds `offset`.
pub fn hover(doc: &Document, offset: usize, enc: Encoding, threshold: f64, device: &str) -> Option<Hover> {
    let r = doc.reports.iter().find(|r| r.range.start <= offset && offset <= r.signature_end.max(r.name_range.end))?;
    let text = match &r.status {
        Compared::Changed(f) => {
            let mut md = String::new();
            if let Some(m) = doc.verified(r) {
                md += &measurement_markdown(m);
            }
            md += &forecast_markdown(r, f, &doc.baseline.label, threshold, device);
            if doc.llm.pending(r.pair) {
                md += "\n\n_The LLM surrogate's forecast is on its way; this one is the embedded forecaster's._";
            }
            md
        }
        Compared::New => format!("**kforecast** · `{}` is new: it is not in {}.", r.name, doc.baseline.label),
        Compared::Unchanged => format!("**kforecast** · `{}` is unchanged since {}.", r.name, doc.baseline.label),
    };
    Some(Hover {
        contents: HoverContents::Markup(MarkupContent { kind: MarkupKind::Markdown, value: text }),
        range: Some(range(doc, r.name_range.start, r.name_range.end, enc)),
    })
}

fn measurement_markdown(m: &Measurement) -> String {
    let mut s = format!("**Measured on GPU**: {}\n\n", m.headline());
    if let Some(t) = m.timing() {
        s += &format!("{t}\n\n");
    }
    if !m.message.is_empty() && m.status != Status::Ok {
        s += &format!("```\n{}\n```\n\n", m.message.lines().take(10).collect::<Vec<_>>().join("\n"));
    }
    s + "---\n\n"
}

fn forecast_markdown(r: &KernelReport, f: &Forecast, label: &str, threshold: f64, device: &str) -> String {
    let mut s = format!("**kforecast** · `{}` against {label}\n\n", r.name);
    s += &format!("{}\n\n", confidence_line(f, label));
    s += &format!(
        "**{}** · confidence {:.0}% · P(faster) {:.0}% · point forecast S = {:.2}\n\n",
        f.versus(label),
        f.confidence * 100.0,
        f.p_faster * 100.0,
        f.speedup
    );
    if r.stale {
        s += "_The kernel does not parse right now: this is the forecast of its last version that did._\n\n";
    }
    if f.defer(threshold) {
        s += &format!("_Unsure (below the {:.0}% threshold): measure it on a GPU to know._\n\n", threshold * 100.0);
    }
    s += &bin_table(f);
    s += "\n**Why**\n\n";
    for reason in &f.reasons {
        s += &format!("- {reason}\n");
    }
    s += &format!("\n_forecaster {} · {}_", f.forecaster, super::device::describe(device));
    s
}

pub fn diagnostics(doc: &Document, enc: Encoding, threshold: f64) -> Vec<Diagnostic> {
    let mut out: Vec<Diagnostic> = Vec::new();
    out.extend(super::actions::declaration_diagnostics(doc, enc));
    for r in &doc.reports {
        if let Some(m) = doc.verified(r).filter(|m| m.status == Status::WrongResult) {
            out.push(Diagnostic {
                range: range(doc, r.name_range.start, r.name_range.end, enc),
                severity: Some(DiagnosticSeverity::WARNING),
                code: Some(NumberOrString::String("wrong-result".to_string())),
                source: Some("kforecast".to_string()),
                message: format!("`{}` computes a different result than {}: {}", r.name, doc.baseline.label, m.message),
                ..Diagnostic::default()
            });
        }
    }
    out.extend(doc.reports.iter().filter_map(|r| {
        let f = r.forecast()?;
        if !f.is_regression(threshold) {
            return None;
        }
        let why = f.reasons.first().map(|w| format!(": {w}")).unwrap_or_default();
        Some(Diagnostic {
            range: range(doc, r.name_range.start, r.name_range.end, enc),
            severity: Some(DiagnosticSeverity::INFORMATION),
            code: Some(NumberOrString::String("regression".to_string())),
            source: Some("kforecast".to_string()),
            message: format!(
                "`{}` is forecast {} (confidence {:.0}%){why}",
                r.name,
                f.versus(&doc.baseline.label),
                f.confidence * 100.0
            ),
            ..Diagnostic::default()
        })
    }));
    out
}
