//! Document notifications: open, change, close, and settings changes. A burst of
//! edits is applied as it comes and analysed once, when the last of it has arrived
//! (or a request needs it).

use super::super::*;

pub(crate) async fn did_open(b: &Backend, params: DidOpenTextDocumentParams) {
    let item = params.text_document;
    let Some(language) = language_of(&item.uri, &item.language_id) else {
        tracing::debug!("ignoring {} ({})", item.uri, item.language_id);
        return;
    };
    let warning = {
        let mut st = b.state();
        let (mode, max) = (st.settings.baseline_mode, st.settings.max_file_size);
        let doc = Document::open(&item.uri, language, &item.text, item.version, mode, max);
        let warning = doc.disabled.clone();
        st.docs.insert(item.uri.clone(), doc);
        warning
    };
    if let Some(w) = warning {
        b.client.show_message(MessageType::WARNING, w).await;
    }
    b.analyze_and_publish(item.uri).await;
}

pub(crate) async fn did_change(b: &Backend, params: DidChangeTextDocumentParams) {
    let uri = params.text_document.uri;
    {
        let mut st = b.state();
        let enc = st.encoding;
        let Some(doc) = st.docs.get_mut(&uri) else {
            tracing::warn!("didChange for a document that is not open: {uri}");
            return;
        };
        doc.version = params.text_document.version;
        doc.apply_changes(params.content_changes, enc);
        // A later edit is already on its way: this version is analysed only if a
        // request needs it before then.
        if b.versions.superseded(&uri, doc.version) {
            return;
        }
    }
    // Given up if a later edit comes meanwhile.
    b.analyze_and_publish(uri).await;
}

pub(crate) async fn did_close(b: &Backend, params: DidCloseTextDocumentParams) {
    let uri = params.text_document.uri;
    b.state().docs.remove(&uri);
    b.client.publish_diagnostics(uri, Vec::new(), None).await;
}

pub(crate) async fn did_change_configuration(b: &Backend, params: DidChangeConfigurationParams) {
    let (errors, uris) = {
        let mut st = b.state();
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
            errors.extend(crate::lsp::device::check(&settings.device));
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
    b.show_errors(errors).await;
    for uri in uris {
        b.start_llm(&uri);
        b.publish(uri).await;
    }
    b.refresh();
}
