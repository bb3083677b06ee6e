//! Deterministic input data and output comparison, for every dtype.

use super::protocol::{Check, DType, Init};
use crate::rng::Rng;

/// f32 → IEEE half bits, round to nearest even.
pub fn f32_to_f16(x: f32) -> u16 {
    let bits = x.to_bits();
    let sign = ((bits >> 16) & 0x8000) as u16;
    let exp = ((bits >> 23) & 0xff) as i32;
    let mant = bits & 0x7f_ffff;
    if exp == 0xff {
        return sign | 0x7c00 | if mant != 0 { 0x200 } else { 0 };
    }
    let e = exp - 127 + 15;
    if e >= 0x1f {
        return sign | 0x7c00;
    }
    if e <= 0 {
        if e < -10 {
            return sign;
        }
        let m = (mant | 0x80_0000) >> (1 - e);
        let round = (m >> 12) & 1;
        return sign | ((m >> 13) + round) as u16;
    }
    let m = mant >> 13;
    let round_bits = mant & 0x1fff;
    let mut h = sign as u32 | ((e as u32) << 10) | m;
    if round_bits > 0x1000 || (round_bits == 0x1000 && (m & 1) == 1) {
        h += 1;
    }
    h as u16
}

pub fn f16_to_f32(h: u16) -> f32 {
    let sign = ((h & 0x8000) as u32) << 16;
    let exp = ((h >> 10) & 0x1f) as u32;
    let mant = (h & 0x3ff) as u32;
    let bits = match exp {
        0 if mant == 0 => sign,
        0 => {
            let mut e = 127 - 15 + 1;
            let mut m = mant;
            while m & 0x400 == 0 {
                m <<= 1;
                e -= 1;
            }
            sign | ((e as u32) << 23) | ((m & 0x3ff) << 13)
        }
        0x1f => sign | 0x7f80_0000 | (mant << 13),
        _ => sign | ((exp + 127 - 15) << 23) | (mant << 13),
    };
    f32::from_bits(bits)
}

pub fn f32_to_bf16(x: f32) -> u16 {
    let bits = x.to_bits();
    if x.is_nan() {
        return ((bits >> 16) | 0x40) as u16;
    }
    let round = 0x7fff + ((bits >> 16) & 1);
    ((bits + round) >> 16) as u16
}

/// Elements generated per independent random stream (and per thread).
const CHUNK: usize = 1 << 20;

/// The bytes of a buffer of `len` elements, deterministic in (`seed`, `stream`) whatever
/// the number of threads: each chunk of [`CHUNK`] elements has its own generator.
pub fn generate(dtype: DType, len: usize, init: &Init, seed: u64, stream: u64) -> Vec<u8> {
    let size = dtype.size();
    let mut out = vec![0u8; len * size];
    let threads = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1).min(16);
    let chunks: Vec<(usize, &mut [u8])> = out.chunks_mut(CHUNK * size).enumerate().collect();
    let per_thread = chunks.len().div_ceil(threads).max(1);
    let mut groups: Vec<Vec<(usize, &mut [u8])>> = Vec::new();
    for c in chunks {
        if groups.last().is_none_or(|g| g.len() >= per_thread) {
            groups.push(Vec::new());
        }
        if let Some(g) = groups.last_mut() {
            g.push(c);
        }
    }
    std::thread::scope(|scope| {
        for group in groups {
            scope.spawn(move || {
                for (index, chunk) in group {
                    fill(chunk, dtype, init, seed, stream, index);
                }
            });
        }
    });
    out
}

fn fill(chunk: &mut [u8], dtype: DType, init: &Init, seed: u64, stream: u64, index: usize) {
    let mut rng = Rng::with_state(
        seed ^ stream.wrapping_mul(0xA076_1D64_78BD_642F) ^ (index as u64).wrapping_mul(0xE703_7ED1_A0B4_28DB),
    );
    let size = dtype.size();
    let mut out = Vec::with_capacity(chunk.len());
    let base = index * CHUNK;
    for k in 0..chunk.len() / size {
        let i = base + k;
        let v = match init {
            Init::Randn => rng.normal(),
            Init::Rand => rng.unit(),
            Init::Zeros => 0.0,
            Init::Ones => 1.0,
            Init::Arange => (i % 1024) as f64,
            Init::Randint { lo, hi } => (*lo + (rng.next_u64() % (hi - lo).max(1) as u64) as i64) as f64,
        };
        push(&mut out, dtype, v);
    }
    chunk.copy_from_slice(&out);
}

fn push(out: &mut Vec<u8>, dtype: DType, v: f64) {
    match dtype {
        DType::F16 => out.extend(f32_to_f16(v as f32).to_le_bytes()),
        DType::Bf16 => out.extend(f32_to_bf16(v as f32).to_le_bytes()),
        DType::F32 => out.extend((v as f32).to_le_bytes()),
        DType::F64 => out.extend(v.to_le_bytes()),
        DType::I8 => out.extend((v as i8).to_le_bytes()),
        DType::U8 => out.extend((v as u8).to_le_bytes()),
        DType::I32 => out.extend((v as i32).to_le_bytes()),
        DType::U32 => out.extend((v as u32).to_le_bytes()),
        DType::I64 => out.extend((v as i64).to_le_bytes()),
        DType::U64 => out.extend((v as u64).to_le_bytes()),
    }
}

