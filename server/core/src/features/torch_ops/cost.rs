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
    /// A host call that waits for the GPU or the driver (`cudaDeviceSynchronize()`, a
    /// tensor's `.item()`, `cudaMalloc`): no work on the GPU, [`HOST_SYNC`] of latency.
    HostSync,
    /// A library GEMM (`cublasSgemm`) whose operands are sized from its m, n and k: reads
    /// M×K and K×N, writes M×N, so 2·M·N·K = 2·√(|A|·|B|·|C|) flops, costed as [`Work::Matmul`].
    Gemm,
    /// A matrix product (cuBLAS): 2·M·K·N flops from its operands' shapes where the launch
    /// gives them, else 2·elements^1.5 of its first operand (square operands); on tensor
    /// cores for 16-bit elements, at the fp32 rate for 32-bit ones.
    Matmul,
    /// `F.scaled_dot_product_attention(q, k, v)` (a fused flash kernel): 4·|q|·L_k flops,
    /// L_k the keys' length (`k.shape[-2]`, else a head's width of 64 and 32 batch × heads
    /// taken for its shape), each tensor read once and the output written once.
    Attention,
    /// A factorisation or solve of its first operand's (batched) matrices: this many flops
    /// per element of it times the matrices' order n (its last dimension; the square root of
    /// its elements where its shape is unknown), in fp32.
    Factor(f64),
    /// A sort along the last dimension: a radix sort's passes, log2 of the row's length
    /// compare-and-moves per element.
    Sort,
    /// A library convolution (cuDNN): this many flops per element of the largest tensor it
    /// touches, on tensor cores (TF32, cuDNN's default, for 32-bit elements).
    Conv(f64),
    /// A dense layer (`nn.Linear`, a cuBLAS matrix product): this many flops per element of
    /// its input (2 × its output features), at the rate of [`Work::Matmul`].
    Dense(f64),
    /// An operation nothing here knows: its launch counts, its work does not (a guess).
    Unknown,
    /// A kernel launched from elsewhere (imported, not in the file): one pass over its
    /// tensors, a flop per element, counted as a guess.
    Launch,
}

/// What a host sync costs, in launch latencies: about 10 µs on an H100 host (a
/// synchronisation's round trip, a small copy to the host, a driver allocation), where a
/// launch is 3 µs.
pub const HOST_SYNC: f64 = 3.0;

/// Fraction of the peak a library kernel (cuBLAS, a flash attention kernel) sustains.
const LIBRARY_EFFICIENCY: f64 = 0.7;

/// Elements one block of torch's element-wise kernels covers: 128 threads, 4 each.
const ELEMENTS_PER_BLOCK: f64 = 512.0;

/// Sustained fraction of the fp32 peak a batched factorisation or solve reaches (panels
/// are latency-bound; the trailing updates are matrix products).
const FACTOR_EFFICIENCY: f64 = 0.25;

