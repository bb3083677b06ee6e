//! A CUDA file read in pieces: the text is cut where top-level items begin
//! ([`super::split`]), each piece is parsed alone, its items' facts are taken and its
//! tree is dropped, so no tree of the whole file is ever held. The facts are cached by
//! the hash of the piece's text: an edit re-parses the pieces it touched. Pieces are
//! read nearest a focus first (the lines an editor shows), the rest as time allows.

use super::{collect_items, cuda, walk, ItemFacts};
use crate::hash::ContentHash;
use crate::kernel::{Language, TextRange};
use crate::source::SourceText;
use std::collections::{HashMap, HashSet};
use std::ops::Range;
use std::sync::Arc;
use std::time::Instant;
use tree_sitter::Parser;

/// The most bytes around a focus read before anything else, whatever the deadline (an
/// editor's visible range is far smaller; a request for the whole file waits for no more).
pub const FOCUS_LIMIT: usize = 256 * 1024;

/// What one piece of text holds.
#[derive(Debug, Default)]
struct PieceFacts {
    /// Each item's offset in the piece, and its facts (relative to the item's start).
    items: Vec<(usize, Arc<ItemFacts>)>,
    /// Syntax errors, relative to the piece's start.
    errors: Vec<TextRange>,
    /// Its parse ran out of time: it has no facts.
    timed_out: bool,
}

/// One piece of a text: its byte range and the hash of its text.
#[derive(Clone, Copy, Debug)]
struct Piece {
    start: usize,
    end: usize,
    key: ContentHash,
}

/// A text's pieces, in order.
type Layout = Arc<Vec<Piece>>;

/// The items read so far of one text, with file offsets.
pub(super) struct Placed {
    pub items: Vec<(usize, Arc<ItemFacts>)>,
    pub errors: Vec<TextRange>,
    /// Pieces not read yet.
    pub unread: usize,
    /// A piece's parse ran out of time.
    pub timed_out: bool,
}

#[derive(Default)]
pub(super) struct Pieces {
    cache: HashMap<ContentHash, Arc<PieceFacts>>,
    /// Keys used by the last two assemblies (a document's text and the baseline being
    /// read in turn) and those read since: the cache keeps only these.
    used: HashSet<ContentHash>,
    fresh: HashSet<ContentHash>,
    /// The last texts' pieces, by [`SourceText::revision`].
    layouts: Vec<((u64, u64), Layout)>,
    parser: Option<Parser>,
}

impl Pieces {
    /// The pieces of `src` (a lexical scan and a hash per piece, once per revision;
    /// after edits, only from the piece before the first to where the pieces are those
    /// of the last layout again).
    fn layout(&mut self, src: &SourceText) -> Layout {
        let revision = src.revision();
        if let Some((_, layout)) = self.layouts.iter().find(|(r, _)| *r == revision) {
            return layout.clone();
        }
        let before = self
            .layouts
            .iter()
            .filter(|((id, r), _)| *id == revision.0 && *r < revision.1)
            .max_by_key(|((_, r), _)| *r)
            .and_then(|((_, r), layout)| Some((src.edits_since(*r)?, layout.clone())));
        let layout = Arc::new(match before {
            Some((edits, old)) => relayout(src, &old, &edits),
            None => pieces_from(src, 0, &[], None),
        });
        self.layouts.insert(0, (revision, layout.clone()));
        self.layouts.truncate(2);
        layout
    }

