//! Content-hash cache of forecasts: an in-memory LRU in front of the disk [`Store`].
//!
//! Reads go memory → disk; writes go to memory at once and to disk on a background
//! thread in batches, so the editor never waits on an fsync.

use crate::forecast::{Forecast, Forecaster};
use crate::hash::{ContentHash, Hasher};
use crate::kernel::Kernel;
use crate::store::{Store, Table};
use lru::LruCache;
use std::num::NonZeroUsize;
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

/// Key of a forecast: both versions' identities (normalised source, helpers, launch and
/// size context), the device, the forecaster's name and version, and kforecast's version
/// (a release reads code differently: forecasts of the old one are not served).
pub fn forecast_key(base: &Kernel, candidate: &Kernel, device: &str, forecaster: &str) -> ContentHash {
    Hasher::new()
        .str("forecast")
        .str(env!("CARGO_PKG_VERSION"))
        .hash(&base.identity())
        .hash(&candidate.identity())
        .str(device)
        .str(forecaster)
        .finish()
}

enum Write {
    Put(Table, ContentHash, Vec<u8>),
    Flush(Sender<()>),
}

/// Counters for the cache's effectiveness.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CacheStats {
    pub memory_hits: u64,
    pub disk_hits: u64,
    pub misses: u64,
}

pub struct ForecastCache {
    memory: Mutex<LruCache<ContentHash, Forecast>>,
    store: Option<Arc<Store>>,
    writer: Option<(Sender<Write>, JoinHandle<()>)>,
    stats: Mutex<CacheStats>,
}

impl ForecastCache {
    /// A cache with `capacity` forecasts in memory and, if given, a disk store behind it.
    pub fn new(capacity: usize, store: Option<Store>) -> Self {
        let store = store.map(Arc::new);
        let writer = store.as_ref().and_then(|s| {
            let (tx, rx) = mpsc::channel();
            let s = s.clone();
            std::thread::Builder::new()
                .name("kforecast-store".into())
                .spawn(move || write_loop(&s, rx))
                .ok()
                .map(|h| (tx, h))
        });
        let capacity = NonZeroUsize::new(capacity.max(1)).unwrap_or(NonZeroUsize::MIN);
        Self { memory: Mutex::new(LruCache::new(capacity)), store, writer, stats: Mutex::new(CacheStats::default()) }
    }

    pub fn store(&self) -> Option<&Store> {
        self.store.as_deref()
    }

    /// The store, shared (for work on other threads).
    pub fn store_arc(&self) -> Option<Arc<Store>> {
        self.store.clone()
    }

    pub fn stats(&self) -> CacheStats {
        self.stats.lock().map(|s| *s).unwrap_or_default()
    }

    fn count(&self, f: impl FnOnce(&mut CacheStats)) {
        if let Ok(mut s) = self.stats.lock() {
            f(&mut s);
        }
    }

    pub fn get(&self, key: &ContentHash) -> Option<Forecast> {
        if let Some(f) = self.memory.lock().ok().and_then(|mut m| m.get(key).cloned()) {
            self.count(|s| s.memory_hits += 1);
            return Some(f);
        }
        let from_disk = self
            .store
            .as_ref()
            .and_then(|s| s.get(Table::Forecasts, key).ok().flatten())
            .and_then(|bytes| serde_json::from_slice::<Forecast>(&bytes).ok());
        match from_disk {
            Some(f) => {
                self.count(|s| s.disk_hits += 1);
                if let Ok(mut m) = self.memory.lock() {
                    m.put(*key, f.clone());
                }
                Some(f)
            }
            None => {
                self.count(|s| s.misses += 1);
                None
            }
        }
    }

    pub fn put(&self, key: ContentHash, forecast: &Forecast) {
        if let Ok(mut m) = self.memory.lock() {
            m.put(key, forecast.clone());
        }
        if let (Some((tx, _)), Ok(bytes)) = (&self.writer, serde_json::to_vec(forecast)) {
            let _ = tx.send(Write::Put(Table::Forecasts, key, bytes));
        }
    }

    /// Forecast of a pair, from the cache or computed and stored.
    pub fn forecast(&self, forecaster: &dyn Forecaster, device: &str, base: &Kernel, candidate: &Kernel) -> Forecast {
        let key = forecast_key(base, candidate, device, forecaster.id());
        if let Some(f) = self.get(&key) {
            return f;
        }
        let f = forecaster.forecast(base, candidate);
        self.put(key, &f);
        f
    }

    /// Waits until everything written so far is on disk.
    pub fn flush(&self) {
        if let Some((tx, _)) = &self.writer {
            let (done_tx, done_rx) = mpsc::channel();
            if tx.send(Write::Flush(done_tx)).is_ok() {
                let _ = done_rx.recv_timeout(Duration::from_secs(10));
            }
        }
    }
}

impl Drop for ForecastCache {
    fn drop(&mut self) {
        if let Some((tx, handle)) = self.writer.take() {
            drop(tx);
            let _ = handle.join();
        }
    }
}

fn write_loop(store: &Store, rx: Receiver<Write>) {
    let mut batch: Vec<(Table, ContentHash, Vec<u8>)> = Vec::new();
    let mut waiting: Vec<Sender<()>> = Vec::new();
    loop {
        let first = match rx.recv() {
            Ok(w) => w,
            Err(_) => break,
        };
        let mut next = Some(first);
        while let Some(w) = next.take() {
            match w {
                Write::Put(t, k, v) => batch.push((t, k, v)),
                Write::Flush(done) => waiting.push(done),
            }
            if batch.len() < 512 {
                next = rx.recv_timeout(Duration::from_millis(20)).ok();
            }
        }
        commit(store, &mut batch);
        for w in waiting.drain(..) {
            let _ = w.send(());
        }
    }
    commit(store, &mut batch);
}

fn commit(store: &Store, batch: &mut Vec<(Table, ContentHash, Vec<u8>)>) {
    for table in [Table::Forecasts, Table::Measurements] {
        let entries: Vec<(ContentHash, Vec<u8>)> =
            batch.iter().filter(|(t, _, _)| *t == table).map(|(_, k, v)| (*k, v.clone())).collect();
        if entries.is_empty() {
            continue;
        }
        if let Err(e) = store.put_many(table, &entries) {
            tracing::warn!("could not write {} records to the store: {e}", entries.len());
        }
    }
    batch.clear();
}
