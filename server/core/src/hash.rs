//! Content hashes: a 32-byte BLAKE3 digest, printed as hex.

use serde::{Deserialize, Serialize};
use std::fmt;

/// A content hash.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct ContentHash(pub [u8; 32]);

impl ContentHash {
    /// Hash of one byte string.
    pub fn of(bytes: &[u8]) -> Self {
        Self(*blake3::hash(bytes).as_bytes())
    }

    /// Short hex prefix for logs and labels.
    pub fn short(&self) -> String {
        self.0[..6].iter().map(|b| format!("{b:02x}")).collect()
    }
}

impl fmt::Debug for ContentHash {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "#{}", self.short())
    }
}

impl fmt::Display for ContentHash {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for b in self.0 {
            write!(f, "{b:02x}")?;
        }
        Ok(())
    }
}

/// Incremental hasher with length-prefixed fields, so ("ab","c") and ("a","bc") differ.
pub struct Hasher(blake3::Hasher);

impl Default for Hasher {
    fn default() -> Self {
        Self::new()
    }
}

impl Hasher {
    pub fn new() -> Self {
        Self(blake3::Hasher::new())
    }

    pub fn field(&mut self, bytes: &[u8]) -> &mut Self {
        self.0.update(&(bytes.len() as u64).to_le_bytes());
        self.0.update(bytes);
        self
    }

    pub fn str(&mut self, s: &str) -> &mut Self {
        self.field(s.as_bytes())
    }

    /// A field given in pieces (the chunks of a rope slice): hashes like [`Hasher::str`]
    /// of the pieces joined.
    pub fn pieces<'a>(&mut self, len: usize, pieces: impl IntoIterator<Item = &'a str>) -> &mut Self {
        self.0.update(&(len as u64).to_le_bytes());
        for p in pieces {
            self.0.update(p.as_bytes());
        }
        self
    }

    pub fn hash(&mut self, h: &ContentHash) -> &mut Self {
        self.field(&h.0)
    }

    pub fn finish(&self) -> ContentHash {
        ContentHash(*self.0.finalize().as_bytes())
    }
}
