//! "Search faster variants of `k`": a code action on every kernel that runs the core's
//! search on a blocking task, the forecaster screening and the GPU workers measuring,
//! with cancellable `$/progress` (percentage, best measured speedup so far). When it is
//! done, "Apply: 1.9× faster (measured on H100)" replaces the kernel's knobs with the best
//! correct, measured variant, refused if the document changed since the search started.
//! Outcomes are kept by content hash in memory and in the store. With the LLM surrogate
//! on (`kforecast.llm.*`), its endpoint also proposes rewrites of the kernel
//! (`kforecast.llm.rewrites` a generation; 0: none).

use super::{lock, Backend, State, WorkProgress};
use crate::cli::search::PoolMeasurer;
use crate::cli::LoadedFile;
use crate::lsp::document::Document;
use crate::lsp::position::Encoding;
use crate::lsp::to_proto::range;
use kforecast_core::hash::ContentHash;
use kforecast_core::search::{diff, outcome_key, Original, Outcome, Progress, SearchConfig, Searcher, Stop};
use kforecast_core::store::Table;
use serde_json::{json, Value};
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use tower_lsp::jsonrpc::{Error, Result};
use tower_lsp::lsp_types::*;

pub const SEARCH: &str = "kforecast.search";
pub const APPLY: &str = "kforecast.applySearch";
pub const CANCEL: &str = "kforecast.cancelSearch";
pub const COMMANDS: [&str; 3] = [SEARCH, APPLY, CANCEL];

/// Searches by document and kernel, and finished outcomes by content hash.
#[derive(Default)]
pub struct Searches {
    by_kernel: HashMap<(Url, String), Entry>,
    memo: HashMap<ContentHash, Arc<Outcome>>,
}

enum Entry {
    Running {
        token: String,
        cancel: Arc<AtomicBool>,
    },
    /// `text`: hash of the document text the search started from.
    Done {
        text: ContentHash,
        outcome: Arc<Outcome>,
    },
}

fn text_hash(doc: &Document) -> ContentHash {
    doc.src.hash_range(0, doc.src.len_bytes())
}

/// `1.9×`, `1.06×`.
fn times(s: f64) -> String {
    if s < 1.5 {
        format!("{s:.2}×")
    } else if s < 10.0 {
        format!("{s:.1}×")
    } else {
        format!("{s:.0}×")
    }
}

fn apply_title(outcome: &Outcome) -> Option<String> {
    let best = outcome.best.as_ref()?;
    let device = best.device.as_deref().unwrap_or("GPU");
    Some(format!("Apply: {} faster (measured on {device})", times(best.speedup)))
}

/// What a finished search says, for the progress end and the message.
fn summary(o: &Outcome) -> String {
    let counts = format!(
        "{} GPU run(s){}, {} candidates considered",
        o.runs,
        if o.cache_hits > 0 { format!(" + {} stored", o.cache_hits) } else { String::new() },
        o.considered
    );
    let found = match &o.best {
        Some(b) => format!("best {} faster: {}", times(b.speedup), b.description),
        None => "no correct variant was faster".to_string(),
    };
    match o.stop {
        Stop::Cancelled => format!("cancelled; {found} ({counts})"),
        Stop::Unavailable => format!("no GPU could measure: {}", o.note),
        Stop::BaseFailed => format!("the search stopped: {}", o.note),
        _ => format!("{found} ({counts})"),
    }
}

fn command(title: String, name: &str, arg: &Value) -> Command {
    Command::new(title, name.to_string(), Some(vec![arg.clone()]))
}

/// The search actions on kernels overlapping `at`.
pub fn code_actions(st: &State, doc: &Document, uri: &Url, at: Range, enc: Encoding) -> Vec<CodeActionOrCommand> {
    let mut out = Vec::new();
    for (k, _) in &doc.current {
        let kr = range(doc, k.range.start, k.range.end, enc);
        if kr.end < at.start || kr.start > at.end {
            continue;
        }
        let arg = json!({"uri": uri, "kernel": k.name});
        let entry = st.searches.by_kernel.get(&(uri.clone(), k.name.clone()));
        let (title, name) = match entry {
            Some(Entry::Running { .. }) => (format!("Cancel the search for faster variants of `{}`", k.name), CANCEL),
            _ => (
                format!("Search faster variants of `{}` (budget: {} GPU runs)", k.name, st.settings.search_budget),
                SEARCH,
            ),
        };
        out.push(CodeActionOrCommand::CodeAction(CodeAction {
            title: title.clone(),
            kind: Some(CodeActionKind::REFACTOR_REWRITE),
            command: Some(command(title, name, &arg)),
            ..CodeAction::default()
        }));
        if let Some(Entry::Done { text, outcome }) = entry {
            if let Some(title) = apply_title(outcome) {
                let changed = *text != text_hash(doc);
                out.push(CodeActionOrCommand::CodeAction(CodeAction {
                    title: title.clone(),
                    kind: Some(CodeActionKind::REFACTOR_REWRITE),
                    command: Some(command(title, APPLY, &arg)),
                    is_preferred: Some(!changed),
                    disabled: changed.then(|| CodeActionDisabled {
                        reason: "the document changed since the search; search again".to_string(),
                    }),
                    ..CodeAction::default()
                }));
            }
        }
    }
    out
}

