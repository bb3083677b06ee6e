//! Code actions and the declaration diagnostics they fix. Verify is a quick fix where
//! the forecast is unsure (a plain action otherwise, none for the same kernel: there is
//! nothing to measure); Set baseline is a `source` action; a kernel that Verify could
//! not build a job for because it declares nothing gets a quick fix that inserts a
//! filled-in `kforecast:` declaration.

use super::document::Document;
use super::position::Encoding;
use super::to_proto::range;
use kforecast_core::analysis::Status as Compared;
use kforecast_core::kernel::Kernel;
use kforecast_core::measure::template::{template, Template};
use serde_json::json;
use std::collections::HashMap;
use tower_lsp::lsp_types::*;

/// The diagnostic code of a kernel with no declaration (the quick fix's target).
pub const MISSING_DECLARATION: &str = "missing-declaration";

/// A kernel's declaration template, when it has no declaration.
fn missing(doc: &Document, name: &str) -> Option<Template> {
    let (kernel, _) = doc.current.iter().find(|(k, _)| k.name == name)?;
    template(kernel, &doc.src.slice(0, doc.src.len_bytes()))
}

fn kernel<'a>(doc: &'a Document, name: &str) -> Option<&'a Kernel> {
    doc.current.iter().map(|(k, _)| k).find(|k| k.name == name)
}

/// What Verify found wrong with the declarations, as Warnings: the file compiles, only
/// measuring it needs more. A kernel that declares nothing gets one diagnostic (with a
/// quick fix); a declaration with mistakes, one per mistake, where it is.
pub fn declaration_diagnostics(doc: &Document, enc: Encoding) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for (name, errors) in &doc.spec_errors {
        let fallback = kernel(doc, name).map(|k| k.name_range);
        let warning = |r: kforecast_core::kernel::TextRange, code: &str, message: String| Diagnostic {
            range: range(doc, r.start, r.end, enc),
            severity: Some(DiagnosticSeverity::WARNING),
            code: Some(NumberOrString::String(code.to_string())),
            source: Some("kforecast".to_string()),
            message,
            ..Diagnostic::default()
        };
        if let (Some(at), Some(_)) = (fallback, missing(doc, name)) {
            let first = errors.first().map(|e| e.message.as_str()).unwrap_or("");
            let more = match errors.len() {
                0 | 1 => String::new(),
                n => format!(" (and {} more)", n - 1),
            };
            out.push(warning(
                at,
                MISSING_DECLARATION,
                format!(
                    "cannot verify `{name}` on the GPU: it has no `kforecast:` declaration of its sizes ({first}{more}); \
                     the quick fix inserts one to fill in"
                ),
            ));
            continue;
        }
        for e in errors {
            let r = if e.range.is_empty() { fallback.unwrap_or(e.range) } else { e.range };
            out.push(warning(r, "declaration", format!("cannot verify `{name}` on the GPU: {}", e.message)));
        }
    }
    out
}

/// The actions for the kernels under `at`.
pub fn code_actions(doc: &Document, uri: &Url, at: Range, enc: Encoding, threshold: f64) -> Vec<CodeActionOrCommand> {
    let mut out = Vec::new();
    for r in &doc.reports {
        let kr = range(doc, r.range.start, r.range.end, enc);
        if kr.end < at.start || kr.start > at.end {
            continue;
        }
        if let Some(fix) = declaration_fix(doc, uri, &r.name, enc) {
            out.push(CodeActionOrCommand::CodeAction(fix));
        }
        let Compared::Changed(f) = &r.status else { continue };
        let arg = json!({"uri": uri, "kernel": r.name});
        if !f.identical {
            let unsure = f.defer(threshold);
            let title = if unsure {
                format!("Verify `{}` on GPU (forecast unsure)", r.name)
            } else {
                format!("Verify `{}` on GPU", r.name)
            };
            out.push(CodeActionOrCommand::CodeAction(CodeAction {
                title: title.clone(),
                kind: Some(if unsure { CodeActionKind::QUICKFIX } else { CodeActionKind::EMPTY }),
                command: Some(Command::new(title, "kforecast.verify".to_string(), Some(vec![arg.clone()]))),
                is_preferred: Some(unsure),
                ..CodeAction::default()
            }));
        }
        let title = format!("Set `{}` as baseline", r.name);
        out.push(CodeActionOrCommand::CodeAction(CodeAction {
            title: title.clone(),
            kind: Some(CodeActionKind::SOURCE),
            command: Some(Command::new(title, "kforecast.setBaseline".to_string(), Some(vec![arg]))),
            ..CodeAction::default()
        }));
    }
    out
}

/// "Insert a `kforecast:` declaration", for a kernel Verify could not build a job for
/// because it declares nothing.
fn declaration_fix(doc: &Document, uri: &Url, name: &str, enc: Encoding) -> Option<CodeAction> {
    doc.spec_errors.get(name)?;
    let t = missing(doc, name)?;
    let at = range(doc, t.offset, t.offset, enc);
    let diagnostics: Vec<Diagnostic> = declaration_diagnostics(doc, enc)
        .into_iter()
        .filter(|d| d.code == Some(NumberOrString::String(MISSING_DECLARATION.to_string())))
        .filter(|d| d.message.contains(&format!("`{name}`")))
        .collect();
    Some(CodeAction {
        title: format!("Insert a `kforecast:` declaration for `{name}`"),
        kind: Some(CodeActionKind::QUICKFIX),
        diagnostics: Some(diagnostics),
        edit: Some(WorkspaceEdit {
            changes: Some(HashMap::from([(uri.clone(), vec![TextEdit::new(at, t.text)])])),
            ..WorkspaceEdit::default()
        }),
        is_preferred: Some(true),
        ..CodeAction::default()
    })
}
