//! `kforecast worker --listen ADDR`: measuring over HTTP for a server on another machine.
//!
//! - `GET /v1/health`: device name, compute capability, memory, driver, version.
//! - `POST /v1/measure`: a JSON [`MeasureRequest`] → a JSON [`Measurement`].
//! - `GET`/`PUT /v1/store/<key>`: the team's shared store, with `--store DIR`
//!   ([`super::store`]).
//!
//! Every request needs `Authorization: Bearer <token>` (401 otherwise). Bodies over
//! the size limit get 413. Jobs run one at a time in a supervised child process with a
//! per-job time limit, so a kernel that faults or hangs never takes the server down.
//! Serve it on a trusted network, or put a TLS-terminating proxy in front of it (the
//! client speaks HTTPS).

use super::supervisor::LocalWorker;
use super::Health;
use kforecast_core::measure::protocol::MeasureRequest;
use kforecast_core::store::Store;
use std::io::Read;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tiny_http::{Header, Method, Request, Response, Server};

pub struct ServeOptions {
    pub addr: String,
    pub token: String,
    pub max_request_bytes: usize,
    pub job_timeout: Duration,
    /// The shared store it keeps (`--store DIR`), if any.
    pub store: Option<Store>,
}

fn json_response(status: u16, body: String) -> Response<std::io::Cursor<Vec<u8>>> {
    let mut r = Response::from_string(body).with_status_code(status);
    if let Ok(h) = Header::from_bytes("Content-Type", "application/json") {
        r.add_header(h);
    }
    r
}

/// Compares in time independent of where the first difference is.
fn same(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

fn authorized(req: &Request, token: &str) -> bool {
    req.headers()
        .iter()
        .find(|h| h.field.equiv("Authorization"))
        .and_then(|h| h.value.as_str().strip_prefix("Bearer "))
        .is_some_and(|t| same(t.trim().as_bytes(), token.as_bytes()))
}

pub fn serve(opts: ServeOptions) -> anyhow::Result<()> {
    let server = Server::http(&opts.addr).map_err(|e| anyhow::anyhow!("cannot listen on {}: {e}", opts.addr))?;
    let addr = server.server_addr().to_ip().map(|a| a.to_string()).unwrap_or(opts.addr.clone());
    eprintln!("kforecast worker listening on http://{addr}");
    tracing::info!("worker listening on {addr}");
    if server.server_addr().to_ip().is_some_and(|a| !a.ip().is_loopback()) {
        eprintln!(
            "kforecast worker: plain HTTP beyond this machine: the bearer token and the kernels cross the network \
             unencrypted; on an untrusted network put a TLS proxy in front, or listen on 127.0.0.1 and use an SSH tunnel"
        );
    }
    let worker = Arc::new(Mutex::new(LocalWorker::new()));
    let health: Arc<Mutex<Option<Health>>> = Arc::new(Mutex::new(None));
    let opts = Arc::new(opts);
    for mut request in server.incoming_requests() {
        let (worker, health, opts) = (worker.clone(), health.clone(), opts.clone());
        std::thread::spawn(move || {
            let (status, body) = handle(&mut request, &worker, &health, &opts);
            let mut response = json_response(status, body);
            if status == 401 {
                if let Ok(h) = Header::from_bytes("WWW-Authenticate", "Bearer") {
                    response.add_header(h);
                }
            }
            let _ = request.respond(response);
        });
    }
    Ok(())
}

fn handle(
    req: &mut Request,
    worker: &Mutex<LocalWorker>,
    health: &Mutex<Option<Health>>,
    opts: &ServeOptions,
) -> (u16, String) {
    let fail = |status: u16, message: &str| (status, serde_json::json!({ "error": message }).to_string());
    if !authorized(req, &opts.token) {
        return fail(401, "missing or wrong bearer token");
    }
    let url = req.url().split('?').next().unwrap_or("").to_string();
    match (req.method(), url.as_str()) {
        (Method::Get, "/v1/health") => {
            let cached = health.lock().ok().and_then(|h| h.clone());
            let h = match cached {
                Some(h) => h,
                None => {
                    let h = match worker.lock() {
                        Ok(mut w) => w.health(Duration::from_secs(30)),
                        Err(_) => return fail(500, "worker lock poisoned"),
                    };
                    if h.ok {
                        if let Ok(mut slot) = health.lock() {
                            *slot = Some(h.clone());
                        }
                    }
                    h
                }
            };
            // Jobs run one at a time here.
            let h = Health { slots: Some(1), ..h };
            (200, serde_json::to_string(&h).unwrap_or_default())
        }
        (Method::Post, "/v1/measure") => {
            let body = match read_body(req, opts.max_request_bytes) {
                Ok(b) => b,
                Err(413) => return fail(413, &format!("request body over the {} byte limit", opts.max_request_bytes)),
                Err(code) => return fail(code, "could not read the request body"),
            };
            let job: MeasureRequest = match serde_json::from_slice(&body) {
                Ok(j) => j,
                Err(e) => return fail(400, &format!("the body is not a measure request: {e}")),
            };
            if let Some(why) = super::refusal(&job) {
                return fail(400, &why);
            }
            let m = match worker.lock() {
                Ok(mut w) => w.measure(&job, opts.job_timeout),
                Err(_) => return fail(500, "worker lock poisoned"),
            };
            (200, serde_json::to_string(&m).unwrap_or_default())
        }
        (Method::Get, path) if path.starts_with(STORE) => {
            super::store::serve_get(opts.store.as_ref(), &path[STORE.len()..])
        }
        (Method::Put, path) if path.starts_with(STORE) => {
            let body = match read_body(req, opts.max_request_bytes) {
                Ok(b) => b,
                Err(413) => return fail(413, &format!("request body over the {} byte limit", opts.max_request_bytes)),
                Err(code) => return fail(code, "could not read the request body"),
            };
            super::store::serve_put(opts.store.as_ref(), &path[STORE.len()..], &body)
        }
        (_, "/v1/health" | "/v1/measure") => fail(405, "method not allowed"),
        (_, path) if path.starts_with(STORE) => fail(405, "method not allowed"),
        _ => fail(404, "no such endpoint (try /v1/health, /v1/measure or /v1/store/<key>)"),
    }
}

/// Where the shared store's records are, by key.
const STORE: &str = "/v1/store/";

fn read_body(req: &mut Request, limit: usize) -> Result<Vec<u8>, u16> {
    if req.body_length().is_some_and(|n| n > limit) {
        return Err(413);
    }
    let mut body = Vec::new();
    req.as_reader().take(limit as u64 + 1).read_to_end(&mut body).map_err(|_| 400u16)?;
    if body.len() > limit {
        return Err(413);
    }
    Ok(body)
}
