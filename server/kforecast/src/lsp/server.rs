//! The server's state and the `LanguageServer` implementation. One mutex owns all
//! state; the handlers (`handlers/`, one module per kind of message) do their
//! (millisecond) work under it and talk to the client after releasing it.

use super::document::{language_of, Document, Verification, Verified};
use super::input::Versions;
use super::llm;
use super::position::{to_offset, Encoding};
use super::settings::Settings;
use super::to_proto;
use crate::cli::calibrate;
use crate::cli::verify::{build_job, measure_cached};
use crate::cli::{open_cache, CacheOptions};
use crate::llm::LlmForecaster;
use crate::worker::pool::WorkerPool;
use kforecast_core::analysis::Analyzer;
use kforecast_core::forecast::{Model, TrainedForecaster};
use kforecast_core::measure::protocol::{Measurement, Status as MeasureStatus};
use serde_json::{json, Value};
use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;
use tower_lsp::jsonrpc::{Error, Result};
use tower_lsp::lsp_types::*;
use tower_lsp::lsp_types::{notification, request};
use tower_lsp::{Client, LanguageServer};

#[path = "handlers/mod.rs"]
mod handlers;
#[path = "search.rs"]
mod search;

/// Set once the client has asked the server to shut down.
pub static SHUTDOWN_REQUESTED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

pub const SET_BASELINE: &str = "kforecast.setBaseline";
pub const SHOW_FORECAST: &str = "kforecast.showForecast";
pub const VERIFY: &str = "kforecast.verify";

/// How long an analysis may hold the message loop before it goes on off it.
const INLINE_ANALYSIS: Duration = Duration::from_millis(4);

/// How long the text must be still before the LLM surrogate is asked.
const LLM_DEBOUNCE: Duration = Duration::from_millis(600);

struct State {
    settings: Settings,
    encoding: Encoding,
    docs: HashMap<Url, Document>,
    analyzer: Analyzer,
    refresh_hints: bool,
    refresh_lenses: bool,
    progress: bool,
    pool: Arc<WorkerPool>,
    /// GPU jobs in flight.
    jobs: usize,
    /// Messages to show once the client is initialised.
    pending: Vec<(MessageType, String)>,
    /// The LLM surrogate, when `kforecast.llm.endpoint` is set.
    llm: Option<Arc<LlmForecaster>>,
    searches: search::Searches,
}

#[derive(Clone)]
pub struct Backend {
    client: Client,
    state: Arc<Mutex<State>>,
    /// Each document's newest version read off the wire, ahead of the handlers.
    versions: Arc<Versions>,
    /// Held while a document's forecasts are made off the lock: one analysis at a time
    /// (the next one waits, and usually finds it done).
    analysis: Arc<tokio::sync::Mutex<()>>,
}

impl Backend {
    pub fn new(client: Client, cache: &CacheOptions, versions: Arc<Versions>) -> Self {
        let mut pending = Vec::new();
        let cache = open_cache(cache, &mut |w| pending.push((MessageType::WARNING, w)));
        let settings = Settings::default();
        let forecaster = calibrate::forecaster(&cache, &settings.device);
        let analyzer = Analyzer::new(forecaster, Arc::new(cache), settings.device.clone());
        let pool = Arc::new(
            WorkerPool::new(&settings.gpu_workers, Duration::from_secs(settings.verify_timeout)).unwrap_or_else(|_| {
                WorkerPool::new(&[], Duration::from_secs(120)).expect("a local pool needs no settings")
            }),
        );
        let state = State {
            settings,
            encoding: Encoding::Utf16,
            docs: HashMap::new(),
            analyzer,
            refresh_hints: false,
            refresh_lenses: false,
            progress: false,
            pool,
            jobs: 0,
            pending,
            llm: None,
            searches: search::Searches::default(),
        };
        Self { client, state: Arc::new(Mutex::new(state)), versions, analysis: Arc::default() }
    }

