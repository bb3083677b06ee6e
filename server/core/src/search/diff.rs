//! Line differences between a file and a variant of it: the edit hunks an editor
//! applies, and a unified diff for the terminal.

use crate::kernel::TextRange;

/// One replaced run of lines: `old` (bytes of the original) becomes `new`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hunk {
    pub old: TextRange,
    pub new: String,
    /// 0-based first line of the hunk in the original and in the variant, and line counts.
    pub old_line: usize,
    pub old_lines: usize,
    pub new_line: usize,
    pub new_lines: usize,
}

/// Lines with their terminators, so that joining them gives the text back.
fn lines(text: &str) -> Vec<&str> {
    text.split_inclusive('\n').collect()
}

/// Largest number of middle line pairs compared (quadratic); beyond it lines are compared
/// at the same place when both sides have as many, else the differing middle is one hunk.
const MAX_LCS_CELLS: usize = 4_000_000;

/// The hunks that turn `old` into `new`, in order, none overlapping.
pub fn hunks(old: &str, new: &str) -> Vec<Hunk> {
    let (a, b) = (lines(old), lines(new));
    let prefix = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
    let suffix = a[prefix..].iter().rev().zip(b[prefix..].iter().rev()).take_while(|(x, y)| x == y).count();
    let (am, bm) = (&a[prefix..a.len() - suffix], &b[prefix..b.len() - suffix]);
    // Pairs of equal lines (indices into am, bm) along a longest common subsequence.
    let mut matches: Vec<(usize, usize)> = Vec::new();
    if !am.is_empty() && !bm.is_empty() && am.len() * bm.len() <= MAX_LCS_CELLS {
        let (n, m) = (am.len(), bm.len());
        let mut table = vec![0u32; (n + 1) * (m + 1)];
        for i in (0..n).rev() {
            for j in (0..m).rev() {
                table[i * (m + 1) + j] = if am[i] == bm[j] {
                    table[(i + 1) * (m + 1) + j + 1] + 1
                } else {
                    table[(i + 1) * (m + 1) + j].max(table[i * (m + 1) + j + 1])
                };
            }
        }
        let (mut i, mut j) = (0, 0);
        while i < n && j < m {
            if am[i] == bm[j] {
                matches.push((i, j));
                i += 1;
                j += 1;
            } else if table[(i + 1) * (m + 1) + j] >= table[i * (m + 1) + j + 1] {
                i += 1;
            } else {
                j += 1;
            }
        }
    }
    if am.len() == bm.len() && am.len() * bm.len() > MAX_LCS_CELLS {
        // Too long to compare every pair, but line for line (a variant that rewrites
        // literals keeps its lines): the equal lines at the same place.
        matches.extend((0..am.len()).filter(|&i| am[i] == bm[i]).map(|i| (i, i)));
    }
    matches.push((am.len(), bm.len()));
    let offsets = |ls: &[&str]| {
        let mut out = Vec::with_capacity(ls.len() + 1);
        let mut at = 0;
        out.push(0);
        for l in ls {
            at += l.len();
            out.push(at);
        }
        out
    };
    let a_off = offsets(&a);
    let mut out = Vec::new();
    let (mut i, mut j) = (0, 0);
    for (mi, mj) in matches {
        if mi > i || mj > j {
            let (oi, nj) = (prefix + i, prefix + j);
            out.push(Hunk {
                old: TextRange::new(a_off[oi], a_off[prefix + mi]),
                new: bm[j..mj].concat(),
                old_line: oi,
                old_lines: mi - i,
                new_line: nj,
                new_lines: mj - j,
            });
        }
        i = mi + 1;
        j = mj + 1;
    }
    out
}

/// Applies hunks (or any non-overlapping replacements) to `text`.
pub fn apply(text: &str, edits: &[(TextRange, String)]) -> String {
    let mut sorted: Vec<&(TextRange, String)> = edits.iter().collect();
    sorted.sort_by_key(|(r, _)| r.start);
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for (r, new) in sorted {
        let start = r.start.clamp(at, text.len());
        out.push_str(text.get(at..start).unwrap_or(""));
        out.push_str(new);
        at = r.end.clamp(start, text.len());
    }
    out.push_str(text.get(at..).unwrap_or(""));
    out
}

