//! The language server: a thin layer that turns LSP requests into calls on the core
//! (`kforecast_core`) and converts the answers (`to_proto`).

mod actions;
mod device;
mod document;
pub mod frame;
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
use std::time::Duration;
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

/// How long the server may finish its work after stdin ends before it stops anyway.
const GRACE_AFTER_EOF: Duration = Duration::from_millis(300);
/// After stdin ends the process is gone within this, whatever its threads are doing.
const DEADLINE_AFTER_EOF: Duration = Duration::from_millis(900);

fn exit_code() -> ExitCode {
    // LSP: exit code 0 only if `shutdown` came before `exit`.
    if server::SHUTDOWN_REQUESTED.load(std::sync::atomic::Ordering::SeqCst) {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

/// Serves LSP on stdin/stdout until the client says `exit` or stdin ends.
pub fn run(cache: CacheOptions) -> anyhow::Result<ExitCode> {
    // glibc gives each thread that allocates (the analyses made off the message loop, their
    // forecasting threads) an arena of its own, which keeps what a large file's analysis
    // freed; two arenas bound the server's memory to about one copy of its documents.
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    unsafe {
        libc::mallopt(libc::M_ARENA_MAX, 2);
    }
    let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build()?;
    runtime.block_on(async move {
        let versions = Arc::new(input::Versions::default());
        let (service, socket) =
            tower_lsp::LspService::build(|client| server::Backend::new(client, &cache, versions.clone()))
                .custom_method("kforecast/status", server::Backend::status)
                .custom_method("window/workDoneProgress/cancel", server::Backend::cancel_progress)
                .custom_method(frame::REFUSE_METHOD, server::Backend::refuse)
                .finish();
        let exited = Arc::new(Notify::new());
        let service = ExitWatch { inner: service, exited: exited.clone() };
        let ended = Arc::new(Notify::new());
        let on_end = {
            let ended = ended.clone();
            move || {
                tracing::info!("stdin ended");
                ended.notify_one();
                // An editor that crashed sends no `exit`: whatever is still running
                // (a parse, a handler waiting on the client), the process ends.
                std::thread::spawn(|| {
                    std::thread::sleep(DEADLINE_AFTER_EOF);
                    let code = if server::SHUTDOWN_REQUESTED.load(std::sync::atomic::Ordering::SeqCst) { 0 } else { 1 };
                    std::process::exit(code);
                });
            }
        };
        let serve =
            tower_lsp::Server::new(input::stdin(versions.clone(), on_end)?, tokio::io::stdout(), socket).serve(service);
        tokio::pin!(serve);
        // tower-lsp only notices `exit` when the next message arrives: stop as soon as it is seen.
        enum Stop {
            Served,
            Exit,
            Ended,
        }
        let stop = tokio::select! {
            _ = &mut serve => Stop::Served,
            _ = exited.notified() => Stop::Exit,
            _ = ended.notified() => Stop::Ended,
        };
        match stop {
            Stop::Served => {}
            Stop::Exit => tokio::time::sleep(Duration::from_millis(20)).await,
            Stop::Ended => {
                let _ = tokio::time::timeout(GRACE_AFTER_EOF, &mut serve).await;
            }
        }
        anyhow::Ok(())
    })?;
    // The stdin reader blocks in a thread of its own: don't wait for it.
    runtime.shutdown_background();
    Ok(exit_code())
}