    fn state(&self) -> MutexGuard<'_, State> {
        lock(&self.state)
    }

    /// An edit of this open document arrived after the request being answered (it is
    /// still queued): the answer would be for text the client no longer has.
    fn superseded(&self, st: &State, uri: &Url) -> bool {
        st.docs.get(uri).is_some_and(|doc| self.versions.superseded(uri, doc.version))
    }

    /// The state for a read-only request about `uri`, its edits analysed; or the
    /// `ContentModified` answer when a later edit has already arrived (also while the
    /// analysis runs: it is given up then).
    async fn for_request(&self, uri: &Url) -> Result<MutexGuard<'_, State>> {
        for _ in 0..3 {
            if !self.analyze(uri, true).await {
                return Err(Error::content_modified());
            }
            let st = self.state();
            if self.superseded(&st, uri) {
                return Err(Error::content_modified());
            }
            if !st.docs.get(uri).is_some_and(|d| d.stale) {
                return Ok(st);
            }
            // An edit (of the same version: a client's slip) came while it was analysed.
        }
        Ok(self.state())
    }

    /// Brings the analysis of `uri` up to date. Its forecasts are made off the lock and
    /// off the message loop, so that messages keep flowing meanwhile (answers already
    /// made are sent, stale requests answered); with `cancellable`, it is given up as
    /// soon as a later edit of the document has arrived, and false is returned.
    pub(crate) async fn analyze(&self, uri: &Url, cancellable: bool) -> bool {
        let _turn = self.analysis.lock().await;
        let (pending, analyzer) = {
            let mut st = self.state();
            let State { docs, analyzer, .. } = &mut *st;
            let Some(doc) = docs.get_mut(uri) else { return true };
            if cancellable && self.versions.superseded(uri, doc.version) {
                return false;
            }
            match doc.prepare() {
                Some(pending) => (pending, analyzer.clone()),
                None => return true,
            }
        };
        // Most analyses (an edit to one kernel) take a millisecond or two: made here. One
        // that runs past INLINE_ANALYSIS goes on off the loop, where the forecasts made
        // so far are found in the cache.
        let start = std::time::Instant::now();
        let superseded = || cancellable && self.versions.superseded(uri, pending.version);
        let inline = || superseded() || start.elapsed() > INLINE_ANALYSIS;
        if let Some(reports) = analyzer.compare_unless(&pending.current, &pending.baseline, &inline) {
            let mut st = self.state();
            return st.docs.get_mut(uri).is_none_or(|doc| doc.install(pending, reports));
        }
        if superseded() {
            return false;
        }
        let (versions, at) = (self.versions.clone(), uri.clone());
        let forecast = tokio::task::spawn_blocking(move || {
            let cancelled = || cancellable && versions.superseded(&at, pending.version);
            let reports = analyzer.compare_unless(&pending.current, &pending.baseline, &cancelled);
            (pending, reports)
        })
        .await;
        let (pending, reports) = match forecast {
            Ok((pending, Some(reports))) => (pending, reports),
            Ok((pending, None)) => {
                tracing::debug!(
                    "analysis of version {} given up after {:?}: a later edit came",
                    pending.version,
                    start.elapsed()
                );
                return false;
            }
            Err(e) => {
                tracing::warn!("an analysis failed: {e}");
                return false;
            }
        };
        tracing::debug!(
            "version {} forecast in {:?} ({} kernels)",
            pending.version,
            start.elapsed(),
            pending.current.len()
        );
        let mut st = self.state();
        st.docs.get_mut(uri).is_none_or(|doc| doc.install(pending, reports))
    }

    /// Analyses `uri` and, unless a later edit came first, publishes its diagnostics and
    /// starts what follows an edit (auto-verify, the LLM surrogate).
    pub(crate) async fn analyze_and_publish(&self, uri: Url) {
        if self.analyze(&uri, true).await {
            self.auto_verify(&uri);
            self.start_llm(&uri);
            self.read_on(&uri);
            self.publish(uri).await;
        }
    }

    /// The user looks at `range` of `uri`: it is read first (see [`Document::look_at`]).
    fn look_at(&self, uri: &Url, range: Range) {
        let mut st = self.state();
        let enc = st.encoding;
        if let Some(doc) = st.docs.get_mut(uri) {
            let (start, end) = (to_offset(doc.src.rope(), range.start, enc), to_offset(doc.src.rope(), range.end, enc));
            doc.look_at(start.min(end)..end.max(start));
        }
    }

    /// A document opened before it was read whole (a large CUDA file: its first
    /// analyses read what the user looks at or edits) is read on here, a step at a time
    /// in turn with the messages that come meanwhile; then it is analysed whole, its
    /// diagnostics are published and the client is asked for hints again.
    fn read_on(&self, uri: &Url) {
        {
            let mut st = self.state();
            let Some(doc) = st.docs.get_mut(uri).filter(|d| d.reading() && !d.reader) else { return };
            doc.reader = true;
        }
        let (me, uri) = (self.clone(), uri.clone());
        tokio::spawn(async move {
            loop {
                let (state, at) = (me.state.clone(), uri.clone());
                let more =
                    tokio::task::spawn_blocking(move || lock(&state).docs.get_mut(&at).map(|d| d.read_more())).await;
                match more {
                    Ok(Some(true)) => tokio::task::yield_now().await,
                    Ok(Some(false)) => break,
                    Ok(None) => return,
                    Err(e) => {
                        // The next analysis that finds it still reading starts another.
                        tracing::warn!("reading {uri} failed: {e}");
                        if let Some(doc) = me.state().docs.get_mut(&uri) {
                            doc.reader = false;
                        }
                        return;
                    }
                }
            }
            loop {
                if !me.analyze(&uri, true).await {
                    // A later edit is on its way: its analysis takes it all.
                    tokio::time::sleep(Duration::from_millis(5)).await;
                }
                let mut st = me.state();
                let Some(doc) = st.docs.get_mut(&uri) else { return };
                if !doc.reading() {
                    doc.reader = false;
                    break;
                }
            }
            me.publish(uri).await;
            me.refresh();
        });
    }

    /// Answers a request the input filter refused (an unusable id, a `$/` request, …).
    pub async fn refuse(&self, params: Value) -> Result<Value> {
        let code = params.get("code").and_then(Value::as_i64).unwrap_or(-32600);
        let message = params.get("message").and_then(Value::as_str).unwrap_or("invalid request").to_string();
        Err(Error { code: code.into(), message: message.into(), data: None })
    }

    /// `kforecast/status`: what the server is doing (for editor status bars and tests).
    pub async fn status(&self) -> Result<Value> {
        let st = self.state();
        let stats = st.analyzer.cache().stats();
        Ok(json!({
            "forecaster": st.analyzer.forecaster().id(),
            "device": st.analyzer.device(),
            "documents": st.docs.len(),
            "store": st.analyzer.cache().store().map(|s| s.path().display().to_string()),
            "cache": {"memoryHits": stats.memory_hits, "diskHits": stats.disk_hits, "misses": stats.misses},
            "jobs": st.jobs,
            "gpuWorkers": st.pool.states().into_iter().map(|(url, state)| json!({"url": url, "state": state})).collect::<Vec<_>>(),
            "llm": st.llm.as_ref().map(|l| json!({
                "endpoint": l.client().endpoint(), "model": l.client().model(), "id": l.id(), "weight": l.weight(),
            })),
        }))
    }

    async fn publish(&self, uri: Url) {
        publish(&self.client, &self.state, uri).await;
    }

    /// Asks the client to re-request hints and lenses (without waiting for it).
    fn refresh(&self) {
        refresh(&self.client, &self.state);
    }

    /// With the LLM surrogate on: once the text has been still for a moment, asks it
    /// about the changed kernels it has not seen, off the lock and off the request path;
    /// each answer is ensembled and shown when it arrives, if its pair is still current.
    fn start_llm(&self, uri: &Url) {
        let version = {
            let st = self.state();
            if st.llm.is_none() {
                return;
            }
            let Some(doc) = st.docs.get(uri) else { return };
            doc.version
        };
        let (me, client, state, uri) = (self.clone(), self.client.clone(), self.state.clone(), uri.clone());
        tokio::spawn(async move {
            tokio::time::sleep(LLM_DEBOUNCE).await;
            if !me.analyze(&uri, true).await {
                return;
            }
            let (forecaster, requests) = {
                let mut st = lock(&state);
                let Some(forecaster) = st.llm.clone() else { return };
                let device = st.analyzer.device().to_string();
                let Some(doc) = st.docs.get_mut(&uri).filter(|d| d.version == version) else { return };
                (forecaster, llm::requests(doc, &device))
            };
            for request in requests {
                let (client, state, uri, forecaster) = (client.clone(), state.clone(), uri.clone(), forecaster.clone());
                tokio::spawn(async move {
                    let asked = (request.pair, request.generation);
                    let weight = forecaster.weight();
                    let answer = tokio::task::spawn_blocking(move || {
                        forecaster.forecast(&request.context).map_err(|e| e.to_string())
                    })
                    .await;
                    let Ok(llm) = answer else {
                        tracing::warn!("the LLM request task failed");
                        return;
                    };
                    let shown = lock(&state)
                        .docs
                        .get_mut(&uri)
                        .is_some_and(|doc| doc.llm.arrived(asked, llm, weight, &mut doc.reports));
                    if shown {
                        publish(&client, &state, uri).await;
                        refresh(&client, &state);
                    }
                });
            }
        });
    }

    async fn show_errors(&self, errors: Vec<String>) {
        for e in errors {
            tracing::warn!("{e}");
            self.client.show_message(MessageType::ERROR, e).await;
        }
    }
}