impl Backend {
    /// `kforecast.search`, `kforecast.applySearch` and `kforecast.cancelSearch`.
    pub(super) async fn search_command(&self, name: &str, uri: Url, kernel: String) -> Result<Option<Value>> {
        let result = match name {
            SEARCH => self.start_search(uri, kernel).await,
            APPLY => self.apply_search(uri, kernel).await,
            _ => {
                let st = self.state();
                match st.searches.by_kernel.get(&(uri, kernel.clone())) {
                    Some(Entry::Running { cancel, .. }) => {
                        cancel.store(true, Ordering::SeqCst);
                        Ok(json!({"cancelled": true}))
                    }
                    _ => Err(format!("no search of `{kernel}` is running")),
                }
            }
        };
        match result {
            Ok(v) => Ok(Some(v)),
            Err(message) => {
                tracing::warn!("{message}");
                self.client.show_message(MessageType::WARNING, format!("kforecast: {message}")).await;
                Err(Error::invalid_params(message))
            }
        }
    }

    /// `window/workDoneProgress/cancel`: the user cancelled a search from the progress UI.
    pub async fn cancel_progress(&self, params: WorkDoneProgressCancelParams) {
        let NumberOrString::String(token) = params.token else { return };
        let st = self.state();
        for entry in st.searches.by_kernel.values() {
            if let Entry::Running { token: t, cancel } = entry {
                if *t == token {
                    cancel.store(true, Ordering::SeqCst);
                }
            }
        }
    }

