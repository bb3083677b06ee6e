"""The Triton runner's statistics: percentiles, the median's confidence interval, the
speedup's interval and when to stop repeating (pure; see triton_runner.py)."""

import math
import statistics

from kforecast_runner_common import CI_CONFIDENCE


# ---------------------------------------------------------------------------
# Pure statistics (no torch; unit-tested directly)
# ---------------------------------------------------------------------------

def percentile(values, q):
    """Linear-interpolation percentile (numpy's default), q in [0, 100]."""
    xs = sorted(values)
    if not xs:
        raise ValueError("percentile of an empty sequence")
    if len(xs) == 1:
        return float(xs[0])
    pos = (len(xs) - 1) * (q / 100.0)
    lo = int(math.floor(pos))
    hi = min(lo + 1, len(xs) - 1)
    frac = pos - lo
    return float(xs[lo] + (xs[hi] - xs[lo]) * frac)


def summarize_times(times_ms):
    """Per-version summary: median, p10, p90, min, mean, n (all in ms)."""
    if not times_ms:
        return {"median_ms": None, "p10_ms": None, "p90_ms": None,
                "min_ms": None, "mean_ms": None, "n": 0}
    return {
        "median_ms": float(statistics.median(times_ms)),
        "p10_ms": percentile(times_ms, 10),
        "p90_ms": percentile(times_ms, 90),
        "min_ms": float(min(times_ms)),
        "mean_ms": float(statistics.fmean(times_ms)),
        "n": len(times_ms),
    }


def _log_binom_half_pmf(n, i):
    return (math.lgamma(n + 1) - math.lgamma(i + 1) - math.lgamma(n - i + 1)
            - n * math.log(2.0))


def median_ci_rank(n, confidence=CI_CONFIDENCE):
    """1-based rank j of the distribution-free CI [x_(j), x_(n-j+1)] for the median.

    j is the largest rank with P(Bin(n, 1/2) <= j-1) <= (1-confidence)/2, so
    the interval covers the median with probability >= confidence.  Returns 0
    when no such rank exists (n too small: for 95 % that is n < 6).
    """
    if n <= 0:
        return 0
    tail = (1.0 - confidence) / 2.0
    cdf = 0.0
    j = 0
    # P(B <= j-1) for j = 1, 2, ...; ranks beyond the middle are meaningless.
    for i in range(0, (n + 1) // 2):
        cdf += math.exp(_log_binom_half_pmf(n, i))
        if cdf <= tail * (1.0 + 1e-12):
            j = i + 1
        else:
            break
    return j


def median_ci(values, confidence=CI_CONFIDENCE):
    """Order-statistic confidence interval of the median.

    Returns (low, high, exact).  exact is False when there are too few values
    for an interval of the requested confidence; then (min, max) is returned.
    """
    xs = sorted(values)
    n = len(xs)
    if n == 0:
        raise ValueError("median_ci of an empty sequence")
    j = median_ci_rank(n, confidence)
    if j == 0:
        return float(xs[0]), float(xs[-1]), False
    return float(xs[j - 1]), float(xs[n - j]), True


def speedup_summary(base_ms, cand_ms, confidence=CI_CONFIDENCE):
    """Speedup of candidate over base from paired per-rep times.

    speedup = median(base) / median(cand).  The CI is the order-statistic CI of
    the median of the per-pair ratios base_i / cand_i, widened if needed so
    that it contains the point estimate.  spread = (high - low) / 2 / speedup.
    """
    if len(base_ms) != len(cand_ms):
        raise ValueError("base and candidate need the same number of reps")
    if not base_ms:
        raise ValueError("no reps")
    mb = statistics.median(base_ms)
    mc = statistics.median(cand_ms)
    if mc <= 0 or mb <= 0:
        return {"speedup": None, "ci_low": None, "ci_high": None,
                "spread": None, "ci_exact": False, "ratio_median": None}
    speedup = mb / mc
    ratios = [b / c for b, c in zip(base_ms, cand_ms) if c > 0]
    if not ratios:
        return {"speedup": speedup, "ci_low": None, "ci_high": None,
                "spread": None, "ci_exact": False, "ratio_median": None}
    lo, hi, exact = median_ci(ratios, confidence)
    lo = min(lo, speedup)
    hi = max(hi, speedup)
    return {
        "speedup": speedup,
        "ci_low": lo,
        "ci_high": hi,
        "spread": (hi - lo) / 2.0 / speedup,
        "ci_exact": exact,
        "ratio_median": float(statistics.median(ratios)),
    }


def stop_reason(n, min_reps, max_reps, rel_half_width, target_rel_ci,
                elapsed_ms, max_time_ms, ci_exact=True):
    """Why the adaptive loop stops after n pairs, or None to go on.

    "converged": n >= min_reps and the CI's relative half-width <= target
    (only with an exact interval); "max_reps": n >= max_reps; "max_time":
    elapsed_ms >= max_time_ms (after at least one pair).
    """
    if (n >= min_reps and ci_exact and rel_half_width is not None
            and rel_half_width <= target_rel_ci):
        return "converged"
    if n >= max_reps:
        return "max_reps"
    if n >= 1 and elapsed_ms >= max_time_ms:
        return "max_time"
    return None


def abba_order(rep_index):
    """(first, second) version for a rep: 0=base, 1=candidate; AB BA AB BA..."""
    return (0, 1) if rep_index % 2 == 0 else (1, 0)


def lower_median(values):
    """torch.median's convention (lower of the two middles), as do_bench uses."""
    xs = sorted(values)
    return float(xs[(len(xs) - 1) // 2])
