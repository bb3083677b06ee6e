//! The threads a branch of a CUDA kernel lets through: the fraction of lanes that work,
//! the warps that issue it and how far apart the working lanes are.

use super::access::unparenthesized;
use super::{Coef, Walker};
use tree_sitter::Node;

impl Walker<'_> {
    /// Whether a condition lets one thread of a block through: an `==` between a value that
    /// varies across the lanes and one that does not (`threadIdx.x == 0`, `tid == 0`), on its
    /// own or in a chain of `&&`.
    pub(super) fn one_thread_guard(&self, cond: Node) -> bool {
        let mut found = false;
        crate::extract::walk_preorder(cond, |n| {
            if found {
                return false;
            }
            match (n.kind(), n.child_by_field_name("operator").map(|o| o.kind())) {
                ("binary_expression", Some("==")) => {
                    let (Some(l), Some(r)) = (n.child_by_field_name("left"), n.child_by_field_name("right")) else {
                        return false;
                    };
                    let (cl, cr) = (self.coef(l, 0), self.coef(r, 0));
                    found = matches!((cl, cr), (Coef::Lin(_), Coef::Uniform) | (Coef::Uniform, Coef::Lin(_)));
                    false
                }
                ("binary_expression", Some("&&")) | ("parenthesized_expression" | "condition_clause", _) => true,
                _ => false,
            }
        });
        found
    }

    /// Fraction of threads that execute a branch, and of warps that issue it: `if (lane ==
    /// 0)` (one lane of every warp), `if (threadIdx.x == 0)` (one warp of the block),
    /// `if (tid % 8 == 0)` (one lane in 8, every warp), a range `if (tid < s)` (the first
    /// warps), or a bounds check `if (i < n)` on a thread index (a tail touches few threads).
    pub(super) fn guard_fraction(&mut self, cond: Node) -> Guard {
        let mut guard = Guard::default();
        crate::extract::walk_preorder(cond, |n| {
            if n.kind() != "binary_expression" {
                return true;
            }
            let op = n.child_by_field_name("operator").map(|o| o.kind()).unwrap_or("");
            let (Some(l), Some(r)) = (n.child_by_field_name("left"), n.child_by_field_name("right")) else {
                return true;
            };
            match op {
                "<" | "<=" => {
                    // An index that wraps (`ox = o % OW`, then `ix = ox * S + kx < W`) spans its
                    // bound in every row, not once across the grid: no fraction of the threads.
                    if self.wraps(self.text(l), 0) {
                        return false;
                    }
                    if let Coef::Lin(a) = self.coef(l, 0) {
                        let lo = self.env.eval_quiet(self.text(l)).map(|e| e.value);
                        let hi = self.env.eval(self.text(r)).map(|e| e.value);
                        if let (Some(lo), Some(hi)) = (lo, hi) {
                            // The lanes the index spans: a block's (`tid < s`) or the grid's.
                            let text = self.text(l).to_string();
                            let threads = self.index_span(&text, lo, a).unwrap_or(self.threads_x);
                            let f = ((hi - lo) / (threads * a.abs().max(1e-9))).clamp(1.0 / threads, 1.0);
                            // The lanes that pass are the first ones: whole warps, the last in part.
                            let w = ((f * threads / 32.0).ceil() / (threads / 32.0).ceil()).clamp(f, 1.0);
                            if f < guard.lanes || !guard.bound {
                                guard = Guard {
                                    lanes: f.min(guard.lanes),
                                    warps: w.min(guard.warps),
                                    gap: 1.0,
                                    bound: true,
                                };
                            }
                        }
                    }
                    false
                }
                "==" => {
                    let l = unparenthesized(l).unwrap_or(l);
                    let lt = self.text(l).replace(' ', "");
                    let is_thread_x = lt == "threadIdx.x"
                        || self.env.texts.get(&lt).is_some_and(|d| d.replace(' ', "") == "threadIdx.x");
                    let found = if is_thread_x {
                        let b = self.block_x.max(1.0);
                        Guard { lanes: 1.0 / b, warps: (32.0 / b).min(1.0), gap: 1.0, bound: false }
                    } else if let Some(k) = self.period(l) {
                        // `tid % k == 0`: one lane in k, in every warp while k ≤ 32.
                        Guard { lanes: 1.0 / k, warps: (32.0 / k).min(1.0), gap: k, bound: false }
                    } else if self.coef(l, 0) != Coef::Uniform {
                        // `lane == 0`: one lane of each warp.
                        Guard { lanes: 1.0 / 32.0, warps: 1.0, gap: 1.0, bound: false }
                    } else {
                        Guard::default()
                    };
                    if found.lanes < guard.lanes {
                        guard = found;
                    }
                    false
                }
                _ => true,
            }
        });
        guard
    }

    /// `tid % k`, `tid & (k - 1)` of an index linear in the lane: its period `k` (≥ 2).
    fn period(&self, node: Node) -> Option<f64> {
        let op = node.child_by_field_name("operator")?.kind();
        let (l, r) = (node.child_by_field_name("left")?, node.child_by_field_name("right")?);
        if !matches!(self.coef(l, 0), Coef::Lin(a) if a == 1.0) {
            return None;
        }
        let v = self.env.eval_quiet(self.text(r)).filter(|e| e.guesses == 0)?.value;
        let k = match op {
            "%" => v,
            "&" if (v + 1.0).log2().fract() == 0.0 => v + 1.0,
            _ => return None,
        };
        (k >= 2.0).then_some(k)
    }

    /// How many threads an index linear in the lane (`a` apart, `lo` at thread 0) spans:
    /// from thread 0 to the last thread of the grid along x, over `a`.
    fn index_span(&mut self, text: &str, lo: f64, a: f64) -> Option<f64> {
        let last =
            [("threadIdx.x", self.block_x - 1.0), ("blockIdx.x", (self.threads_x / self.block_x.max(1.0)) - 1.0)];
        for (k, v) in last {
            self.env.set(k, v.max(0.0));
        }
        let hi = self.env.eval_quiet(text).map(|e| e.value);
        for (k, _) in last {
            self.env.set(k, 0.0);
        }
        let span = (hi? - lo) / a.abs().max(1e-9) + 1.0;
        (span >= 1.0 && span.is_finite()).then_some(span.min(self.threads_x))
    }

    /// Whether `text` or a local it is computed from takes a remainder (`o % OW`).
    pub(super) fn wraps(&self, text: &str, depth: usize) -> bool {
        text.contains('%')
            || (depth < 4
                && crate::extract::words(text)
                    .any(|w| self.env.texts.get(w).is_some_and(|def| self.wraps(def, depth + 1))))
    }
}

/// The threads a branch's guard lets through (see `Walker::guard_fraction`).
#[derive(Clone, Copy, Debug)]
pub(super) struct Guard {
    /// Fraction of the lanes that pass.
    pub lanes: f64,
    /// Fraction of the warps with a lane that passes (they issue the branch).
    pub warps: f64,
    /// Lanes apart of those that pass (`tid % k == 0`: k).
    pub gap: f64,
    /// A bounds check on a thread index (`i < n`, `base + 8 <= n`): the threads that fail
    /// it are the grid's last ones.
    pub bound: bool,
}

impl Default for Guard {
    fn default() -> Self {
        Guard { lanes: 1.0, warps: 1.0, gap: 1.0, bound: false }
    }
}

impl Guard {
    /// Fraction of the threads that take the `else` of a bounds check most threads pass
    /// (the grid's tail: at least one thread of `threads`), if this guard is one.
    pub fn tail(&self, threads: f64) -> Option<f64> {
        (self.bound && self.lanes >= 0.9).then(|| (1.0 - self.lanes).max(1.0 / threads.max(1.0)))
    }
}
