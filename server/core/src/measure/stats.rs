//! Statistics of interleaved timings: medians, percentiles, and a distribution-free
//! 95% interval for the speedup.

use super::protocol::TimeStats;

pub fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let pos = (sorted.len() - 1) as f64 * p.clamp(0.0, 1.0);
    let (lo, hi) = (pos.floor() as usize, pos.ceil() as usize);
    sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo as f64)
}

fn sorted(xs: &[f64]) -> Vec<f64> {
    let mut v: Vec<f64> = xs.iter().copied().filter(|x| x.is_finite()).collect();
    v.sort_by(f64::total_cmp);
    v
}

pub fn time_stats(times_ms: &[f64]) -> TimeStats {
    let s = sorted(times_ms);
    TimeStats {
        median_ms: percentile(&s, 0.5),
        p10_ms: percentile(&s, 0.1),
        p90_ms: percentile(&s, 0.9),
        min_ms: s.first().copied().unwrap_or(f64::NAN),
        n: s.len() as u32,
    }
}

/// The speedup and its 95% interval from paired times (base_i, cand_i measured back
/// to back): the median of the per-pair ratios with the order-statistic interval of
/// a median (binomial, normal approximation), which needs no distributional assumption.
pub fn speedup_interval(base: &[f64], cand: &[f64]) -> Option<(f64, f64, f64)> {
    let ratios: Vec<f64> = base.iter().zip(cand).filter(|(b, c)| **c > 0.0 && **b > 0.0).map(|(b, c)| b / c).collect();
    let r = sorted(&ratios);
    let n = r.len();
    if n < 3 {
        return None;
    }
    let half = 1.96 * (n as f64).sqrt() / 2.0;
    let lo = ((n as f64 / 2.0 - half).floor().max(0.0)) as usize;
    let hi = ((n as f64 / 2.0 + half).ceil() as usize).min(n - 1);
    Some((percentile(&r, 0.5), r[lo], r[hi]))
}

/// Relative half-width of an interval around `s`.
pub fn rel_half_width(s: f64, lo: f64, hi: f64) -> f64 {
    ((hi - lo) / 2.0 / s.abs().max(1e-12)).abs()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn interval_narrows_with_more_pairs_and_brackets_the_ratio() {
        let noise = |i: usize| 1.0 + 0.01 * (((i * 7919) % 13) as f64 - 6.0) / 6.0;
        let base: Vec<f64> = (0..200).map(|i| 2.0 * noise(i)).collect();
        let cand: Vec<f64> = (0..200).map(|i| 1.0 * noise(i + 3)).collect();
        let (s, lo, hi) = speedup_interval(&base, &cand).expect("interval");
        assert!((s - 2.0).abs() < 0.03);
        assert!(lo <= s && s <= hi);
        let (s10, lo10, hi10) = speedup_interval(&base[..10], &cand[..10]).expect("interval");
        assert!(rel_half_width(s10, lo10, hi10) >= rel_half_width(s, lo, hi));
        assert!(speedup_interval(&[1.0], &[1.0]).is_none());
    }

    #[test]
    fn stats_ignore_non_finite() {
        let t = time_stats(&[3.0, 1.0, f64::NAN, 2.0]);
        assert_eq!(t.n, 3);
        assert_eq!(t.median_ms, 2.0);
        assert_eq!(t.min_ms, 1.0);
    }
}