    /// Reads the pieces of `src` not read yet: those within [`FOCUS_LIMIT`] of `focus`
    /// first (all of them), then the others in order until `deadline`. Returns how many
    /// are left unread.
    pub fn read(&mut self, src: &SourceText, focus: Range<usize>, deadline: Option<Instant>) -> usize {
        let layout = self.layout(src);
        let focus_end = focus.end.min(focus.start.saturating_add(FOCUS_LIMIT));
        let near = |p: &Piece| p.start <= focus_end && focus.start < p.end.max(p.start + 1);
        let (first, rest): (Vec<&Piece>, Vec<&Piece>) = layout.iter().partition(|p| near(p));
        let mut unread = 0;
        for (must, piece) in first.into_iter().map(|p| (true, p)).chain(rest.into_iter().map(|p| (false, p))) {
            if self.cache.contains_key(&piece.key) {
                continue;
            }
            if !must && deadline.is_some_and(|d| Instant::now() >= d) {
                unread += 1;
                continue;
            }
            let parser = self.parser.get_or_insert_with(|| crate::source::parser_for(Language::Cuda));
            let facts = read_piece(parser, &src.slice(piece.start, piece.end));
            self.cache.insert(piece.key, Arc::new(facts));
            self.fresh.insert(piece.key);
        }
        unread
    }

    /// Forgets the pieces of the text `id`.
    pub fn forget(&mut self, id: u64) {
        self.layouts.retain(|((i, _), _)| *i != id);
    }

    /// The facts of the pieces of `src` read so far, placed at their file offsets.
    pub fn placed(&mut self, src: &SourceText) -> Placed {
        let layout = self.layout(src);
        let mut placed = Placed { items: Vec::new(), errors: Vec::new(), unread: 0, timed_out: false };
        let mut used = HashSet::with_capacity(layout.len());
        for piece in layout.iter() {
            let Some(facts) = self.cache.get(&piece.key) else {
                placed.unread += 1;
                continue;
            };
            used.insert(piece.key);
            placed.timed_out |= facts.timed_out;
            placed.items.extend(facts.items.iter().map(|(at, f)| (piece.start + at, f.clone())));
            let room = 32usize.saturating_sub(placed.errors.len());
            placed.errors.extend(facts.errors.iter().take(room).map(|r| r.shifted(piece.start as isize)));
        }
        // Keep only what the texts read lately still have, so the cache cannot grow
        // without bound.
        let last = std::mem::take(&mut self.used);
        self.cache.retain(|k, _| used.contains(k) || last.contains(k) || self.fresh.contains(k));
        self.used = used;
        self.fresh.clear();
        placed
    }
}

/// The pieces of `src` from byte `from` (a piece start), after `kept`; up to the old
/// pieces `resume` (their first start and how far they moved), if the scan meets them.
fn pieces_from(src: &SourceText, from: usize, kept: &[Piece], resume: Option<(&[Piece], isize)>) -> Vec<Piece> {
    let (first, synced) = match resume {
        Some((old, _)) => (old.first().map_or(usize::MAX, |p| p.start), Some(old)),
        None => (usize::MAX, None),
    };
    let delta = resume.map_or(0, |(_, d)| d);
    let mut starts = Vec::new();
    let mut met = None;
    let (chunks, chunk_start, _, _) = src.rope().chunks_at_byte(from);
    let skip = from.saturating_sub(chunk_start);
    let bytes =
        chunks
            .enumerate()
            .map(|(i, c)| if i == 0 { c.as_bytes().get(skip..).unwrap_or_default() } else { c.as_bytes() });
    super::split::scan(bytes, from, |at| {
        let old_at = at as isize - delta;
        if let (Some(old), true) = (synced, old_at >= first as isize) {
            if let Ok(i) = old.binary_search_by_key(&(old_at as usize), |p| p.start) {
                met = Some(i);
                return false;
            }
        }
        starts.push(at);
        true
    });
    let shift = |at: usize| (at as isize + delta).max(0) as usize;
    let end = match (met, synced) {
        (Some(i), Some(old)) => shift(old[i].start),
        _ => src.len_bytes(),
    };
    let mut out = kept.to_vec();
    out.extend(starts.iter().enumerate().map(|(i, &start)| {
        let end = starts.get(i + 1).copied().unwrap_or(end);
        Piece { start, end, key: src.hash_range(start, end) }
    }));
    if let (Some(i), Some(old)) = (met, synced) {
        out.extend(old[i..].iter().map(|p| Piece { start: shift(p.start), end: shift(p.end), key: p.key }));
    }
    out
}

