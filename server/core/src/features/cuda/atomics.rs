//! A CUDA kernel's atomics, costed by the contention their target shows: one address for
//! every thread (serialised at L2; a warp's integer adds combined first), an address per
//! lane (free of contention), a data-dependent address among few (a histogram's bins:
//! serialised per bin), or shared memory (on chip).

use super::access::array_of;
use super::{vector_width, Coef, Walker};
use tree_sitter::Node;

/// Atomics whose integer operands a warp combines before it sends one to memory.
const COMBINED_ATOMICS: [&str; 7] =
    ["atomicAdd", "atomicSub", "atomicMin", "atomicMax", "atomicAnd", "atomicOr", "atomicXor"];

/// Names that give how many bins (buckets) an array of counts has.
const BIN_COUNTS: [&str; 9] =
    ["bins", "num_bins", "nbins", "n_bins", "bin_count", "num_buckets", "buckets", "nbuckets", "n_buckets"];

/// Bytes of L2 that serve one atomic at a time: a sector.
const ATOMIC_UNIT: f64 = 32.0;

impl Walker<'_> {
    /// An `atomic…(target, …)` call run `weight` times per thread.
    pub(super) fn atomic(&mut self, node: Node, short: &str, weight: f64) {
        // The atomic's target without its `&`: `&a[i]` → `a[i]`.
        let target = node.child_by_field_name("arguments").and_then(|a| a.named_child(0)).map(|t| {
            if t.kind() == "pointer_expression" {
                t.named_child(0).unwrap_or(t)
            } else {
                t
            }
        });
        let Some(target) = target else { return };
        let (array, index) = self.atomic_target(target);
        let coef = match (target.kind(), index) {
            ("identifier", _) => Coef::Uniform,
            (_, Some(i)) => self.coef(i, 0),
            ("subscript_expression", None) => Coef::Uniform,
            _ => self.coef(target, 0),
        };
        // A pointer derived per lane (`o = out + index[row] * dim`) moves the target with it.
        let coef = match (target.kind(), self.vars.get(array.as_str())) {
            ("identifier", _) => coef,
            (_, Some(pointer)) => pointer.add(coef),
            _ => coef,
        };
        // A 16-bit atomic (`half`, `bfloat16`) takes twice a 32-bit one's time (`half2`).
        let width = self.global.get(array.as_str()).copied().unwrap_or_else(|| vector_width(self.text(target)));
        let weight = if width == 0.5 { 2.0 * weight } else { weight };
        let contended = coef == Coef::Uniform;
        if self.shared.contains_key(array.as_str()) {
            match contended {
                true => self.acc.atomics += weight,
                false => self.acc.shared_atomics += weight,
            }
            return;
        }
        match coef {
            // Integer adds, minima, maxima and bitwise operations of a warp on one address
            // are combined into one (the compiler reduces them in the warp first).
            Coef::Uniform if COMBINED_ATOMICS.contains(&short) && self.integers.contains(array.as_str()) => {
                self.acc.contended += weight * (self.issue / 32.0).min(1.0);
            }
            Coef::Uniform => self.acc.contended += weight,
            // An address read from the data (`hist[data[i]]`) among the few an array of bins
            // has: each bin's sector takes its atomics one at a time, the sectors in parallel.
            Coef::Unknown => match self.bin_count() {
                Some(bins) => {
                    let width = self.global.get(array.as_str()).copied().unwrap_or(1.0);
                    let sectors = (bins * 4.0 * width / ATOMIC_UNIT).max(1.0);
                    if self.rates.contended_atomic / sectors > self.rates.atomic {
                        self.acc.contended += weight / sectors;
                    } else {
                        self.acc.atomics += weight;
                    }
                }
                None => self.acc.atomics += weight,
            },
            _ => self.acc.atomics += weight,
        }
    }

    /// The array an atomic's target lies in and the index into it: `a[i]` → (a, i),
    /// `a + i` → (a, i), `a` → (a, none).
    fn atomic_target<'t>(&self, target: Node<'t>) -> (String, Option<Node<'t>>) {
        match target.kind() {
            "subscript_expression" => {
                let index = target.child_by_field_name("indices").and_then(|i| i.named_child(0));
                (self.text(array_of(target)).to_string(), index)
            }
            "binary_expression" if target.child_by_field_name("operator").is_some_and(|o| o.kind() == "+") => {
                let (l, r) = (target.child_by_field_name("left"), target.child_by_field_name("right"));
                let pointer = |n: Option<Node<'t>>| -> Option<Node<'t>> {
                    n.filter(|n| self.global.contains_key(self.text(*n)) || self.shared.contains_key(self.text(*n)))
                };
                match (pointer(l), pointer(r)) {
                    (Some(a), _) => (self.text(a).to_string(), r),
                    (_, Some(a)) => (self.text(a).to_string(), l),
                    _ => (self.text(target).to_string(), None),
                }
            }
            _ => (self.text(array_of(target)).to_string(), None),
        }
    }

    /// How many bins the kernel's counts have, where a name tells (`num_bins`, `BINS`).
    fn bin_count(&self) -> Option<f64> {
        let names = self.env.texts.keys().chain(self.env.values.keys());
        names
            .filter(|n| BIN_COUNTS.contains(&n.to_ascii_lowercase().as_str()))
            .filter_map(|n| self.env.eval_quiet(n).filter(|e| e.guesses == 0).map(|e| e.value))
            .find(|v| *v >= 1.0)
    }
}