/// A torch op as one launch's profile: each tensor's elements from `env` (`x.numel()`), or
/// `unknown` where nothing gives them; bytes at `elem` bytes each, read and written. An
/// op of unknown work costs its launch alone and counts as a guess; one on a slice whose
/// bounds are known only at run time is costed at the whole tensor, a guess too.
pub fn profile(op: &TorchOp, env: &Env, elem: f64, unknown: f64, rates: &Rates) -> Profile {
    if op.work == Work::HostSync {
        // A round trip to the host: the GPU idles for it, as for a launch's latency.
        let features = Features { launches: 1.0, ..Features::default() };
        let overhead = HOST_SYNC * rates.launch;
        let cost = Cost { overhead, efficiency: 0.9, ..Cost::default() }.combine();
        return Profile { language: Language::Cuda, features, cost, guesses: 0, assumed: Vec::new() };
    }
    if op.work == Work::Unknown {
        let features = Features { launches: 1.0, ..Features::default() };
        let cost = Cost { efficiency: 0.9, ..Cost::default() }.combine();
        return Profile { language: Language::Triton, features, cost, guesses: 1, assumed: Vec::new() };
    }
    let size = |s: &Size| elements(s, env, unknown, 0);
    let reads: Vec<f64> = op.reads.iter().map(size).collect();
    let written = size(&op.writes);
    let read: f64 = reads.iter().sum();
    let largest = reads.iter().copied().fold(written, f64::max).max(1.0);
    let first = reads.first().copied().unwrap_or(written);
    let matmul = matches!(op.work, Work::Matmul | Work::Gemm | Work::Attention | Work::Conv(_) | Work::Dense(_));
    let flops = match op.work {
        Work::Matmul => matmul_flops(op, env, first, unknown),
        Work::Gemm => 2.0 * (first * reads.get(1).copied().unwrap_or(first) * written).sqrt(),
        Work::Attention => 4.0 * first * keys_length(op, env, unknown),
        Work::PerElement(per) | Work::Conv(per) => per * largest,
        Work::Dense(per) => per * first,
        Work::Launch => largest,
        Work::Factor(per) => {
            let order = op.reads.first().map_or(first.sqrt(), |s| order(s, env, first));
            per * first * order
        }
        Work::Sort => first * first.min(order_of_rows(op, env, first)).max(2.0).log2(),
        Work::Unknown | Work::HostSync => 0.0,
    };
    let (load, store) = (read * elem, written * elem);
    let features = Features {
        load_bytes: load,
        store_bytes: store,
        scalar_ops: if matmul { 0.0 } else { flops },
        tensor_flops: if matmul { flops } else { 0.0 },
        // One launch streams its tensors once, as one kernel pass does: a chain of
        // launches is as many passes.
        global_passes: 1.0,
        launches: 1.0,
        ..shape(largest, rates)
    };
    let compute = match op.work {
        // Library kernels run near the hardware's peak: tensor cores for 16-bit elements,
        // the fp32 pipes (torch's default: no TF32) for 32-bit ones.
        Work::Matmul | Work::Gemm | Work::Attention | Work::Dense(_) if elem <= 2.0 => {
            flops * rates.tensor_flop / LIBRARY_EFFICIENCY
        }
        Work::Matmul | Work::Gemm | Work::Attention | Work::Dense(_) => flops * rates.scalar_op / LIBRARY_EFFICIENCY,
        Work::Conv(_) if elem <= 2.0 => flops * rates.tensor_flop / LIBRARY_EFFICIENCY,
        Work::Conv(_) => 2.0 * flops * rates.tensor_flop / LIBRARY_EFFICIENCY,
        Work::Factor(_) => flops * rates.scalar_op / FACTOR_EFFICIENCY,
        _ => flops * rates.scalar_op,
    };
    // Scheduling its blocks, as a kernel's; the launch itself is counted where a program's
    // launches are added up.
    let overhead = features.blocks * rates.block_overhead;
    let cost = Cost { memory: (load + store) / 0.9, compute, efficiency: 0.9, overhead, ..Cost::default() }.combine();
    let guesses = u32::from(op.reads.iter().chain([&op.writes]).any(partial) || op.work == Work::Launch);
    Profile { language: Language::Triton, features, cost, guesses, assumed: Vec::new() }
}

/// The launch shape of torch's kernel for `elements` elements: blocks of 128 threads, each
/// thread 4 elements in 16-byte accesses, as many blocks as that takes.
pub fn shape(elements: f64, rates: &Rates) -> Features {
    let blocks = (elements / ELEMENTS_PER_BLOCK).ceil().max(1.0);
    let resident = rates.sms * (rates.max_threads_per_sm / 128.0).min(rates.max_blocks_per_sm);
    Features {
        vector_width: 4.0,
        block_threads: 128.0,
        blocks,
        occupancy: 1.0,
        sm_fill: (blocks / rates.sms).min(1.0),
        waves: blocks / resident,
        ..Features::default()
    }
}

/// A matrix product's flops: an einsum's from its equation, else 2·M·K·N, the batch
/// included, from its operands' shapes where the launch gives them (`linear`'s weight is
/// N×K), else from its operands' element counts (the smaller one square).
fn matmul_flops(op: &TorchOp, env: &Env, first: f64, unknown: f64) -> f64 {
    // An einsum's work is its iteration space, from its equation.
    if let Size::Einsum(operands, equation) = &op.writes {
        if let Some((_, space)) = einsum_space(operands, equation, env, unknown, 0) {
            return 2.0 * space;
        }
    }
    let dim = |s: Option<&Size>, i: i64| {
        let name = shaped(s?)?;
        env.eval_quiet(&format!("{name}.shape[{i}]")).filter(|e| e.guesses == 0 && e.value >= 1.0).map(|e| e.value)
    };
    let (a, b) = (op.reads.first(), op.reads.get(1));
    let linear = op.name.ends_with("linear");
    let k = dim(a, -1);
    let n = if linear { dim(b, -2) } else { dim(b, -1) };
    match (k, n) {
        (Some(_), Some(n)) => 2.0 * first * n,
        _ => {
            // Shapes unknown: the smaller operand is taken as square (K × N, K = N), the larger
            // as M × K, so 2·M·N·K = 2·|larger|·√|smaller| (2·|A|^1.5 for two of one size); one
            // no longer than a side of the larger is a vector (a matrix times a 3-vector, or a
            // matrix's diagonal times it): 2·|larger|, a few flops an element.
            let second = b.map_or(first, |b| elements(b, env, unknown, 0));
            let (larger, smaller) = (first.max(second), first.min(second));
            if smaller * smaller <= larger * 1.01 {
                2.0 * larger
            } else {
                2.0 * larger * smaller.sqrt()
            }
        }
    }
}

