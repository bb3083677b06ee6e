//! What one torch operation costs: its tensors' elements (from the launch's names, or the
//! size assumed for the program), the bytes it reads and writes, and the arithmetic its
//! [`Work`] does on them.

use super::{Size, TorchOp};
use crate::features::cost::{Cost, Rates};
use crate::features::expr::Env;
use crate::features::{Features, Profile};
use crate::kernel::Language;

/// The arithmetic a torch operation does.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Work {
    /// Flops per element of the largest tensor it touches.
    PerElement(f64),
    /// A matrix product: 2·elements^1.5 of its first operand (square operands), on tensor
    /// cores.
    Matmul,
    /// A factorisation or solve of its first operand's (batched) matrices: this many flops
    /// per element of it times the matrices' order n (its last dimension; the square root of
    /// its elements where its shape is unknown), in fp32.
    Factor(f64),
    /// A sort along the last dimension: a radix sort's passes, log2 of the row's length
    /// compare-and-moves per element.
    Sort,
    /// An operation nothing here knows: its launch counts, its work does not (a guess).
    Unknown,
}

/// Sustained fraction of the fp32 peak a batched factorisation or solve reaches (panels
/// are latency-bound; the trailing updates are matrix products).
const FACTOR_EFFICIENCY: f64 = 0.25;

/// A torch op as one launch's profile: each tensor's elements from `env` (`x.numel()`), or
/// `unknown` where nothing gives them; bytes at `elem` bytes each, read and written. An
/// op of unknown work costs its launch alone and counts as a guess; one on a slice whose
/// bounds are known only at run time is costed at the whole tensor, a guess too.
pub fn profile(op: &TorchOp, env: &Env, elem: f64, unknown: f64, rates: &Rates) -> Profile {
    if op.work == Work::Unknown {
        let features = Features { launches: 1.0, ..Features::default() };
        let cost = Cost { overhead: rates.launch, efficiency: 0.9, ..Cost::default() }.combine();
        return Profile { language: Language::Triton, features, cost, guesses: 1, assumed: Vec::new() };
    }
    let size = |s: &Size| elements(s, env, unknown, 0);
    let reads: Vec<f64> = op.reads.iter().map(size).collect();
    let written = size(&op.writes);
    let read: f64 = reads.iter().sum();
    let largest = reads.iter().copied().fold(written, f64::max).max(1.0);
    let first = reads.first().copied().unwrap_or(written);
    let matmul = op.work == Work::Matmul;
    let flops = match op.work {
        Work::Matmul => 2.0 * first.powf(1.5),
        Work::PerElement(per) => per * largest,
        Work::Factor(per) => {
            let order = op.reads.first().map_or(first.sqrt(), |s| order(s, env, first));
            per * first * order
        }
        Work::Sort => first * first.min(order_of_rows(op, env, first)).max(2.0).log2(),
        Work::Unknown => 0.0,
    };
    let (load, store) = (read * elem, written * elem);
    let features = Features {
        load_bytes: load,
        store_bytes: store,
        scalar_ops: if matmul { 0.0 } else { flops },
        tensor_flops: if matmul { flops } else { 0.0 },
        global_passes: (read + written) / largest,
        launches: 1.0,
        ..Features::default()
    };
    let compute = match op.work {
        Work::Matmul => flops * rates.tensor_flop * 4.0,
        Work::Factor(_) => flops * rates.scalar_op / FACTOR_EFFICIENCY,
        _ => flops * rates.scalar_op,
    };
    let cost =
        Cost { memory: (load + store) / 0.9, compute, efficiency: 0.9, overhead: rates.launch, ..Cost::default() }
            .combine();
    let guesses = u32::from(op.reads.iter().chain([&op.writes]).any(partial));
    Profile { language: Language::Triton, features, cost, guesses, assumed: Vec::new() }
}

/// The order of the square matrices a tensor of `count` elements holds: its last dimension
/// where the launch gives it (a slice's, its tensor's), else as if it were one matrix.
fn order(size: &Size, env: &Env, count: f64) -> f64 {
    let last = match size {
        Size::Part(inner) => return order(inner, env, count),
        Size::Of(name) => env.eval_quiet(&format!("{name}.shape[-1]")).filter(|e| e.guesses == 0).map(|e| e.value),
        _ => None,
    };
    last.filter(|n| *n >= 1.0 && *n * *n <= count * 1.01).unwrap_or_else(|| count.sqrt()).max(1.0)
}

/// The length of the rows a sort sorts: its operand's last dimension, else all of it.
fn order_of_rows(op: &TorchOp, env: &Env, count: f64) -> f64 {
    match op.reads.first() {
        Some(Size::Of(name)) => env
            .eval_quiet(&format!("{name}.shape[-1]"))
            .filter(|e| e.guesses == 0 && e.value >= 1.0)
            .map_or(count, |e| e.value),
        _ => count,
    }
}

/// Whether `size` is or holds a slice of unknown bounds.
fn partial(size: &Size) -> bool {
    match size {
        Size::Part(_) => true,
        Size::Max(v) | Size::Sum(v) => v.iter().any(partial),
        Size::Reduced(inner) => partial(inner),
        _ => false,
    }
}

/// The elements of `size` (at least one).
pub(super) fn elements(size: &Size, env: &Env, unknown: f64, depth: usize) -> f64 {
    let exact = |t: &str| env.eval_quiet(t).filter(|e| e.guesses == 0).map(|e| e.value);
    let each = |v: &[Size]| v.iter().map(|s| elements(s, env, unknown, depth + 1)).collect::<Vec<f64>>();
    let n = match size {
        _ if depth > 16 => unknown,
        Size::Of(name) => exact(&format!("{name}.numel()")).unwrap_or(unknown),
        Size::Fill(shape) => exact(shape).unwrap_or(unknown),
        Size::Max(v) => each(v).into_iter().fold(1.0, f64::max),
        Size::Sum(v) => each(v).into_iter().sum(),
        Size::Reduced(inner) => elements(inner, env, unknown, depth + 1).sqrt(),
        Size::One => 1.0,
        Size::Part(inner) => elements(inner, env, unknown, depth + 1),
        Size::Unknown => unknown,
    };
    n.max(1.0)
}
