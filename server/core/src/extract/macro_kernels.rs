//! Kernels a function-like macro defines: `#define DEFINE_SCALE(TAG, T) __global__ void
//! scale_##TAG(const T* x, …) { … }` used at file scope as `DEFINE_SCALE(f16, __half)`, a
//! kernel per use (one per element type, say). The file is read again with each such use
//! expanded; the kernels found inside an expansion are placed at their use (what an editor
//! shows and edits), the launches outside it where they are.

use super::macros::Macro;
use super::{extract_text, Extraction, ItemFacts};
use crate::kernel::{HelperKind, Kernel, Language, TextRange};
use std::sync::Arc;

/// One use replaced by its expansion: where it was, and where its expansion lies in the
/// expanded text.
struct Expanded {
    original: TextRange,
    expanded: TextRange,
}

/// The function-like macros of the read items whose body defines a `__global__` function
/// (from the helpers each item keeps; empty for almost every file, so nothing more is read).
pub(super) fn defining(placed: &[(usize, Arc<ItemFacts>)]) -> Vec<Macro> {
    placed
        .iter()
        .flat_map(|(_, f)| &f.helpers)
        .filter(|h| h.kind == HelperKind::Macro && h.text.contains("__global__"))
        .filter_map(|h| Macro::parse(&h.text))
        .filter(|m| !m.params.is_empty())
        .collect()
}

/// The kernels `defines` (from [`defining`]) make where `text` uses them, that `found`
/// (the kernels read as written) does not hold already.
pub(super) fn kernels(text: &str, defines: &[Macro], found: &[Kernel]) -> Vec<Kernel> {
    // Each use outside a definition (`#define NAME(…)` itself matches), in order.
    let mut uses: Vec<(TextRange, String)> = Vec::new();
    for m in defines {
        for (start, args, end) in m.uses(text) {
            let line = text[..start].rsplit('\n').next().unwrap_or("");
            if !line.trim_start().starts_with('#') {
                uses.push((TextRange::new(start, end), m.expand(&args)));
            }
        }
    }
    if uses.is_empty() {
        return Vec::new();
    }
    uses.sort_by_key(|(r, _)| r.start);
    // The text with each use expanded (the definitions stay: read again, they have no use
    // left, so the reading stops there).
    let mut out = String::with_capacity(text.len() * 2);
    let mut map = Vec::with_capacity(uses.len());
    let mut at = 0;
    for (range, expansion) in uses {
        if range.start < at {
            continue;
        }
        out.push_str(&text[at..range.start]);
        let start = out.len();
        out.push_str(&expansion);
        // The expansion on its own lines: a macro body is one logical line.
        out.push('\n');
        map.push(Expanded { original: range, expanded: TextRange::new(start, out.len()) });
        at = range.end;
    }
    out.push_str(&text[at..]);
    let Extraction { kernels, .. } = extract_text(Language::Cuda, &out);
    kernels
        .into_iter()
        .filter(|k| map.iter().any(|m| inside(&m.expanded, k.range.start)))
        .filter(|k| !found.iter().any(|f| f.name == k.name))
        .map(|mut k| {
            let whole = |r: TextRange| match map.iter().find(|m| inside(&m.expanded, r.start)) {
                Some(m) => m.original,
                None => TextRange::new(original_offset(&map, r.start), original_offset(&map, r.end)),
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
        let ex = extract_text(Language::Cuda, plain);
        assert_eq!(ex.kernels.len(), 1);
        assert!(kernels(plain, &[], &ex.kernels).is_empty());
    }
}