/// The pieces of `src` after `edits` (start, old end, new end, in order) of the text
/// whose pieces were `old`: those before the first edit are kept, and the scan runs
/// from the last of them to where it meets the old pieces after the last edit.
fn relayout(src: &SourceText, old: &[Piece], edits: &[(usize, usize, usize)]) -> Vec<Piece> {
    let Some(&(start, _, end)) = edits.first() else { return old.to_vec() };
    // The changed bytes, in the new text's offsets, and how far what follows moved.
    let (mut lo, mut hi, mut delta) = (start, end, 0isize);
    for &(start, old_end, new_end) in edits {
        let d = new_end as isize - old_end as isize;
        hi = if hi >= old_end {
            (hi as isize + d) as usize
        } else if hi > start {
            new_end
        } else {
            hi
        };
        (lo, hi, delta) = (lo.min(start), hi.max(new_end), delta + d);
    }
    let before = old.partition_point(|p| p.start < lo);
    if before == 0 {
        return pieces_from(src, 0, &[], None);
    }
    let from = old[before - 1].start;
    let after = old.partition_point(|p| (p.start as isize) < hi as isize - delta + 1);
    pieces_from(src, from, &old[..before - 1], Some((&old[after..], delta)))
}

/// Parses one piece, takes its items' facts and drops its tree.
fn read_piece(parser: &mut Parser, text: &str) -> PieceFacts {
    let piece = SourceText::piece(parser, Language::Cuda, text);
    let Some(tree) = piece.tree() else {
        return PieceFacts { timed_out: true, ..PieceFacts::default() };
    };
    let root = tree.root_node();
    let mut nodes = Vec::new();
    collect_items(Language::Cuda, root, &piece, &mut nodes);
    let items = nodes
        .into_iter()
        .map(|(item, guard)| {
            let mut facts = cuda::item_facts(item, &piece).relative_to(item.start_byte());
            super::guard_helpers(&mut facts, &guard);
            (item.start_byte(), Arc::new(facts))
        })
        .collect();
    let mut errors = Vec::new();
    if root.has_error() {
        walk::errors(root, &mut errors, 32);
    }
    PieceFacts { items, errors, timed_out: false }
}

#[cfg(test)]
mod tests {
    use super::super::{extract_text, Extractor};
    use crate::kernel::Language;
    use crate::source::SourceText;
    use std::time::Instant;

    /// A kernel at the top, launched by a host function at the end, far beyond what is
    /// read first; a `#define` and a helper between them.
    fn far_launch() -> String {
        let mut text = String::from(
            "#define BLOCK 256\n__device__ float twice(float v) { return 2.0f * v; }\n\
             __global__ void scale(float* x, int n) {\n  int i = blockIdx.x * BLOCK + threadIdx.x;\n  \
             if (i < n) x[i] = twice(x[i]);\n}\n",
        );
        let mut i = 0;
        while text.len() < 3 * super::FOCUS_LIMIT {
            text += &format!("__global__ void filler_{i}(float* y) {{ y[threadIdx.x] += {i}.0f; }}\n");
            i += 1;
        }
        text += "void run(float* x) {\n  int n = 1 << 24;\n  scale<<<(n + BLOCK - 1) / BLOCK, BLOCK>>>(x, n);\n}\n";
        text
    }