/// The state; a panic under the lock must not take the server down with it.
fn lock(state: &Mutex<State>) -> MutexGuard<'_, State> {
    state.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

async fn publish(client: &Client, state: &Mutex<State>, uri: Url) {
    let (diags, version) = {
        let st = lock(state);
        match st.docs.get(&uri) {
            Some(doc) => {
                let mut diags = to_proto::diagnostics(doc, st.encoding, st.settings.confidence_threshold);
                if let Some(why) = &doc.too_complex {
                    diags.push(Diagnostic {
                        range: Range::default(),
                        severity: Some(DiagnosticSeverity::WARNING),
                        source: Some("kforecast".to_string()),
                        message: why.clone(),
                        ..Diagnostic::default()
                    });
                }
                (diags, Some(doc.version))
            }
            None => (Vec::new(), None),
        }
    };
    client.publish_diagnostics(uri, diags, version).await;
}

/// Refits the device's calibration from the stored measurements (off the lock) and, if
/// it changed, forecasts every open document again with it.
async fn learn_from_store(client: &Client, state: &Arc<Mutex<State>>) {
    let (cache, device) = {
        let st = lock(state);
        (st.analyzer.cache_arc(), st.settings.device.clone())
    };
    let (Some(store), Ok(model)) = (cache.store_arc(), Model::shipped()) else { return };
    let (fit_device, fit_model) = (device.clone(), model.clone());
    let refit = tokio::task::spawn_blocking(move || calibrate::refit(&store, &fit_model, &fit_device)).await;
    let adjustment = match refit {
        Ok(Ok(Some(a))) => a,
        Ok(Ok(None)) => return,
        Ok(Err(e)) => {
            client.log_message(MessageType::WARNING, format!("kforecast: calibration not refined: {e}")).await;
            return;
        }
        Err(e) => {
            tracing::warn!("the calibration task failed: {e}");
            return;
        }
    };
    let uris: Vec<Url> = {
        let mut st = lock(state);
        if st.settings.device != device {
            return;
        }
        st.analyzer.set_forecaster(Arc::new(TrainedForecaster::with_adjustment(model, adjustment)));
        let State { docs, analyzer, .. } = &mut *st;
        for doc in docs.values_mut() {
            doc.analyze(analyzer);
        }
        docs.keys().cloned().collect()
    };
    client
        .log_message(
            MessageType::INFO,
            format!(
                "kforecast: calibration for {device} refined from {} measurement(s) (version {}; \
                 `kforecast calibrate --rollback` undoes it)",
                adjustment.measurements, adjustment.version
            ),
        )
        .await;
    for uri in uris {
        publish(client, state, uri).await;
    }
    refresh(client, state);
}

