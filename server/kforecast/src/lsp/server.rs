//! The `LanguageServer` implementation. One mutex owns all state; handlers do their
//! (millisecond) work under it and talk to the client after releasing it.

use super::document::{language_of, Document, Verification, Verified};
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

#[path = "search.rs"]
mod search;

/// Set once the client has asked the server to shut down.
pub static SHUTDOWN_REQUESTED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

pub const SET_BASELINE: &str = "kforecast.setBaseline";
pub const SHOW_FORECAST: &str = "kforecast.showForecast";
pub const VERIFY: &str = "kforecast.verify";

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

pub struct Backend {
    client: Client,
    state: Arc<Mutex<State>>,
}

impl Backend {
    pub fn new(client: Client, cache: &CacheOptions) -> Self {
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
        Self { client, state: Arc::new(Mutex::new(state)) }
    }

    fn state(&self) -> MutexGuard<'_, State> {
        lock(&self.state)
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

    /// Starts measuring a kernel against its baseline on a GPU worker; the result
    /// replaces the forecast inline when it comes back.
    fn start_verify(&self, uri: Url, kernel: String) -> std::result::Result<Value, String> {
        let prepared = {
            let mut st = self.state();
            let State { docs, analyzer, pool, .. } = &mut *st;
            let Some(doc) = docs.get_mut(&uri) else { return Err(format!("{uri} is not open")) };
            let Some(report) = doc.reports.iter().find(|r| r.name == kernel) else {
                return Err(format!("no kernel named `{kernel}` in {uri}"));
            };
            let Some(pair) = report.pair else {
                return Err(format!("`{kernel}` has no version in {} to compare with", doc.baseline.label));
            };
            if doc.verifying(report) {
                return Ok(json!({"started": false, "running": true}));
            }
            let ((bp, bt, bk), (cp, ct, ck)) = doc.sides();
            match build_job(&kernel, (&bp, &bt, &bk), (&cp, &ct, &ck)) {
                Err(errors) => {
                    let first = errors.first().map(|e| e.message.clone()).unwrap_or_default();
                    doc.spec_errors.insert(kernel.clone(), errors);
                    Err(format!("cannot verify `{kernel}`: {first}"))
                }
                Ok(req) => {
                    doc.spec_errors.remove(&kernel);
                    doc.verifications.insert(kernel.clone(), Verification::Running { pair });
                    Ok((req, bt, ct, pair, pool.clone(), analyzer.cache_arc()))
                }
            }
        };
        let (req, base_text, cand_text, pair, pool, cache) = match prepared {
            Ok(p) => p,
            Err(msg) => {
                let (client, state, uri) = (self.client.clone(), self.state.clone(), uri.clone());
                tokio::spawn(async move { publish(&client, &state, uri).await });
                return Err(msg);
            }
        };
        let (progress, learn) = {
            let mut st = self.state();
            st.jobs += 1;
            (st.progress, st.settings.learn)
        };
        let (client, state) = (self.client.clone(), self.state.clone());
        tokio::spawn(async move {
            let begin = WorkDoneProgressBegin {
                title: format!("Verifying `{kernel}` on GPU"),
                cancellable: Some(false),
                message: Some("compiling, checking outputs, timing".to_string()),
                percentage: None,
            };
            let token = format!("kforecast/verify/{}", pair.1.short());
            let work = WorkProgress::begin(&client, progress, token, begin).await;
            let job = tokio::task::spawn_blocking(move || {
                let store = cache.store_arc();
                measure_cached(&pool, store.as_deref(), &req, &base_text, &cand_text, false)
            })
            .await;
            let (m, cached) = match job {
                Ok(r) => r,
                Err(e) => {
                    (Measurement::failure(MeasureStatus::Error, format!("the verification task failed: {e}")), false)
                }
            };
            let headline = m.headline();
            {
                let mut st = lock(&state);
                st.jobs = st.jobs.saturating_sub(1);
                if let Some(doc) = st.docs.get_mut(&uri) {
                    let still =
                        matches!(doc.verifications.get(&kernel), Some(Verification::Running { pair: p }) if *p == pair);
                    if still {
                        doc.verifications
                            .insert(kernel.clone(), Verification::Done(Box::new(Verified { pair, measurement: m })));
                    }
                }
            }
            work.send(WorkDoneProgress::End(WorkDoneProgressEnd { message: Some(headline.clone()) })).await;
            let from = if cached { " (stored measurement)" } else { "" };
            client.log_message(MessageType::INFO, format!("kforecast: `{kernel}` {headline}{from}")).await;
            if learn && !cached {
                learn_from_store(&client, &state).await;
            }
            publish(&client, &state, uri).await;
            refresh(&client, &state);
        });
        Ok(json!({"started": true}))
    }