    #[test]
    fn a_kernel_read_first_gets_its_launch_at_the_end_once_all_is_read() {
        let text = far_launch();
        let src = SourceText::unparsed(Language::Cuda, &text);
        let mut ex = Extractor::new(Language::Cuda);
        // Only what the user looks at (the first lines), nothing else.
        let unread = ex.read(&src, 0..200, Some(Instant::now()));
        assert!(unread > 0);
        let first = ex.assemble(&src);
        assert_eq!(first.unread, unread);
        let scale = first.kernel("scale").expect("the kernel read first");
        assert!(scale.launches.is_empty(), "its launch is not read yet");
        assert_eq!(scale.helpers.len(), 2, "the helper and the `#define` above it are");

        // The rest, as later analyses read it: the same kernels as a whole-file reading.
        assert_eq!(ex.read(&src, 0..200, None), 0);
        let all = ex.assemble(&src);
        assert_eq!(all.unread, 0);
        let scale = all.kernel("scale").expect("scale");
        assert_eq!(scale.launches.len(), 1);
        let launch = &scale.launches[0];
        assert_eq!(launch.grid.as_deref(), Some("(n + BLOCK - 1) / BLOCK"));
        assert_eq!(launch.locals.get("n").map(String::as_str), Some("1 << 24"));
        assert_eq!(launch.locals.get("BLOCK").map(String::as_str), Some("256"));
        let whole = extract_text(Language::Cuda, &text);
        assert_eq!(all.kernels, whole.kernels);
        assert_eq!(all.external_launches, whole.external_launches);
    }

    #[test]
    fn pieces_after_edits_are_those_of_a_fresh_scan() {
        let mut text = String::new();
        for i in 0..40 {
            text += &format!(
                "// k{i}\n__global__ void k{i}(float* y) {{ y[0] = '}}'; }}\nvoid run{i}() {{ k{i}<<<1, 1>>>(0); }}\n\
                 #define N{i} 4\nstruct S{i} {{ int a; }}\n;\n"
            );
        }
        let mut src = SourceText::unparsed(Language::Cuda, &text);
        let mut pieces = super::Pieces::default();
        let mut rng = crate::rng::Rng::new(21);
        let snippets = [
            "}",
            "{",
            "/*",
            "*/",
            "\"",
            "'",
            "\n",
            "void f() {}\n",
            "#if X\n",
            "#endif\n",
            ";",
            "int y;",
            "//",
            "R\"(",
            ")\"",
            "\\",
        ];
        for round in 0..300 {
            // One to three edits between two layouts.
            for _ in 0..1 + rng.below(3) {
                let len = src.len_bytes();
                let start = rng.below(len + 1);
                let end = (start + rng.below(40)).min(len);
                src.edit(start, end, snippets[rng.below(snippets.len())]);
            }
            let fresh = super::pieces_from(&src, 0, &[], None);
            let layout = pieces.layout(&src);
            let starts = |l: &[super::Piece]| l.iter().map(|p| (p.start, p.end, p.key)).collect::<Vec<_>>();
            assert_eq!(starts(&layout), starts(&fresh), "round {round}: {:?}", src.text());
        }
    }

    #[test]
    fn an_edit_reads_again_only_the_piece_it_touched() {
        let text = far_launch();
        let mut src = SourceText::unparsed(Language::Cuda, &text);
        let mut ex = Extractor::new(Language::Cuda);
        ex.extract(&src);
        let at = text.find("+= 7.0f").expect("filler_7");
        src.edit(at + 3, at + 4, "8");
        // Nothing but the edited piece may be read: a deadline already past reads it alone.
        assert_eq!(ex.read(&src, at..at + 1, Some(Instant::now())), 0);
        let edited = ex.assemble(&src);
        assert_eq!(edited.unread, 0);
        assert_eq!(edited.kernels, extract_text(Language::Cuda, &src.text()).kernels);
        // A `#define` the launch uses: the kernels built last are not kept.
        let at = src.text().find("256").expect("BLOCK");
        src.edit(at, at + 3, "128");
        ex.read(&src, at..at + 1, None);
        let edited = ex.assemble(&src);
        assert_eq!(edited.kernels, extract_text(Language::Cuda, &src.text()).kernels);
        let scale = edited.kernel("scale").expect("scale");
        assert_eq!(scale.launches[0].locals.get("BLOCK").map(String::as_str), Some("128"));
    }
}