/// A unified diff (`---`/`+++` headers, `@@` hunks with `context` lines around them).
pub fn unified(old: &str, new: &str, old_name: &str, new_name: &str, context: usize) -> String {
    let (a, b) = (lines(old), lines(new));
    let hs = hunks(old, new);
    if hs.is_empty() {
        return String::new();
    }
    let mut out = format!("--- {old_name}\n+++ {new_name}\n");
    let mut k = 0;
    while k < hs.len() {
        // Merge hunks whose context would touch.
        let mut end = k;
        while end + 1 < hs.len() && hs[end + 1].old_line <= hs[end].old_line + hs[end].old_lines + 2 * context {
            end += 1;
        }
        let start_a = hs[k].old_line.saturating_sub(context);
        let start_b = hs[k].new_line.saturating_sub(hs[k].old_line - start_a);
        let last = &hs[end];
        let stop_a = (last.old_line + last.old_lines + context).min(a.len());
        let stop_b = (last.new_line + last.new_lines + (stop_a - (last.old_line + last.old_lines))).min(b.len());
        out += &format!("@@ -{},{} +{},{} @@\n", start_a + 1, stop_a - start_a, start_b + 1, stop_b - start_b);
        let mut ia = start_a;
        for h in &hs[k..=end] {
            for l in &a[ia..h.old_line] {
                out += &format!(" {}", with_newline(l));
            }
            for l in &a[h.old_line..h.old_line + h.old_lines] {
                out += &format!("-{}", with_newline(l));
            }
            for l in &b[h.new_line..h.new_line + h.new_lines] {
                out += &format!("+{}", with_newline(l));
            }
            ia = h.old_line + h.old_lines;
        }
        for l in &a[ia..stop_a] {
            out += &format!(" {}", with_newline(l));
        }
        k = end + 1;
    }
    out
}

fn with_newline(l: &str) -> String {
    if l.ends_with('\n') {
        l.to_string()
    } else {
        format!("{l}\n\\ No newline at end of file\n")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hunks_rebuild_the_variant() {
        let old = "a\nb\nc\nd\ne\nf\n";
        let new = "a\nB\nc\nd\ne\nF\ng\n";
        let hs = hunks(old, new);
        assert_eq!(hs.len(), 2);
        assert_eq!(&old[hs[0].old.start..hs[0].old.end], "b\n");
        let edits: Vec<_> = hs.iter().map(|h| (h.old, h.new.clone())).collect();
        assert_eq!(apply(old, &edits), new);
        let d = unified(old, new, "a.cu", "b.cu", 1);
        assert!(d.starts_with("--- a.cu\n+++ b.cu\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n"), "{d}");
        assert!(d.contains("-f\n+F\n+g\n"), "{d}");
        assert!(hunks(old, old).is_empty());
        assert_eq!(unified(old, old, "x", "y", 3), "");
    }

    #[test]
    fn long_files_with_the_same_lines_give_small_hunks() {
        let old: String = (0..5000).map(|i| format!("line {i}\n")).collect();
        let new = old.replacen("line 3\n", "line three\n", 1).replacen("line 4990\n", "line x\n", 1);
        let hs = hunks(&old, &new);
        assert_eq!(hs.len(), 2);
        assert_eq!((hs[0].old_lines, hs[1].old_line), (1, 4990));
        let edits: Vec<_> = hs.iter().map(|h| (h.old, h.new.clone())).collect();
        assert_eq!(apply(&old, &edits), new);
    }

    #[test]
    fn no_final_newline_and_insertions() {
        let (old, new) = ("x\ny", "x\nz\ny");
        let hs = hunks(old, new);
        let edits: Vec<_> = hs.iter().map(|h| (h.old, h.new.clone())).collect();
        assert_eq!(apply(old, &edits), new);
        let (old, new) = ("x\ny", "x\nw");
        let edits: Vec<_> = hunks(old, new).iter().map(|h| (h.old, h.new.clone())).collect();
        assert_eq!(apply(old, &edits), new);
        assert!(unified(old, new, "a", "b", 3).contains("\\ No newline at end of file"));
    }
}
