//! The share of a load's or store's lanes its mask lets through, where the mask selects by
//! position within a period: inductor's flat kernels over a concatenation split each row at
//! a column (`x0 = xindex % (2 * I)`, `tl.load(p + x0 - I, x0 >= I)`), so each of the two
//! loads moves half of the tile, not all of it. A tail mask (`offs < n`) is not such a
//! share: the tile's size already counts the lanes it keeps.

use super::super::expr::Env;
use crate::declaration::split_top;

/// How many definitions a mask is followed through (`is_up = x0 >= I`, `x0 = xindex % W`).
const DEPTH: usize = 4;

/// The share (0 to 1) of lanes `mask` keeps; 1 where it is not a periodic split or its
/// period or bound has no value.
pub(super) fn lane_share(env: &Env, mask: &str) -> f64 {
    share(env, mask, 0).clamp(0.0, 1.0)
}

fn share(env: &Env, text: &str, depth: usize) -> f64 {
    let t = unparen(text.trim());
    if depth > DEPTH {
        return 1.0;
    }
    let parts = split_top(t, '&');
    if parts.len() > 1 {
        return parts.iter().map(|p| share(env, p, depth + 1)).product();
    }
    if let Some(defined) = env.texts.get(t) {
        return share(env, defined, depth + 1);
    }
    let Some((left, op, right)) = comparison(t) else {
        return 1.0;
    };
    // `x0 >= I`, or written the other way round, `I <= x0`.
    let (period, bound, op) = match (modulus(env, left), modulus(env, right)) {
        (Some(m), None) => (m, right, op),
        (None, Some(m)) => (m, left, flipped(op)),
        _ => return 1.0,
    };
    let (Some(m), Some(b)) = (env.eval_quiet(&period), env.eval_quiet(bound)) else {
        return 1.0;
    };
    // A period and a bound that rest on one assumed size (`2 * I`, `I`) keep their ratio
    // whatever it is; one assumed against one written (`W`, `3`) does not.
    if (m.guesses > 0) != (b.guesses > 0) {
        return 1.0;
    }
    let (m, b) = (m.value, b.value);
    if !(m >= 1.0 && b.is_finite()) {
        return 1.0;
    }
    let kept = match op {
        "<" => b,
        "<=" => b + 1.0,
        ">" => m - b - 1.0,
        _ => m - b,
    };
    kept.clamp(0.0, m) / m
}

/// How many distinct elements a pointer `base + idx` can address where its one varying term
/// is bounded by a written constant: `idx = offs % 4`, `offs & 3` (a bias of four channels
/// read for every element: the four stay in cache, not a stream). `None` where any term
/// varies without such a bound; `params` are the kernel's pointer parameters.
pub(super) fn index_span(env: &Env, ptr: &str, params: &std::collections::BTreeSet<String>) -> Option<f64> {
    let mut span = None;
    for term in split_top(unparen(ptr.trim()), '+') {
        let t = unparen(term.trim());
        if params.contains(t) || t.parse::<f64>().is_ok() {
            continue;
        }
        span = Some(bound(env, t)?);
    }
    span
}

/// The number of values `text` (a name defined as) `a % c` or `a & m` takes, for `c`, `m`
/// written as values.
fn bound(env: &Env, text: &str) -> Option<f64> {
    let t = env.resolve(unparen(text.trim()));
    let t = unparen(t.trim());
    let known = |e: &str| env.eval_quiet(e.trim()).filter(|v| v.guesses == 0 && v.value >= 0.0).map(|v| v.value);
    let (modulo, and) = (split_top(t, '%'), split_top(t, '&'));
    match (modulo.as_slice(), and.as_slice()) {
        ([_, c], _) => known(c).filter(|c| *c >= 1.0),
        (_, [_, m]) => known(m).map(|m| m + 1.0),
        _ => None,
    }
}

/// The period of `text` where it is (a name defined as) `a % m`.
fn modulus(env: &Env, text: &str) -> Option<String> {
    let t = env.resolve(unparen(text.trim()));
    let parts = split_top(unparen(t.trim()), '%');
    (parts.len() == 2).then(|| parts[1].trim().to_string())
}

/// `a OP b` for the one top-level comparison of `text`.
fn comparison(text: &str) -> Option<(&str, &'static str, &str)> {
    let bytes = text.as_bytes();
    let mut depth = 0i32;
    for (i, &c) in bytes.iter().enumerate() {
        match c {
            b'(' | b'[' => depth += 1,
            b')' | b']' => depth -= 1,
            b'<' | b'>' if depth == 0 => {
                let next = bytes.get(i + 1).copied();
                let prev = i.checked_sub(1).map(|p| bytes[p]);
                // Shifts are not comparisons.
                if next == Some(c) || prev == Some(c) {
                    return None;
                }
                let (op, width) = match (c, next) {
                    (b'<', Some(b'=')) => ("<=", 2),
                    (b'>', Some(b'=')) => (">=", 2),
                    (b'<', _) => ("<", 1),
                    _ => (">", 1),
                };
                return Some((&text[..i], op, &text[i + width..]));
            }
            _ => {}
        }
    }
    None
}

fn flipped(op: &'static str) -> &'static str {
    match op {
        "<" => ">",
        "<=" => ">=",
        ">" => "<",
        _ => "<=",
    }
}

/// `text` without brackets that enclose all of it (not `(a) & (b)`).
fn unparen(text: &str) -> &str {
    let mut t = text;
    while t.starts_with('(') && t.ends_with(')') {
        let mut depth = 0i32;
        let closes_early = t[..t.len() - 1].chars().any(|c| {
            depth += match c {
                '(' => 1,
                ')' => -1,
                _ => 0,
            };
            depth == 0
        });
        if closes_early {
            break;
        }
        t = t[1..t.len() - 1].trim();
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(defs: &[(&str, &str)]) -> Env {
        let mut e = Env::default();
        for (k, v) in defs {
            e.define(k, v);
        }
        e
    }

    #[test]
    fn a_split_at_a_column_keeps_its_share_of_each_row() {
        let e = env(&[("I", "1024"), ("x0", "xindex % (2 * I)"), ("is_up", "x0 >= I"), ("xmask", "xindex < n")]);
        assert_eq!(lane_share(&e, "is_up & xmask"), 0.5);
        assert_eq!(lane_share(&e, "x0 < I"), 0.5);
        assert_eq!(lane_share(&e, "(I <= x0) & xmask"), 0.5);
        assert_eq!(lane_share(&e, "(x0 < 256)"), 0.125);
        // A tail mask, a shift and a period without a value keep every lane.
        assert_eq!(lane_share(&e, "xmask"), 1.0);
        assert_eq!(lane_share(&e, "(x0 << 1) > 3"), 1.0);
        assert_eq!(lane_share(&e, "xindex % W < 3"), 1.0);
        assert_eq!(lane_share(&e, "xindex % W < W"), 1.0);
    }

    #[test]
    fn an_index_bounded_by_a_written_constant_spans_that_many_elements() {
        let e = env(&[("c", "offsets & 3"), ("ch", "offsets % 4"), ("m", "offsets % n")]);
        let params: std::collections::BTreeSet<String> = ["bias_ptr".to_string()].into();
        assert_eq!(index_span(&e, "bias_ptr + c", &params), Some(4.0));
        assert_eq!(index_span(&e, "bias_ptr + (ch)", &params), Some(4.0));
        // A modulus known only at run time, or a term without a bound, is no span.
        assert_eq!(index_span(&e, "bias_ptr + m", &params), None);
        assert_eq!(index_span(&e, "bias_ptr + c + offsets", &params), None);
    }
}
