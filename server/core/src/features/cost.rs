//! Device rates and the roofline-style combination of cost terms.

use serde::{Deserialize, Serialize};

/// Costs of operations in byte-equivalents (time to move one byte of DRAM traffic).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rates {
    pub name: &'static str,
    /// One fp32 arithmetic operation.
    pub scalar_op: f64,
    /// One tensor-core flop.
    pub tensor_flop: f64,
    /// One 4-byte shared-memory access.
    pub shared_access: f64,
    /// One lane's turn at the constant cache where a warp's lanes read different
    /// addresses: a cycle of an SM (132 SMs at ~1.7 GHz serve ~2.2e11 a second).
    pub constant_serial: f64,
    /// One `__syncthreads` per thread.
    pub sync: f64,
    /// One atomic on distinct addresses.
    pub atomic: f64,
    /// One atomic when all threads target the same address: serialised at L2, about
    /// 1.7 ns each on an H100 for fp32 adds (which cannot be combined within a warp).
    pub contended_atomic: f64,
    /// One warp shuffle per thread.
    pub shuffle: f64,
    /// Scheduling a block / program.
    pub block_overhead: f64,
    /// A further kernel launch in one run: ~3 µs between dependent launches.
    pub launch: f64,
    /// Bytes in flight per SM needed to saturate memory bandwidth (Little's law).
    pub bytes_in_flight: f64,
    /// Resident threads per SM at most.
    pub max_threads_per_sm: f64,
    /// Resident blocks per SM at most.
    pub max_blocks_per_sm: f64,
    /// Shared memory per SM, bytes.
    pub shared_per_sm: f64,
    /// 32-bit registers per SM (a thread holds at most 255).
    pub registers_per_sm: f64,
    /// One instruction for one lane: an SM issues four warps' instructions a cycle (128
    /// lanes), 132 SMs at 1.755 GHz.
    pub lane_issue: f64,
    /// Streaming multiprocessors.
    pub sms: f64,
    /// How much faster L2 serves a sector read again soon than DRAM serves it the first time.
    pub l2_over_dram: f64,
    /// One global load in a loop that a thread runs alone (a serial pass, nothing to hide
    /// its latency): ~30 ns, an L1 hit mostly and a miss to memory per 128-byte line.
    pub serial_load: f64,
    /// One byte a global read takes from L1 (or L2) because a neighbouring thread read it
    /// (a stencil's neighbours, a filter every thread reads): the speed of shared memory,
    /// two wavefronts for a warp's access off the line.
    pub cache_hit: f64,
}

impl Rates {
    /// NVIDIA H100 SXM: ~3.0 TB/s DRAM (L2 about three times that), ~67 TFLOP/s fp32, ~800 TFLOP/s dense fp16/bf16
    /// on tensor cores, 132 SMs of 2048 threads and 228 KB shared memory.
    pub const H100: Rates = Rates {
        name: "NVIDIA H100",
        scalar_op: 3.0e12 / 67e12,
        tensor_flop: 3.0e12 / 800e12,
        shared_access: 0.25,
        constant_serial: 3.0e12 / (132.0 * 1.7e9),
        sync: 4.0,
        atomic: 8.0,
        contended_atomic: 2048.0,
        shuffle: 0.25,
        block_overhead: 384.0,
        launch: 3e-6 * 3.0e12,
        bytes_in_flight: 16384.0,
        max_threads_per_sm: 2048.0,
        max_blocks_per_sm: 32.0,
        shared_per_sm: 228.0 * 1024.0,
        registers_per_sm: 65536.0,
        lane_issue: 3.0e12 / (128.0 * 132.0 * 1.755e9),
        sms: 132.0,
        l2_over_dram: 3.0,
        serial_load: 30e-9 * 3.0e12,
        cache_hit: 2.0 * 0.25 / 4.0,
    };
}

/// Modelled cost of one launch, in byte-equivalents.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Cost {
    /// Global memory traffic divided by the latency-hiding efficiency.
    pub memory: f64,
    pub shared: f64,
    pub sync: f64,
    pub atomics: f64,
    pub compute: f64,
    pub overhead: f64,
    /// Fraction of peak bandwidth the launch shape can sustain (0..1].
    pub efficiency: f64,
    pub total: f64,
}

impl Cost {
    /// Combines the terms: memory-side work and compute overlap (the larger dominates,
    /// a quarter of the smaller still shows), the rest adds up.
    pub fn combine(mut self) -> Self {
        let mem_side = self.memory + self.shared + self.atomics;
        let (hi, lo) = if mem_side >= self.compute { (mem_side, self.compute) } else { (self.compute, mem_side) };
        self.total = (hi + 0.25 * lo + self.sync + self.overhead).max(1.0);
        self
    }

    /// The named terms, for explanations.
    pub fn terms(&self) -> [(&'static str, f64); 6] {
        [
            ("global memory traffic", self.memory),
            ("shared-memory work", self.shared),
            ("atomics", self.atomics),
            ("arithmetic", self.compute),
            ("synchronisation", self.sync),
            ("block scheduling", self.overhead),
        ]
    }
}

/// How a grid of `blocks` fills the device when `per_sm` blocks fit on one SM: the
/// blocks resident on a busy SM, the fraction of SMs that get a block, and the waves.
pub fn fill(blocks: f64, per_sm: f64, rates: &Rates) -> (f64, f64, f64) {
    let blocks = blocks.max(1.0);
    let per_sm = per_sm.max(1.0);
    let resident = per_sm.min((blocks / rates.sms).ceil());
    let busy = (blocks / rates.sms).min(1.0);
    (resident, busy, blocks / (rates.sms * per_sm))
}

/// Bytes moved per element used when neighbouring lanes' elements lie `step` elements
/// apart: the element itself when they are contiguous, up to a whole 32-byte sector each.
pub fn bytes_per_element(step: f64, elem: f64) -> f64 {
    (step.abs() * elem).clamp(elem, elem.max(32.0))
}

/// Latency-hiding efficiency from resident work: `in_flight` bytes per SM against the
/// bytes needed to cover memory latency.
pub fn efficiency(in_flight: f64, rates: &Rates) -> f64 {
    (in_flight / rates.bytes_in_flight).clamp(0.0, 1.0).sqrt().max(0.15)
}
