//! initialize, initialized, shutdown: capabilities and settings from the client.

use super::super::*;

pub(crate) async fn initialize(b: &Backend, params: InitializeParams) -> Result<InitializeResult> {
    let utf8 = params
        .capabilities
        .general
        .as_ref()
        .and_then(|g| g.position_encodings.as_ref())
        .is_some_and(|encs| encs.contains(&PositionEncodingKind::UTF8));
    let workspace = params.capabilities.workspace.as_ref();
    {
        let mut st = b.state();
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
            st.pending.extend(crate::lsp::device::check(&device).map(|w| (MessageType::WARNING, w)));
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

pub(crate) async fn initialized(b: &Backend, _: InitializedParams) {
    let pending = std::mem::take(&mut b.state().pending);
    for (typ, message) in pending {
        tracing::warn!("{message}");
        b.client.show_message(typ, message).await;
    }
    tracing::info!("kforecast {} ready", env!("CARGO_PKG_VERSION"));
}

pub(crate) async fn shutdown(b: &Backend) -> Result<()> {
    SHUTDOWN_REQUESTED.store(true, std::sync::atomic::Ordering::SeqCst);
    b.state().analyzer.cache().flush();
    Ok(())
}