/// A `$/progress` shown by the client; nothing where the client does not show progress.
struct WorkProgress {
    client: Client,
    /// `None`: not shown.
    token: Option<NumberOrString>,
}

impl WorkProgress {
    /// Asks the client to create `token` (where it supports progress) and begins it.
    async fn begin(client: &Client, supported: bool, token: String, begin: WorkDoneProgressBegin) -> Self {
        let token = NumberOrString::String(token);
        let params = WorkDoneProgressCreateParams { token: token.clone() };
        let created = supported && client.send_request::<request::WorkDoneProgressCreate>(params).await.is_ok();
        let work = Self { client: client.clone(), token: created.then_some(token) };
        work.send(WorkDoneProgress::Begin(begin)).await;
        work
    }

    async fn send(&self, value: WorkDoneProgress) {
        if let Some(token) = &self.token {
            let params = ProgressParams { token: token.clone(), value: ProgressParamsValue::WorkDone(value) };
            self.client.send_notification::<notification::Progress>(params).await;
        }
    }
}

fn refresh(client: &Client, state: &Mutex<State>) {
    let (hints, lenses) = {
        let st = lock(state);
        (st.refresh_hints, st.refresh_lenses)
    };
    let client = client.clone();
    tokio::spawn(async move {
        if hints {
            let _ = client.inlay_hint_refresh().await;
        }
        if lenses {
            let _ = client.code_lens_refresh().await;
        }
    });
}

