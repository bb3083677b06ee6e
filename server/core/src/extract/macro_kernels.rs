//! Kernels a function-like macro defines: `#define DEFINE_SCALE(TAG, T) __global__ void
//! scale_##TAG(const T* x, …) { … }` used at file scope as `DEFINE_SCALE(f16, __half)`, a
//! kernel per use (one per element type, say). The file is read again with each such use
//! expanded; the kernels found inside an expansion are placed at their use (what an editor
//! shows and edits), the launches outside it where they are.

use super::macros::Macro;
use super::{extract_text, Extraction};
use crate::kernel::{Kernel, Language, TextRange};

/// One use replaced by its expansion: where it was, and where its expansion lies in the
/// expanded text.
struct Expanded {
    original: TextRange,
    expanded: TextRange,
}

/// The kernels the macros of `text` define that `found` (the kernels read as written) does
/// not hold already. Empty unless some `#define` holds a `__global__` function.
pub(super) fn kernels(text: &str, found: &[Kernel]) -> Vec<Kernel> {
    let defines = kernel_macros(text);
    if defines.is_empty() {
        return Vec::new();
    }
    // Each use outside the definitions, in order; the definitions themselves blanked so the
    // expanded text defines nothing to expand again.
    let mut uses: Vec<(TextRange, String)> = Vec::new();
    for (_, m) in &defines {
        for (start, args, end) in m.uses(text) {
            if defines.iter().any(|(d, _)| start >= d.start && start < d.end) {
                continue;
            }
            uses.push((TextRange::new(start, end), m.expand(&args)));
        }
    }
    if uses.is_empty() {
        return Vec::new();
    }
    uses.sort_by_key(|(r, _)| r.start);
    let mut out = String::with_capacity(text.len() * 2);
    let mut map = Vec::with_capacity(uses.len());
    let mut at = 0;
    for (range, expansion) in uses {
        if range.start < at {
            continue;
        }
        out.push_str(&blank_defines(&text[at..range.start], at, &defines));
        let start = out.len();
        out.push_str(&expansion);
        // The expansion on its own lines: a macro body is one logical line.
        out.push('\n');
        map.push(Expanded { original: range, expanded: TextRange::new(start, out.len()) });
        at = range.end;
    }
    out.push_str(&blank_defines(&text[at..], at, &defines));
    let Extraction { kernels, .. } = extract_text(Language::Cuda, &out);
    kernels
        .into_iter()
        .filter(|k| map.iter().any(|m| inside(&m.expanded, k.range.start)))
        .filter(|k| !found.iter().any(|f| f.name == k.name))
        .map(|mut k| {
            let back = |p: usize| original_offset(&map, p);
            let whole = |r: TextRange| match map.iter().find(|m| inside(&m.expanded, r.start)) {
                Some(m) => m.original,
                None => TextRange::new(back(r.start), back(r.end)),
            };
            k.range = whole(k.range);
            k.name_range = whole(k.name_range);
            k.signature_end = k.range.end;
            for l in &mut k.launches {
                l.range = whole(l.range);
            }
            k
        })
        .collect()
}

fn inside(r: &TextRange, p: usize) -> bool {
    p >= r.start && p < r.end
}

/// An offset of the expanded text outside every expansion, in the original text.
fn original_offset(map: &[Expanded], p: usize) -> usize {
    let mut shift: isize = 0;
    for m in map {
        if m.expanded.end <= p {
            shift += (m.original.end - m.original.start) as isize - (m.expanded.end - m.expanded.start) as isize;
        }
    }
    (p as isize + shift).max(0) as usize
}

/// `piece` (starting at `offset` of the text) with the kernel-defining `#define`s in it
/// replaced by as many spaces (newlines kept), so offsets stay as they were.
fn blank_defines(piece: &str, offset: usize, defines: &[(TextRange, Macro)]) -> String {
    let mut out: Vec<u8> = piece.as_bytes().to_vec();
    for (r, _) in defines {
        let (s, e) = (r.start.max(offset), r.end.min(offset + piece.len()));
        for b in out.iter_mut().take(e.saturating_sub(offset)).skip(s.saturating_sub(offset)) {
            if *b != b'\n' {
                *b = b' ';
            }
        }
    }
    // Only ASCII bytes were replaced, and whole characters of other bytes kept.
    String::from_utf8(out).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

/// The function-like macros whose body defines a `__global__` function, with the range of
/// their definition (continuation lines included).
fn kernel_macros(text: &str) -> Vec<(TextRange, Macro)> {
    if !text.contains("__global__") || !text.contains("#define") {
        return Vec::new();
    }
    let mut out = Vec::new();
    let mut offset = 0;
    let mut lines = text.split_inclusive('\n');
    while let Some(line) = lines.next() {
        let start = offset;
        offset += line.len();
        if !line.trim_start().starts_with("#define") {
            continue;
        }
        let mut joined = line.trim_end_matches(['\n', '\r']).to_string();
        while joined.ends_with('\\') {
            joined.pop();
            joined.push(' ');
            let Some(next) = lines.next() else { break };
            offset += next.len();
            joined.push_str(next.trim_end_matches(['\n', '\r']));
        }
        if !joined.contains("__global__") {
            continue;
        }
        if let Some(m) = Macro::parse(&joined).filter(|m| !m.params.is_empty()) {
            out.push((TextRange::new(start, offset), m));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const SRC: &str = r#"#include <cuda_fp16.h>
#define SCALE_KERNEL(TAG, T)                                             \
    __global__ void scale_##TAG(const T* __restrict__ x, T* __restrict__ y, long long n) { \
        long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;  \
        if (i < n) y[i] = x[i] * (T)2;                                   \
    }

SCALE_KERNEL(f32, float)
SCALE_KERNEL(f64, double)

extern "C" int scale(const void* x, void* y, long long n) {
    scale_f32<<<(n + 255) / 256, 256>>>((const float*)x, (float*)y, n);
    return 0;
}
"#;

    #[test]
    fn a_kernel_per_use_placed_at_the_use_with_its_launch() {
        let ex = extract_text(Language::Cuda, SRC);
        let names: Vec<&str> = ex.kernels.iter().map(|k| k.name.as_str()).collect();
        assert_eq!(names, ["scale_f32", "scale_f64"]);
        let k = &ex.kernels[0];
        assert!(SRC[k.range.start..k.range.end].starts_with("SCALE_KERNEL(f32"), "{:?}", k.range);
        assert!(k.source.contains("const float* __restrict__ x"), "{}", k.source);
        assert_eq!(k.launches.len(), 1);
        let l = &k.launches[0];
        assert!(SRC[l.range.start..l.range.end].starts_with("scale_f32<<<"), "{:?}", l.range);
        assert!(ex.kernels[1].launches.is_empty());
    }

    #[test]
    fn a_file_without_kernel_macros_reads_as_before() {
        let plain = "__global__ void k(float* x) { x[threadIdx.x] = 0; }\n#define TWICE(v) ((v) * 2)\n";
        assert!(kernels(plain, &[]).is_empty());
    }
}
