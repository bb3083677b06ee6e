//! Reports → LSP inlay hints, code lenses, hovers and diagnostics.

use super::document::Document;
use super::position::{to_position, Encoding};
use kforecast_core::analysis::{KernelReport, Status as Compared};
use kforecast_core::bins::{NAMES, NUM_BINS, RANGES};
use kforecast_core::forecast::Forecast;
use kforecast_core::measure::protocol::{Measurement, Status};
use serde_json::json;
use tower_lsp::lsp_types::*;

/// The LSP range of a byte range of the document.
pub(super) fn range(doc: &Document, start: usize, end: usize, enc: Encoding) -> Range {
    Range::new(to_position(doc.src.rope(), start, enc), to_position(doc.src.rope(), end, enc))
}

/// `≈1.8× faster · 82%`, with `· unsure` when deferred and `(last good)` when stale.
pub fn hint_label(f: &Forecast, threshold: f64, stale: bool) -> String {
    let mut label = format!("{} · {:.0}%", f.headline(), f.confidence * 100.0);
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
            let pos = to_position(doc.src.rope(), r.signature_end, enc);
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
                    "kforecast: `{}` vs {}\n{}",
                    r.name,
                    doc.baseline.label,
                    f.reasons.join("\n")
                ))),
                padding_left: Some(true),
                padding_right: None,
                data: None,
            })
        })
        .collect()
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
            Compared::Changed(f) => {
                let conf = if f.defer(threshold) { "unsure" } else { "confident" };
                format!(
                    "kforecast: {} than {} · {:.0}% {conf}",
                    f.headline().replace(" (same kernel)", ""),
                    doc.baseline.label,
                    f.confidence * 100.0
                )
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
    s += &format!(
        "**{}** · confidence {:.0}% · P(faster) {:.0}% · point forecast S = {:.2}\n\n",
        f.headline(),
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
    s += "| S = t_before / t_after | | probability |\n|---|---|---|\n";
    for i in (0..NUM_BINS).rev() {
        let p = f.bins.0[i];
        let bar = "█".repeat((p * 20.0).round() as usize);
        s += &format!("| {} | {} | {:.0}% {bar} |\n", RANGES[i], NAMES[i], p * 100.0);
    }
    s += "\n**Why**\n\n";
    for reason in &f.reasons {
        s += &format!("- {reason}\n");
    }
    s += &format!("\n_forecaster {} · device {device}_", f.forecaster);
    s
}

pub fn diagnostics(doc: &Document, enc: Encoding, threshold: f64) -> Vec<Diagnostic> {
    let mut out: Vec<Diagnostic> = Vec::new();
    for (name, errors) in &doc.spec_errors {
        let fallback = doc.reports.iter().find(|r| &r.name == name).map(|r| r.name_range);
        for e in errors {
            let r = if e.range.is_empty() { fallback.unwrap_or(e.range) } else { e.range };
            out.push(Diagnostic {
                range: range(doc, r.start, r.end, enc),
                // A value the file leaves open is a warning: the code itself may be right.
                severity: Some(if e.missing { DiagnosticSeverity::WARNING } else { DiagnosticSeverity::ERROR }),
                code: Some(NumberOrString::String("declaration".to_string())),
                source: Some("kforecast".to_string()),
                message: format!("cannot verify `{name}` on the GPU: {}", e.message),
                ..Diagnostic::default()
            });
        }
    }
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
                "`{}` is forecast {} than {} (confidence {:.0}%){why}",
                r.name,
                f.headline(),
                doc.baseline.label,
                f.confidence * 100.0
            ),
            ..Diagnostic::default()
        })
    }));
    out
}

/// "Verify on GPU" (a quick fix where the forecast is unsure) and "Set as baseline" for
/// the kernels under `at`.
pub fn code_actions(doc: &Document, uri: &Url, at: Range, enc: Encoding, threshold: f64) -> Vec<CodeActionOrCommand> {
    let mut out = Vec::new();
    for r in &doc.reports {
        let kr = range(doc, r.range.start, r.range.end, enc);
        if kr.end < at.start || kr.start > at.end {
            continue;
        }
        let arg = json!({"uri": uri, "kernel": r.name});
        let unsure = r.forecast().is_some_and(|f| f.defer(threshold));
        if matches!(r.status, Compared::Changed(_)) {
            let title = if unsure {
                format!("Verify `{}` on GPU (forecast unsure)", r.name)
            } else {
                format!("Verify `{}` on GPU", r.name)
            };
            out.push(CodeActionOrCommand::CodeAction(CodeAction {
                title: title.clone(),
                kind: Some(if unsure { CodeActionKind::QUICKFIX } else { CodeActionKind::REFACTOR }),
                command: Some(Command::new(title, "kforecast.verify".to_string(), Some(vec![arg.clone()]))),
                is_preferred: Some(unsure),
                ..CodeAction::default()
            }));
            let title = format!("Set `{}` as baseline", r.name);
            out.push(CodeActionOrCommand::CodeAction(CodeAction {
                title: title.clone(),
                kind: Some(CodeActionKind::REFACTOR),
                command: Some(Command::new(title, "kforecast.setBaseline".to_string(), Some(vec![arg]))),
                ..CodeAction::default()
            }));
        }
    }
    out
}