/// Element `i` of a little-endian buffer as f64.
pub fn value(bytes: &[u8], dtype: DType, i: usize) -> f64 {
    let s = dtype.size();
    let b = &bytes[i * s..(i + 1) * s];
    let arr = |n: usize| -> [u8; 8] {
        let mut a = [0u8; 8];
        a[..n].copy_from_slice(&b[..n]);
        a
    };
    match dtype {
        DType::F16 => f16_to_f32(u16::from_le_bytes([b[0], b[1]])) as f64,
        DType::Bf16 => f32::from_bits((u16::from_le_bytes([b[0], b[1]]) as u32) << 16) as f64,
        DType::F32 => f32::from_le_bytes([b[0], b[1], b[2], b[3]]) as f64,
        DType::F64 => f64::from_le_bytes(arr(8)),
        DType::I8 => b[0] as i8 as f64,
        DType::U8 => b[0] as f64,
        DType::I32 => i32::from_le_bytes([b[0], b[1], b[2], b[3]]) as f64,
        DType::U32 => u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as f64,
        DType::I64 => i64::from_le_bytes(arr(8)) as f64,
        DType::U64 => u64::from_le_bytes(arr(8)) as f64,
    }
}

/// Compares a candidate's output with the base's: |c − b| ≤ atol + rtol·|b|, and no NaN
/// or infinity where the base has a finite value.
pub fn compare(name: &str, dtype: DType, base: &[u8], cand: &[u8], rtol: f64, atol: f64) -> Check {
    let n = base.len().min(cand.len()) / dtype.size();
    let threads = std::thread::available_parallelism().map(|t| t.get()).unwrap_or(1).min(16);
    let tally = if n < (1 << 20) || threads == 1 {
        tally(dtype, base, cand, rtol, atol, 0, n)
    } else {
        let per = n.div_ceil(threads);
        let parts: Vec<Tally> = std::thread::scope(|scope| {
            let handles: Vec<_> = (0..threads)
                .map(|t| {
                    let (lo, hi) = (t * per, ((t + 1) * per).min(n));
                    scope.spawn(move || tally(dtype, base, cand, rtol, atol, lo, hi))
                })
                .collect();
            handles.into_iter().filter_map(|h| h.join().ok()).collect()
        });
        parts.into_iter().fold(Tally::default(), Tally::merge)
    };
    let mut check =
        Check { ok: tally.bad == 0, max_abs_err: tally.max_abs, max_rel_err: tally.max_rel, message: String::new() };
    if let Some((i, b, c)) = tally.first_bad {
        check.message =
            format!("`{name}`: {} of {n} elements differ; first at [{i}]: baseline {b}, candidate {c}", tally.bad);
    }
    check
}

/// Differences over a range of elements.
#[derive(Default)]
struct Tally {
    max_abs: f64,
    max_rel: f64,
    bad: usize,
    /// (index, baseline, candidate) of the first element out of tolerance.
    first_bad: Option<(usize, f64, f64)>,
}

impl Tally {
    /// Combines with the tally of a later range.
    fn merge(self, later: Tally) -> Tally {
        Tally {
            max_abs: self.max_abs.max(later.max_abs),
            max_rel: self.max_rel.max(later.max_rel),
            bad: self.bad + later.bad,
            first_bad: self.first_bad.or(later.first_bad),
        }
    }
}

fn tally(dtype: DType, base: &[u8], cand: &[u8], rtol: f64, atol: f64, lo: usize, hi: usize) -> Tally {
    let mut t = Tally::default();
    for i in lo..hi {
        let (b, c) = (value(base, dtype, i), value(cand, dtype, i));
        if b.is_nan() && c.is_nan() {
            continue;
        }
        let err = (c - b).abs();
        let finite_mismatch = b.is_finite() != c.is_finite();
        if err.is_finite() {
            t.max_abs = t.max_abs.max(err);
            if b.abs() > 0.0 {
                t.max_rel = t.max_rel.max(err / b.abs());
            }
        }
        let within = err <= atol + rtol * b.abs() || (b.is_infinite() && b == c);
        if finite_mismatch || !within {
            t.bad += 1;
            t.first_bad.get_or_insert((i, b, c));
        }
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn halves_round_trip_and_data_is_deterministic() {
        for x in [0.0f32, 1.0, -2.5, 65504.0, 1e-5, 0.333] {
            let back = f16_to_f32(f32_to_f16(x));
            assert!((back - x).abs() <= x.abs() * 1e-3 + 1e-7, "{x} -> {back}");
        }
        let a = generate(DType::F32, 100, &Init::Randn, 7, 1);
        assert_eq!(a, generate(DType::F32, 100, &Init::Randn, 7, 1));
        assert_ne!(a, generate(DType::F32, 100, &Init::Randn, 7, 2));
    }

    #[test]
    fn compare_flags_differences_and_nans() {
        let b = generate(DType::F32, 10, &Init::Ones, 0, 0);
        let mut c = b.clone();
        assert!(compare("y", DType::F32, &b, &c, 1e-4, 1e-5).ok);
        c[0..4].copy_from_slice(&f32::NAN.to_le_bytes());
        let check = compare("y", DType::F32, &b, &c, 1e-4, 1e-5);
        assert!(!check.ok);
        assert!(check.message.contains("first at [0]"));
    }
}