    async fn start_search(&self, uri: Url, kernel: String) -> std::result::Result<Value, String> {
        let prepared = {
            let mut st = self.state();
            let key = (uri.clone(), kernel.clone());
            if matches!(st.searches.by_kernel.get(&key), Some(Entry::Running { .. })) {
                return Ok(json!({"started": false, "running": true}));
            }
            let Some(doc) = st.docs.get(&uri) else { return Err(format!("{uri} is not open")) };
            if let Some(why) = &doc.disabled {
                return Err(why.clone());
            }
            let (_, (path, text, kernels)) = doc.sides();
            let original =
                Original::new(&text, doc.language, &kernel).map_err(|e| format!("cannot search `{kernel}`: {e}"))?;
            let hash = text_hash(doc);
            let config =
                SearchConfig { budget: st.settings.search_budget, seed: st.settings.search_seed, surrogate: true };
            let forecaster = st.analyzer.forecaster_arc();
            let workers: Vec<String> = st.settings.gpu_workers.iter().map(|w| w.url.clone()).collect();
            // The LLM rewrites, when the server's LLM surrogate is on: part of what the outcome depends on.
            let llm = st.llm.as_ref().and(crate::llm::rewrite::active(Some(&st.settings.llm))).cloned();
            let searched_with = match &llm {
                Some(c) => format!("{}+{}", forecaster.id(), crate::llm::rewrite::id(c)),
                None => forecaster.id().to_string(),
            };
            let outcome_id = outcome_key(&text, &kernel, &config, &searched_with, &workers.join(","));
            let stored = st.searches.memo.get(&outcome_id).cloned().or_else(|| {
                let bytes = st.analyzer.cache().store()?.get(Table::Searches, &outcome_id).ok()??;
                serde_json::from_slice::<Outcome>(&bytes).ok().map(Arc::new)
            });
            if let Some(outcome) = stored {
                let answer = json!({"started": false, "stored": true, "summary": summary(&outcome)});
                st.searches.memo.insert(outcome_id, outcome.clone());
                st.searches.by_kernel.insert(key, Entry::Done { text: hash, outcome });
                return Ok(answer);
            }
            let cancel = Arc::new(AtomicBool::new(false));
            let token = format!("kforecast/search/{kernel}/{}", outcome_id.short());
            st.searches.by_kernel.insert(key, Entry::Running { token: token.clone(), cancel: cancel.clone() });
            st.jobs += 1;
            let file = LoadedFile { path, text, kernels };
            let measurer = (st.pool.clone(), st.analyzer.cache_arc(), file);
            let rewrites = (llm, st.settings.device.clone());
            (original, config, forecaster, measurer, rewrites, outcome_id, hash, token, cancel, st.progress)
        };
        let (original, config, forecaster, measurer, rewrites, outcome_id, hash, token, cancel, progress) = prepared;
        let (client, state) = (self.client.clone(), self.state.clone());
        let kernel_name = kernel.clone();
        tokio::spawn(async move {
            let begin = WorkDoneProgressBegin {
                title: format!("Searching faster variants of `{kernel}`"),
                cancellable: Some(true),
                message: Some(format!("budget {} GPU runs", config.budget)),
                percentage: Some(0),
            };
            let work = WorkProgress::begin(&client, progress, token, begin).await;
            let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel::<Progress>();
            let search_cancel = cancel.clone();
            let job = tokio::task::spawn_blocking(move || {
                let (pool, cache, file) = measurer;
                let store = cache.store_arc();
                let mut measurer = PoolMeasurer { pool: &pool, store: store.as_deref(), file, kernel: kernel_name };
                let mut report = |p: &Progress| {
                    let _ = tx.send(p.clone());
                };
                let (llm, device) = rewrites;
                let operators = crate::llm::rewrite::operators(llm.as_ref(), &device, store.clone(), &search_cancel)
                    .unwrap_or_else(|e| {
                        tracing::warn!("search without LLM rewrites: setting `kforecast.llm`: {e}");
                        Vec::new()
                    });
                Searcher {
                    forecaster: forecaster.as_ref(),
                    measurer: &mut measurer,
                    operators,
                    cancel: &search_cancel,
                    progress: &mut report,
                }
                .run(&original, &config)
            });
            tokio::pin!(job);
            let result = loop {
                tokio::select! {
                    Some(p) = rx.recv() => {
                        let percentage = (p.runs as u64 * 100 / p.budget.max(1) as u64).min(100) as u32;
                        let asking = if p.message.starts_with("asking LLM") { " · asking the LLM for rewrites" } else { "" };
                        work.send(WorkDoneProgress::Report(WorkDoneProgressReport {
                            cancellable: Some(true),
                            message: Some(format!(
                                "{}/{} GPU runs · {} considered · best {} measured{asking}",
                                p.runs, p.budget, p.considered, times(p.best)
                            )),
                            percentage: Some(percentage),
                        }))
                        .await;
                    }
                    r = &mut job => break r,
                }
            };
            let outcome = match result {
                Ok(Ok(o)) => Ok(Arc::new(o)),
                Ok(Err(e)) => Err(e),
                Err(e) => Err(format!("the search task failed: {e}")),
            };
            let message = {
                let mut st = lock(&state);
                st.jobs = st.jobs.saturating_sub(1);
                let key = (uri.clone(), kernel.clone());
                let ours = matches!(st.searches.by_kernel.get(&key), Some(Entry::Running { cancel: c, .. }) if Arc::ptr_eq(c, &cancel));
                match &outcome {
                    Ok(o) => {
                        // A cancelled search is not the answer to "search with this budget".
                        if matches!(o.stop, Stop::Budget | Stop::Exhausted) {
                            st.searches.memo.insert(outcome_id, o.clone());
                            if let (Some(store), Ok(bytes)) = (st.analyzer.cache().store(), serde_json::to_vec(&**o)) {
                                if let Err(e) = store.put_many(Table::Searches, &[(outcome_id, bytes)]) {
                                    tracing::warn!("could not store the search: {e}");
                                }
                            }
                        }
                        if ours {
                            st.searches.by_kernel.insert(key, Entry::Done { text: hash, outcome: o.clone() });
                        }
                        format!("`{kernel}`: {}", summary(o))
                    }
                    Err(e) => {
                        if ours {
                            st.searches.by_kernel.remove(&key);
                        }
                        format!("the search of `{kernel}` failed: {e}")
                    }
                }
            };
            work.send(WorkDoneProgress::End(WorkDoneProgressEnd { message: Some(message.clone()) })).await;
            let found = outcome.as_ref().is_ok_and(|o| o.best.is_some());
            let typ = if found { MessageType::INFO } else { MessageType::WARNING };
            let hint = if found { " — use the code action \"Apply\" on the kernel" } else { "" };
            client.show_message(typ, format!("kforecast: {message}{hint}")).await;
        });
        Ok(json!({"started": true}))
    }

    async fn apply_search(&self, uri: Url, kernel: String) -> std::result::Result<Value, String> {
        let (edit, speedup) = {
            let st = self.state();
            let Some(Entry::Done { text, outcome }) = st.searches.by_kernel.get(&(uri.clone(), kernel.clone())) else {
                return Err(format!("no finished search of `{kernel}`: run \"Search faster variants\" first"));
            };
            let Some(best) = &outcome.best else {
                return Err(format!("the search of `{kernel}` found no faster correct variant"));
            };
            let Some(doc) = st.docs.get(&uri) else { return Err(format!("{uri} is not open")) };
            if *text != text_hash(doc) {
                return Err(format!(
                    "the document changed since the search of `{kernel}`: the edit was not applied; search again"
                ));
            }
            let edits: Vec<TextEdit> = diff::hunks(&doc.src.text(), &best.text)
                .into_iter()
                .map(|h| TextEdit { range: range(doc, h.old.start, h.old.end, st.encoding), new_text: h.new })
                .collect();
            let edit =
                WorkspaceEdit { changes: Some(HashMap::from([(uri.clone(), edits)])), ..WorkspaceEdit::default() };
            (edit, best.speedup)
        };
        match self.client.apply_edit(edit).await {
            Ok(r) if r.applied => Ok(json!({"applied": true, "speedup": speedup})),
            Ok(r) => Err(format!(
                "the editor did not apply the edit{}",
                r.failure_reason.map(|f| format!(": {f}")).unwrap_or_default()
            )),
            Err(e) => Err(format!("the editor did not apply the edit: {e}")),
        }
    }
}