/// `[{"uri": …, "kernel": …}]` or `["uri", "kernel"]`.
fn command_target(args: &[Value]) -> Option<(Url, Option<String>)> {
    let first = args.first()?;
    let (uri, kernel) = match first {
        Value::Object(o) => (o.get("uri")?.as_str()?, o.get("kernel").and_then(Value::as_str)),
        Value::String(s) => (s.as_str(), args.get(1).and_then(Value::as_str)),
        _ => return None,
    };
    Some((Url::parse(uri).ok()?, kernel.map(str::to_string)))
}

#[tower_lsp::async_trait]
impl LanguageServer for Backend {
    async fn initialize(&self, params: InitializeParams) -> Result<InitializeResult> {
        handlers::lifecycle::initialize(self, params).await
    }

    async fn initialized(&self, params: InitializedParams) {
        handlers::lifecycle::initialized(self, params).await
    }

    async fn shutdown(&self) -> Result<()> {
        handlers::lifecycle::shutdown(self).await
    }

    async fn did_open(&self, params: DidOpenTextDocumentParams) {
        handlers::documents::did_open(self, params).await
    }

    async fn did_change(&self, params: DidChangeTextDocumentParams) {
        handlers::documents::did_change(self, params).await
    }

    async fn did_close(&self, params: DidCloseTextDocumentParams) {
        handlers::documents::did_close(self, params).await
    }

    async fn did_change_configuration(&self, params: DidChangeConfigurationParams) {
        handlers::documents::did_change_configuration(self, params).await
    }

    async fn inlay_hint(&self, params: InlayHintParams) -> Result<Option<Vec<InlayHint>>> {
        handlers::requests::inlay_hint(self, params).await
    }

    async fn code_lens(&self, params: CodeLensParams) -> Result<Option<Vec<CodeLens>>> {
        handlers::requests::code_lens(self, params).await
    }

    async fn hover(&self, params: HoverParams) -> Result<Option<Hover>> {
        handlers::requests::hover(self, params).await
    }

    async fn code_action(&self, params: CodeActionParams) -> Result<Option<CodeActionResponse>> {
        handlers::requests::code_action(self, params).await
    }

    async fn execute_command(&self, params: ExecuteCommandParams) -> Result<Option<Value>> {
        handlers::commands::execute_command(self, params).await
    }
}
