//! The persistent store: an embedded redb database under the user's cache directory.
//!
//! Values are JSON under 32-byte content-hash keys, one table per kind of record.
//! redb commits are atomic and durable, so a crash mid-write loses at most the batch
//! being written. A store that fails its integrity check on open is renamed aside
//! (`store.redb.corrupt-<unix time>`) and rebuilt, with a warning for the user.

use crate::hash::ContentHash;
use redb::{Builder, ConcurrencyMode, Database, ReadableDatabase, ReadableTable, TableDefinition};
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

/// Kinds of record the store keeps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Table {
    Forecasts,
    Measurements,
    /// Search outcomes by [`crate::search::outcome_key`].
    Searches,
}

const FORECASTS: TableDefinition<&[u8], &[u8]> = TableDefinition::new("forecasts/v1");
const MEASUREMENTS: TableDefinition<&[u8], &[u8]> = TableDefinition::new("measurements/v1");
const SEARCHES: TableDefinition<&[u8], &[u8]> = TableDefinition::new("searches/v1");
const META: TableDefinition<&str, &str> = TableDefinition::new("meta");
const SCHEMA: &str = "kforecast-store/1";

impl Table {
    fn def(self) -> TableDefinition<'static, &'static [u8], &'static [u8]> {
        match self {
            Table::Forecasts => FORECASTS,
            Table::Measurements => MEASUREMENTS,
            Table::Searches => SEARCHES,
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("cannot create the cache directory {path}: {source}")]
    Dir { path: PathBuf, source: std::io::Error },
    #[error("cannot open the store {path}: {message}")]
    Open { path: PathBuf, message: String },
    #[error("store operation failed: {0}")]
    Op(String),
}

fn op<E: std::fmt::Display>(e: E) -> StoreError {
    StoreError::Op(e.to_string())
}

/// An open store.
pub struct Store {
    db: Database,
    path: PathBuf,
}

/// The default store location: `$KFORECAST_CACHE_DIR`, else the user's cache directory.
pub fn default_dir() -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os("KFORECAST_CACHE_DIR").filter(|d| !d.is_empty()) {
        return Some(PathBuf::from(dir));
    }
    dirs::cache_dir().map(|d| d.join("kforecast"))
}