    /// With `autoVerify`, deferred forecasts of this document go to the GPU once the
    /// text has been still for a moment.
    fn auto_verify(&self, uri: &Url) {
        let (candidates, version) = {
            let st = self.state();
            if !st.settings.auto_verify {
                return;
            }
            let Some(doc) = st.docs.get(uri) else { return };
            let threshold = st.settings.confidence_threshold;
            let names: Vec<String> = doc
                .reports
                .iter()
                .filter(|r| r.forecast().is_some_and(|f| f.defer(threshold)))
                .filter(|r| doc.verified(r).is_none() && !doc.verifying(r) && !doc.spec_errors.contains_key(&r.name))
                .map(|r| r.name.clone())
                .collect();
            (names, doc.version)
        };
        if candidates.is_empty() {
            return;
        }
        let uri = uri.clone();
        let me = Backend { client: self.client.clone(), state: self.state.clone() };
        tokio::spawn(async move {
            tokio::time::sleep(Duration::from_millis(1500)).await;
            let still = me.state().docs.get(&uri).is_some_and(|d| d.version == version);
            if still {
                for k in candidates {
                    if let Err(e) = me.start_verify(uri.clone(), k) {
                        tracing::info!("auto-verify: {e}");
                    }
                }
            }
        });
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
        let (client, state, uri) = (self.client.clone(), self.state.clone(), uri.clone());
        tokio::spawn(async move {
            tokio::time::sleep(LLM_DEBOUNCE).await;
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
            Some(doc) => (to_proto::diagnostics(doc, st.encoding, st.settings.confidence_threshold), Some(doc.version)),
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
        let utf8 = params
            .capabilities
            .general
            .as_ref()
            .and_then(|g| g.position_encodings.as_ref())
            .is_some_and(|encs| encs.contains(&PositionEncodingKind::UTF8));
        let workspace = params.capabilities.workspace.as_ref();
        {
            let mut st = self.state();
            st.encoding = if utf8 { Encoding::Utf8 } else { Encoding::Utf16 };
            st.refresh_hints =
                workspace.and_then(|w| w.inlay_hint.as_ref()).and_then(|h| h.refresh_support).unwrap_or(false);
            st.refresh_lenses =
                workspace.and_then(|w| w.code_lens.as_ref()).and_then(|c| c.refresh_support).unwrap_or(false);
            st.progress = params.capabilities.window.as_ref().and_then(|w| w.work_done_progress).unwrap_or(false);
            if let Some(options) = &params.initialization_options {
                let errors = st.settings.apply(options);
                st.pending.extend(errors.into_iter().map(|e| (MessageType::ERROR, e)));
                let device = st.settings.device.clone();
                st.pending.extend(super::device::check(&device).map(|w| (MessageType::WARNING, w)));
                let forecaster = calibrate::forecaster(st.analyzer.cache(), &device);
                st.analyzer.set_forecaster(forecaster);
                st.analyzer.set_device(device);
                match WorkerPool::new(&st.settings.gpu_workers, Duration::from_secs(st.settings.verify_timeout)) {
                    Ok(p) => st.pool = Arc::new(p),
                    Err(e) => st.pending.push((MessageType::ERROR, format!("setting `kforecast.gpuWorkers`: {e}"))),
                }
                match llm::build(&st.settings.llm, st.analyzer.cache_arc()) {
                    Ok(l) => st.llm = l,
                    Err(e) => st.pending.push((MessageType::ERROR, e)),
                }
            }
        }
        Ok(InitializeResult {
            capabilities: ServerCapabilities {
                position_encoding: Some(if utf8 { PositionEncodingKind::UTF8 } else { PositionEncodingKind::UTF16 }),
                text_document_sync: Some(TextDocumentSyncCapability::Kind(TextDocumentSyncKind::INCREMENTAL)),
                inlay_hint_provider: Some(OneOf::Left(true)),
                code_lens_provider: Some(CodeLensOptions { resolve_provider: Some(false) }),
                hover_provider: Some(HoverProviderCapability::Simple(true)),
                code_action_provider: Some(CodeActionProviderCapability::Options(CodeActionOptions {
                    code_action_kinds: Some(vec![
                        CodeActionKind::QUICKFIX,
                        CodeActionKind::EMPTY,
                        CodeActionKind::SOURCE,
                        CodeActionKind::REFACTOR_REWRITE,
                    ]),
                    ..CodeActionOptions::default()
                })),
                execute_command_provider: Some(ExecuteCommandOptions {
                    commands: [SET_BASELINE, SHOW_FORECAST, VERIFY]
                        .iter()
                        .chain(&search::COMMANDS)
                        .map(|c| c.to_string())
                        .collect(),
                    work_done_progress_options: WorkDoneProgressOptions::default(),
                }),
                ..ServerCapabilities::default()
            },
            server_info: Some(ServerInfo {
                name: "kforecast".to_string(),
                version: Some(env!("CARGO_PKG_VERSION").to_string()),
            }),
        })
    }

    async fn initialized(&self, _: InitializedParams) {
        let pending = std::mem::take(&mut self.state().pending);
        for (typ, message) in pending {
            tracing::warn!("{message}");
            self.client.show_message(typ, message).await;
        }
        tracing::info!("kforecast {} ready", env!("CARGO_PKG_VERSION"));
    }

    async fn shutdown(&self) -> Result<()> {
        SHUTDOWN_REQUESTED.store(true, std::sync::atomic::Ordering::SeqCst);
        self.state().analyzer.cache().flush();
        Ok(())
    }

    async fn did_open(&self, params: DidOpenTextDocumentParams) {
        let item = params.text_document;
        let Some(language) = language_of(&item.uri, &item.language_id) else {
            tracing::debug!("ignoring {} ({})", item.uri, item.language_id);
            return;
        };
        let warning = {
            let mut st = self.state();
            let (mode, max) = (st.settings.baseline_mode, st.settings.max_file_size);
            let mut doc = Document::open(&item.uri, language, &item.text, item.version, mode, max);
            doc.analyze(&st.analyzer);
            let warning = doc.disabled.clone();
            st.docs.insert(item.uri.clone(), doc);
            warning
        };
        if let Some(w) = warning {
            self.client.show_message(MessageType::WARNING, w).await;
        }
        self.auto_verify(&item.uri);
        self.start_llm(&item.uri);
        self.publish(item.uri).await;
    }

    async fn did_change(&self, params: DidChangeTextDocumentParams) {
        let uri = params.text_document.uri;
        {
            let mut st = self.state();
            let enc = st.encoding;
            let State { docs, analyzer, .. } = &mut *st;
            let Some(doc) = docs.get_mut(&uri) else {
                tracing::warn!("didChange for a document that is not open: {uri}");
                return;
            };
            doc.version = params.text_document.version;
            doc.apply_changes(params.content_changes, enc);
            doc.analyze(analyzer);
        }
        self.auto_verify(&uri);
        self.start_llm(&uri);
        self.publish(uri).await;
    }

    async fn did_close(&self, params: DidCloseTextDocumentParams) {
        let uri = params.text_document.uri;
        self.state().docs.remove(&uri);
        self.client.publish_diagnostics(uri, Vec::new(), None).await;
    }

    async fn did_change_configuration(&self, params: DidChangeConfigurationParams) {
        let (errors, uris) = {
            let mut st = self.state();
            let before = st.settings.clone();
            let mut errors = st.settings.apply(&params.settings);
            let settings = st.settings.clone();
            if settings.gpu_workers != before.gpu_workers || settings.verify_timeout != before.verify_timeout {
                match WorkerPool::new(&settings.gpu_workers, Duration::from_secs(settings.verify_timeout)) {
                    Ok(p) => st.pool = Arc::new(p),
                    Err(e) => errors.push(format!("setting `kforecast.gpuWorkers`: {e}")),
                }
            }
            if settings.device != before.device {
                errors.extend(super::device::check(&settings.device));
                let forecaster = calibrate::forecaster(st.analyzer.cache(), &settings.device);
                st.analyzer.set_forecaster(forecaster);
            }
            st.analyzer.set_device(settings.device.clone());
            let llm_changed = settings.llm != before.llm || settings.device != before.device;
            if llm_changed {
                match llm::build(&settings.llm, st.analyzer.cache_arc()) {
                    Ok(l) => st.llm = l,
                    Err(e) => {
                        st.llm = None;
                        errors.push(e);
                    }
                }
            }
            let State { docs, analyzer, .. } = &mut *st;
            for doc in docs.values_mut() {
                if settings.baseline_mode != before.baseline_mode {
                    doc.load_baseline(settings.baseline_mode);
                }
                if llm_changed {
                    doc.llm.clear();
                }
                doc.analyze(analyzer);
            }
            (errors, docs.keys().cloned().collect::<Vec<_>>())
        };
        self.show_errors(errors).await;
        for uri in uris {
            self.start_llm(&uri);
            self.publish(uri).await;
        }
        self.refresh();
    }

    async fn inlay_hint(&self, params: InlayHintParams) -> Result<Option<Vec<InlayHint>>> {
        let st = self.state();
        let Some(doc) = st.docs.get(&params.text_document.uri) else { return Ok(None) };
        Ok(Some(to_proto::inlay_hints(doc, params.range, st.encoding, st.settings.confidence_threshold)))
    }

    async fn code_lens(&self, params: CodeLensParams) -> Result<Option<Vec<CodeLens>>> {
        let st = self.state();
        let uri = params.text_document.uri;
        let Some(doc) = st.docs.get(&uri) else { return Ok(None) };
        Ok(Some(to_proto::code_lenses(doc, &uri, st.encoding, st.settings.confidence_threshold)))
    }

    async fn hover(&self, params: HoverParams) -> Result<Option<Hover>> {
        let st = self.state();
        let pos = params.text_document_position_params;
        let Some(doc) = st.docs.get(&pos.text_document.uri) else { return Ok(None) };
        let offset = to_offset(doc.src.rope(), pos.position, st.encoding);
        Ok(to_proto::hover(doc, offset, st.encoding, st.settings.confidence_threshold, st.analyzer.device()))
    }

    async fn code_action(&self, params: CodeActionParams) -> Result<Option<CodeActionResponse>> {
        let st = self.state();
        let uri = params.text_document.uri;
        let Some(doc) = st.docs.get(&uri) else { return Ok(None) };
        let mut actions =
            to_proto::code_actions(doc, &uri, params.range, st.encoding, st.settings.confidence_threshold);
        actions.extend(search::code_actions(&st, doc, &uri, params.range, st.encoding));
        Ok(Some(actions))
    }

    async fn execute_command(&self, params: ExecuteCommandParams) -> Result<Option<Value>> {
        let Some((uri, kernel)) = command_target(&params.arguments) else {
            return Err(Error::invalid_params(format!(
                "{} expects [{{\"uri\": <document uri>, \"kernel\"?: <name>}}]",
                params.command
            )));
        };
        match params.command.as_str() {
            VERIFY => {
                let Some(kernel) = kernel else {
                    return Err(Error::invalid_params("kforecast.verify needs a kernel name"));
                };
                self.start_verify(uri, kernel).map(Some).map_err(Error::invalid_params)
            }
            name if search::COMMANDS.contains(&name) => {
                let Some(kernel) = kernel else {
                    return Err(Error::invalid_params(format!("{name} needs a kernel name")));
                };
                self.search_command(name, uri, kernel).await
            }
            SET_BASELINE => {
                let count = {
                    let mut st = self.state();
                    let State { docs, analyzer, .. } = &mut *st;
                    let Some(doc) = docs.get_mut(&uri) else {
                        return Err(Error::invalid_params(format!("{uri} is not open")));
                    };
                    let count = doc.set_baseline(kernel.as_deref()).map_err(Error::invalid_params)?;
                    doc.analyze(analyzer);
                    count
                };
                self.start_llm(&uri);
                self.publish(uri).await;
                self.refresh();
                Ok(Some(json!({"baselined": count})))
            }
            SHOW_FORECAST => {
                let (value, message) = {
                    let st = self.state();
                    let Some(doc) = st.docs.get(&uri) else {
                        return Err(Error::invalid_params(format!("{uri} is not open")));
                    };
                    let Some(name) = kernel else {
                        return Err(Error::invalid_params("kforecast.showForecast needs a kernel name"));
                    };
                    let Some(report) = doc.reports.iter().find(|r| r.name == name) else {
                        return Err(Error::invalid_params(format!("no kernel named `{name}` in {uri}")));
                    };
                    let threshold = st.settings.confidence_threshold;
                    match report.forecast() {
                        Some(f) => {
                            let mut v = crate::cli::forecast_json(f, threshold);
                            v["kernel"] = name.clone().into();
                            v["baseline"] = doc.baseline.label.clone().into();
                            let msg = format!(
                                "kforecast: `{name}` {} (confidence {:.0}%) — {}",
                                super::wording::versus(f, &doc.baseline.label),
                                f.confidence * 100.0,
                                f.reasons.join("; ")
                            );
                            (v, msg)
                        }
                        None => (
                            json!({"kernel": name, "changed": false}),
                            format!("kforecast: `{name}` has no forecast (unchanged or new)"),
                        ),
                    }
                };
                self.client.show_message(MessageType::INFO, message).await;
                Ok(Some(value))
            }
            other => Err(Error::invalid_params(format!("unknown command `{other}`"))),
        }
    }
}
