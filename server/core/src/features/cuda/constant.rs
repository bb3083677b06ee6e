//! `__constant__` arrays: the constant cache serves a warp one address at a time, so a read
//! whose lanes ask for different elements (a lookup table indexed by data, weights indexed
//! by the thread) is serialised over as many addresses as the lanes ask for; a read every
//! lane makes at one address (weights indexed by a loop variable) is a broadcast and free.

use super::{Coef, Walker};
use std::collections::HashMap;

/// The file's `__constant__` arrays and their element counts (256 where the count is not a
/// number: a typical lookup table).
pub(super) fn constant_arrays(helpers: &[crate::kernel::Helper]) -> HashMap<String, f64> {
    helpers
        .iter()
        .filter(|h| h.kind == crate::kernel::HelperKind::Constant && h.text.contains("__constant__"))
        .filter_map(|h| {
            let (_, after) = h.text.split_once(h.name.as_str())?;
            let count = after.trim_start().strip_prefix('[')?.split(']').next()?;
            Some((h.name.clone(), count.trim().parse::<f64>().unwrap_or(256.0).max(1.0)))
        })
        .collect()
}

/// The fraction of a warp's 32 lanes the constant cache serves one after another for a
/// read indexed as `coef` in a table of `entries`: none for a lane-uniform index, all for
/// one linear in the lane, the expected distinct entries of 32 random draws otherwise.
pub(super) fn serialised(coef: Coef, entries: f64) -> f64 {
    match coef {
        Coef::Uniform => 0.0,
        Coef::Lin(0.0) => 0.0,
        Coef::Lin(a) => (32.0 / a.abs().max(1.0)).min(entries).min(32.0) / 32.0,
        Coef::Strided => 1.0,
        Coef::Unknown => {
            let distinct = entries * (1.0 - (1.0 - 1.0 / entries).powi(32));
            distinct.min(32.0) / 32.0
        }
    }
}

impl Walker<'_> {
    /// A read of `__constant__` array `array` (of `entries`) at `index`, `weight` times per thread.
    pub(super) fn constant_read(&mut self, index: Option<tree_sitter::Node>, entries: f64, weight: f64) {
        let coef = index.map_or(Coef::Uniform, |i| self.coef(i, 0));
        // Each serialised address is one more pass of the warp: lanes that ask are served
        // one by one, however few of the lanes work.
        self.acc.constant_serial += self.issued(weight) * serialised(coef, entries);
    }
}