/// The length of the keys an attention attends over: `k.shape[-2]` where the launch gives
/// it, else the keys' elements over a head's width (64) and 32 batch × heads.
fn keys_length(op: &TorchOp, env: &Env, unknown: f64) -> f64 {
    let keys = op.reads.get(1).or(op.reads.first());
    let exact = keys
        .and_then(shaped)
        .and_then(|name| env.eval_quiet(&format!("{name}.shape[-2]")).filter(|e| e.guesses == 0).map(|e| e.value));
    exact.unwrap_or_else(|| keys.map_or(1.0, |k| elements(k, env, unknown, 0)) / (64.0 * 32.0)).max(1.0)
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
        Size::Reduced(inner) | Size::Along(inner, _) => partial(inner),
        _ => false,
    }
}

/// The tensor whose shape a size has: a name, or the first name of a broadcast (the tensor
/// an element-wise chain keeps the shape of, `x` of `x * r`).
fn shaped(size: &Size) -> Option<&str> {
    match size {
        Size::Of(name) => Some(name),
        Size::Max(v) => v.iter().find_map(shaped),
        _ => None,
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
        Size::Along(inner, dim) => {
            let all = elements(inner, env, unknown, depth + 1);
            match shaped(inner).and_then(|name| exact(&format!("{name}.shape[{dim}]"))) {
                Some(len) if len >= 1.0 && len <= all => all / len,
                _ => all.sqrt(),
            }
        }
        Size::One => 1.0,
        Size::Part(inner) => elements(inner, env, unknown, depth + 1),
        Size::Diag(inner) => {
            let all = elements(inner, env, unknown, depth + 1);
            let dim = |i: usize| shaped(inner).and_then(|name| exact(&format!("{name}.shape[{i}]")));
            match (dim(0), dim(1)) {
                // A matrix's diagonal.
                (_, Some(_)) => all.sqrt(),
                // A vector's matrix.
                (Some(n), None) if (n - all).abs() < 0.5 => all * all,
                _ => all,
            }
        }
        Size::Einsum(operands, equation) => {
            einsum_space(operands, equation, env, unknown, depth + 1).map_or(unknown, |(out, _)| out)
        }
        Size::Unknown => unknown,
    };
    n.max(1.0)
}

/// An einsum's output elements and its iteration space (every index's length multiplied:
/// half its flops), from `equation` over `operands` (`"bij,bjk->bik"`; without `->`, the
/// indices written once, in order). Each index's length is read from an operand's shape where
/// the launch gives it, else the operand's elements shared evenly among its indices (an
/// ellipsis one index of them): an outer product `"is,js->ijs"` writes far more than it reads.
pub(super) fn einsum_space(
    operands: &[Size],
    equation: &str,
    env: &Env,
    unknown: f64,
    depth: usize,
) -> Option<(f64, f64)> {
    let equation: String = equation.replace("...", "*").chars().filter(|c| !c.is_whitespace()).collect();
    let (inputs, output) = match equation.split_once("->") {
        Some((i, o)) => (i.to_string(), Some(o.to_string())),
        None => (equation.clone(), None),
    };
    let terms: Vec<Vec<char>> = inputs.split(',').map(|t| t.chars().collect()).collect();
    if terms.len() != operands.len() || terms.iter().any(|t| t.is_empty() || t.len() > 12) {
        return None;
    }
    let output: Vec<char> = output.map_or_else(
        || {
            let all: Vec<char> = terms.iter().flatten().copied().collect();
            let mut once: Vec<char> =
                all.iter().copied().filter(|c| all.iter().filter(|d| *d == c).count() == 1).collect();
            once.sort_unstable();
            once
        },
        |o| o.chars().collect(),
    );
    let mut length: std::collections::BTreeMap<char, f64> = std::collections::BTreeMap::new();
    for (term, size) in terms.iter().zip(operands) {
        let n = elements(size, env, unknown, depth + 1);
        let even = n.powf(1.0 / term.len() as f64);
        let ellipsis = term.contains(&'*');
        for (i, c) in term.iter().enumerate() {
            // A dimension counted from the end where an ellipsis comes before it.
            let at = if ellipsis { i as i64 - term.len() as i64 } else { i as i64 };
            let exact = shaped(size)
                .filter(|_| *c != '*')
                .and_then(|name| env.eval_quiet(&format!("{name}.shape[{at}]")))
                .filter(|e| e.guesses == 0 && e.value >= 1.0)
                .map(|e| e.value);
            let l = exact.unwrap_or(even);
            length.entry(*c).and_modify(|v| *v = v.max(l)).or_insert(l);
        }
    }
    let out: f64 = output.iter().map(|c| length.get(c).copied().unwrap_or(1.0)).product();
    let space: f64 = length.values().product();
    Some((out.max(1.0), space.max(1.0)))
}
