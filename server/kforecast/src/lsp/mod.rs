//! The language server: a thin layer that turns LSP requests into calls on the core
//! (`kforecast_core`) and converts the answers (`to_proto`).

mod actions;
mod device;
mod document;
mod input;
mod llm;
mod position;
mod server;
mod settings;
mod to_proto;
mod wording;

use crate::cli::CacheOptions;
use std::process::ExitCode;
use std::sync::Arc;
use std::task::{Context, Poll};
use tokio::sync::Notify;
use tower_lsp::jsonrpc::{Request, Response};

/// Passes every message to the LSP service and signals when `exit` goes by.
struct ExitWatch<S> {
    inner: S,
    exited: Arc<Notify>,
}

impl<S: tower::Service<Request, Response = Option<Response>>> tower::Service<Request> for ExitWatch<S> {
    type Response = S::Response;
    type Error = S::Error;
    type Future = S::Future;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, req: Request) -> Self::Future {
        if req.method() == "exit" {
            self.exited.notify_one();
        }
        self.inner.call(req)
    }
}

/// Serves LSP on stdin/stdout until the client says `exit`.
pub fn run(cache: CacheOptions) -> anyhow::Result<ExitCode> {
    let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build()?;
    runtime.block_on(async move {
        let (service, socket) = tower_lsp::LspService::build(|client| server::Backend::new(client, &cache))
            .custom_method("kforecast/status", server::Backend::status)
            .custom_method("window/workDoneProgress/cancel", server::Backend::cancel_progress)
            .finish();
        let exited = Arc::new(Notify::new());
        let service = ExitWatch { inner: service, exited: exited.clone() };
        let serve = tower_lsp::Server::new(input::stdin()?, tokio::io::stdout(), socket).serve(service);
        // tower-lsp only notices `exit` when the next message arrives: stop as soon as it is seen.
        tokio::select! {
            _ = serve => {}
            _ = exited.notified() => tokio::time::sleep(std::time::Duration::from_millis(20)).await,
        }
        anyhow::Ok(())
    })?;
    // The stdin reader blocks in a thread of its own: don't wait for it.
    runtime.shutdown_background();
    // LSP: exit code 0 only if `shutdown` came before `exit`.
    Ok(if server::SHUTDOWN_REQUESTED.load(std::sync::atomic::Ordering::SeqCst) {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
