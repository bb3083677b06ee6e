//! The team's shared store: measurements by content hash, kept by a worker started with
//! `--store DIR` (or by a farm in front of one), so a job one developer measured is free
//! for the next. The keys and records are the local store's: [`measurement_key`] of the
//! job, an [`Example`] as JSON.
//!
//! - `GET /v1/store/<key>`: the record (200), or 404 when it is not there.
//! - `PUT /v1/store/<key>`: keeps the record; 400 unless the key is its job's and it is
//!   a measurement worth keeping (`ok` or `wrong_result`).
//!
//! A worker without `--store` answers 501 to both; the client then stops asking it.

use super::pool::{Endpoint, WorkerPool};
use crate::cli::verify::{measurement_key, Example};
use kforecast_core::hash::ContentHash;
use kforecast_core::measure::protocol::Status;
use kforecast_core::store::{Store, Table};
use std::sync::atomic::Ordering;
use std::time::Duration;

/// How long one store request may take (a miss must not hold up the job).
const STORE_TIMEOUT: Duration = Duration::from_secs(10);

/// A key as the path names it: 64 hex digits.
pub fn parse_key(s: &str) -> Option<ContentHash> {
    if s.len() != 64 || !s.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    let mut key = [0u8; 32];
    for (i, byte) in key.iter_mut().enumerate() {
        *byte = u8::from_str_radix(s.get(2 * i..2 * i + 2)?, 16).ok()?;
    }
    Some(ContentHash(key))
}

fn error(status: u16, message: &str) -> (u16, String) {
    (status, serde_json::json!({ "error": message }).to_string())
}

const NO_STORE: &str = "this worker keeps no shared store (start it with --store DIR)";
const BAD_KEY: &str = "the key is not 64 hex digits";

/// `GET /v1/store/<key>` on a worker.
pub fn serve_get(store: Option<&Store>, key: &str) -> (u16, String) {
    let Some(store) = store else { return error(501, NO_STORE) };
    let Some(key) = parse_key(key) else { return error(400, BAD_KEY) };
    match store.get(Table::Measurements, &key) {
        Ok(Some(bytes)) => (200, String::from_utf8_lossy(&bytes).into_owned()),
        Ok(None) => error(404, "not stored"),
        Err(e) => error(500, &e.to_string()),
    }
}

/// `PUT /v1/store/<key>` on a worker.
pub fn serve_put(store: Option<&Store>, key: &str, body: &[u8]) -> (u16, String) {
    let Some(store) = store else { return error(501, NO_STORE) };
    let Some(key) = parse_key(key) else { return error(400, BAD_KEY) };
    let example: Example = match serde_json::from_slice(body) {
        Ok(e) => e,
        Err(e) => return error(400, &format!("the body is not a stored measurement: {e}")),
    };
    if measurement_key(&example.request) != key {
        return error(400, "the key is not the one of the record's job");
    }
    if !matches!(example.measurement.status, Status::Ok | Status::WrongResult) {
        return error(400, "only measurements (ok or wrong_result) are kept");
    }
    match store.put_many(Table::Measurements, &[(key, body.to_vec())]) {
        Ok(()) => (200, serde_json::json!({ "stored": key.to_string() }).to_string()),
        Err(e) => error(500, &e.to_string()),
    }
}

impl WorkerPool {
    /// The record under `key` in the first remote worker's shared store that has it.
    pub fn shared_get(&self, key: &ContentHash) -> Option<Example> {
        self.remote_stores().find_map(|(url, token, http, storeless)| {
            let mut r = http.get(format!("{url}/v1/store/{key}")).timeout(STORE_TIMEOUT);
            if let Some(t) = token {
                r = r.bearer_auth(t);
            }
            let resp = r.send().map_err(|e| tracing::debug!("shared store {url}: {e}")).ok()?;
            match resp.status().as_u16() {
                200 => resp.json::<Example>().map_err(|e| tracing::warn!("shared store {url}: {e}")).ok(),
                501 => {
                    storeless.store(true, Ordering::Relaxed);
                    None
                }
                _ => None,
            }
        })
    }

    /// Keeps a record in every remote worker's shared store (best effort: a store that
    /// does not answer only costs the team a measurement).
    pub fn shared_put(&self, key: &ContentHash, example: &Example) {
        let Ok(body) = serde_json::to_vec(example) else { return };
        for (url, token, http, storeless) in self.remote_stores() {
            let mut r = http.put(format!("{url}/v1/store/{key}")).timeout(STORE_TIMEOUT).body(body.clone());
            r = r.header("Content-Type", "application/json");
            if let Some(t) = token {
                r = r.bearer_auth(t);
            }
            match r.send().map(|r| r.status().as_u16()) {
                Ok(200) => {}
                Ok(501) => storeless.store(true, Ordering::Relaxed),
                Ok(code) => tracing::warn!("shared store {url} refused a measurement: HTTP {code}"),
                Err(e) => tracing::debug!("shared store {url}: {e}"),
            }
        }
    }

    /// Remote workers not known to keep no store.
    fn remote_stores(
        &self,
    ) -> impl Iterator<Item = (&str, Option<&str>, &reqwest::blocking::Client, &std::sync::atomic::AtomicBool)> {
        self.endpoints.iter().filter_map(|e| match e {
            Endpoint::Remote { url, token, client, storeless, .. } if !storeless.load(Ordering::Relaxed) => {
                Some((url.as_str(), token.as_deref(), client.get().ok()?, storeless))
            }
            _ => None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_64_hex_digits() {
        let k = ContentHash::of(b"x");
        assert_eq!(parse_key(&k.to_string()), Some(k));
        assert_eq!(parse_key("abc"), None);
        assert_eq!(parse_key(&"g".repeat(64)), None);
        assert_eq!(parse_key(&"é".repeat(32)), None);
    }
}