impl Store {
    /// Opens (or creates) `dir/store.redb`. Returns the store and, if the old file had to
    /// be set aside, a warning that says so.
    pub fn open_in(dir: &Path) -> Result<(Store, Option<String>), StoreError> {
        std::fs::create_dir_all(dir).map_err(|source| StoreError::Dir { path: dir.to_path_buf(), source })?;
        let path = dir.join("store.redb");
        match Self::open_file(&path) {
            Ok(store) => Ok((store, None)),
            Err(first) => {
                let stamp = SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0);
                let aside = dir.join(format!("store.redb.corrupt-{stamp}"));
                std::fs::rename(&path, &aside).map_err(|e| StoreError::Open {
                    path: path.clone(),
                    message: format!("{first}; and it could not be moved aside: {e}"),
                })?;
                let store = Self::open_file(&path)?;
                let warning = format!(
                    "kforecast: the cache store {} was unreadable ({first}); it was moved to {} and a new one was created",
                    path.display(),
                    aside.display()
                );
                Ok((store, Some(warning)))
            }
        }
    }

    fn open_file(path: &Path) -> Result<Store, StoreError> {
        let open = || {
            Builder::new()
                .set_check_integrity_on_open(true)
                .set_concurrency_mode(ConcurrencyMode::MultiWriter)
                .create(path)
        };
        // A damaged file must never take the process down: treat a panic as corruption.
        let db = match std::panic::catch_unwind(open) {
            Ok(Ok(db)) => db,
            Ok(Err(e)) => return Err(StoreError::Open { path: path.to_path_buf(), message: e.to_string() }),
            Err(_) => return Err(StoreError::Open { path: path.to_path_buf(), message: "corrupt file".to_string() }),
        };
        let store = Store { db, path: path.to_path_buf() };
        store.check_schema()?;
        Ok(store)
    }

    fn check_schema(&self) -> Result<(), StoreError> {
        let bad = |m: String| StoreError::Open { path: self.path.clone(), message: m };
        let txn = self.db.begin_write().map_err(|e| bad(e.to_string()))?;
        {
            let mut meta = txn.open_table(META).map_err(|e| bad(e.to_string()))?;
            let existing = meta.get("schema").map_err(|e| bad(e.to_string()))?.map(|v| v.value().to_string());
            match existing {
                Some(s) if s != SCHEMA => return Err(bad(format!("unknown schema {s:?}"))),
                Some(_) => {}
                None => {
                    meta.insert("schema", SCHEMA).map_err(|e| bad(e.to_string()))?;
                }
            }
            txn.open_table(FORECASTS).map_err(|e| bad(e.to_string()))?;
            txn.open_table(MEASUREMENTS).map_err(|e| bad(e.to_string()))?;
            txn.open_table(SEARCHES).map_err(|e| bad(e.to_string()))?;
        }
        txn.commit().map_err(|e| bad(e.to_string()))
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    pub fn get(&self, table: Table, key: &ContentHash) -> Result<Option<Vec<u8>>, StoreError> {
        let txn = self.db.begin_read().map_err(op)?;
        let t = txn.open_table(table.def()).map_err(op)?;
        let value = t.get(key.0.as_slice()).map_err(op)?;
        Ok(value.map(|v| v.value().to_vec()))
    }

    /// Writes a batch in one transaction.
    pub fn put_many(&self, table: Table, entries: &[(ContentHash, Vec<u8>)]) -> Result<(), StoreError> {
        let txn = self.db.begin_write().map_err(op)?;
        {
            let mut t = txn.open_table(table.def()).map_err(op)?;
            for (k, v) in entries {
                t.insert(k.0.as_slice(), v.as_slice()).map_err(op)?;
            }
        }
        txn.commit().map_err(op)
    }

    /// Every record of a table, in key order.
    pub fn all(&self, table: Table) -> Result<Vec<(ContentHash, Vec<u8>)>, StoreError> {
        let txn = self.db.begin_read().map_err(op)?;
        let t = txn.open_table(table.def()).map_err(op)?;
        let mut out = Vec::new();
        for entry in t.iter().map_err(op)? {
            let (k, v) = entry.map_err(op)?;
            let mut key = [0u8; 32];
            if k.value().len() == 32 {
                key.copy_from_slice(k.value());
                out.push((ContentHash(key), v.value().to_vec()));
            }
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn survives_reopen() {
        let dir = tempfile::tempdir().expect("tempdir");
        let key = ContentHash::of(b"k");
        {
            let (store, warning) = Store::open_in(dir.path()).expect("open");
            assert!(warning.is_none());
            store.put_many(Table::Forecasts, &[(key, b"v".to_vec())]).expect("put");
        }
        let (store, _) = Store::open_in(dir.path()).expect("reopen");
        assert_eq!(store.get(Table::Forecasts, &key).expect("get"), Some(b"v".to_vec()));
    }

    #[test]
    fn corrupt_store_is_set_aside_and_rebuilt() {
        let dir = tempfile::tempdir().expect("tempdir");
        {
            let (store, _) = Store::open_in(dir.path()).expect("open");
            store.put_many(Table::Forecasts, &[(ContentHash::of(b"k"), vec![7; 4000])]).expect("put");
        }
        let path = dir.path().join("store.redb");
        let mut bytes = std::fs::read(&path).expect("read");
        for b in bytes.iter_mut().skip(64).step_by(97) {
            *b ^= 0x5a;
        }
        std::fs::write(&path, &bytes).expect("write");
        let (store, warning) = Store::open_in(dir.path()).expect("rebuilt");
        assert!(warning.expect("warning").contains("moved to"));
        assert_eq!(store.get(Table::Forecasts, &ContentHash::of(b"k")).expect("get"), None);
        let aside = std::fs::read_dir(dir.path()).expect("dir").filter_map(Result::ok);
        assert!(aside.into_iter().any(|e| e.file_name().to_string_lossy().contains("corrupt")));
    }

    #[test]
    fn garbage_file_is_set_aside() {
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::write(dir.path().join("store.redb"), b"this is not a database at all, just text").expect("write");
        let (_, warning) = Store::open_in(dir.path()).expect("rebuilt");
        assert!(warning.is_some());
    }
}
