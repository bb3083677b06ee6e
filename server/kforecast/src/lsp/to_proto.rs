//! Reports → LSP inlay hints, code lenses, hovers and diagnostics.

use super::document::Document;
use super::position::{to_position, Encoding};
use kforecast_core::analysis::{KernelReport, Status};
use kforecast_core::bins::{NAMES, NUM_BINS, RANGES};
use kforecast_core::forecast::Forecast;
use serde_json::json;
use tower_lsp::lsp_types::*;

fn range(doc: &Document, start: usize, end: usize, enc: Encoding) -> Range {
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
            Some(InlayHint {
                position: pos,
                label: InlayHintLabel::String(hint_label(f, threshold, r.stale)),
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
            Status::Changed(f) => {
                let conf = if f.defer(threshold) { "unsure" } else { "confident" };
                format!(
                    "kforecast: {} than {} · {:.0}% {conf}",
                    f.headline().replace(" (same kernel)", ""),
                    doc.baseline.label,
                    f.confidence * 100.0
                )
            }
            Status::New => format!("kforecast: new kernel (not in {})", doc.baseline.label),
            Status::Unchanged => continue,
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
        Status::Changed(f) => forecast_markdown(r, f, &doc.baseline.label, threshold, device),
        Status::New => format!("**kforecast** · `{}` is new: it is not in {}.", r.name, doc.baseline.label),
        Status::Unchanged => format!("**kforecast** · `{}` is unchanged since {}.", r.name, doc.baseline.label),
    };
    Some(Hover {
        contents: HoverContents::Markup(MarkupContent { kind: MarkupKind::Markdown, value: text }),
        range: Some(range(doc, r.name_range.start, r.name_range.end, enc)),
    })
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
    doc.reports
        .iter()
        .filter_map(|r| {
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
        })
        .collect()
}
