//! A document's text as a rope, with an incrementally maintained tree-sitter parse.

use crate::hash::{ContentHash, Hasher};
use crate::kernel::Language;
use ropey::Rope;
use std::borrow::Cow;
use std::ops::ControlFlow;
use std::time::{Duration, Instant};
use tree_sitter::{InputEdit, ParseOptions, ParseState, Parser, Point, Tree};

/// The longest one parse of a small text may run: past it the parse is abandoned and
/// the text is reported too complex (tree-sitter's error recovery can take seconds on a
/// few kilobytes of pathological input, such as runs of `*/`).
pub const PARSE_BUDGET: Duration = Duration::from_millis(500);
/// What a large text adds to the budget per byte (1 µs: 1 MB/s, where tree-sitter
/// parses real code at 3 MB/s or more even in a loaded debug build), so that no real
/// file runs out of time.
const BUDGET_PER_BYTE_NS: u64 = 1000;

/// Text plus its syntax tree. Edits are applied in bytes; the tree is re-parsed
/// incrementally on [`SourceText::reparse`], within a time budget.
pub struct SourceText {
    language: Language,
    rope: Rope,
    /// The last tree parsed, edited along with the text (stale while `timed_out`).
    tree: Option<Tree>,
    /// Made on the first parse (a text read in chunks never parses itself whole).
    parser: Option<Parser>,
    /// The whole text is parsed (else it is only a rope: see [`SourceText::unparsed`]).
    whole: bool,
    dirty: bool,
    /// Which text this is and how many times it changed (see [`SourceText::revision`]).
    id: u64,
    revision: u64,
    /// The latest edits (the revision each made, start, old end, new end), so a reader
    /// of an older revision can tell what changed; none before `log_from`.
    edits: std::collections::VecDeque<(u64, usize, usize, usize)>,
    log_from: u64,
    budget: Duration,
    timed_out: bool,
}

/// Creates a parser for a language.
pub fn parser_for(language: Language) -> Parser {
    let mut parser = Parser::new();
    let grammar: tree_sitter::Language = match language {
        Language::Cuda => tree_sitter_cuda::LANGUAGE.into(),
        Language::Triton => tree_sitter_python::LANGUAGE.into(),
    };
    // The grammars are compiled into this crate with a matching ABI; failure here is a
    // build defect, reported by every parse returning no tree.
    if let Err(err) = parser.set_language(&grammar) {
        tracing::error!("tree-sitter grammar for {} rejected: {err}", language.name());
    }
    parser
}

/// Snippets (a kernel's text) parsed lately on this thread, newest first.
const SNIPPETS: usize = 4;

thread_local! {
    static SNIPPET_PARSERS: std::cell::RefCell<(Option<Parser>, Option<Parser>)> = const { std::cell::RefCell::new((None, None)) };
    static SNIPPET_TREES: std::cell::RefCell<Vec<(Language, String, Option<Tree>)>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// The tree of a snippet (a kernel's text, parsed alone). A forecast profiles each
/// version of a kernel at several problem sizes, the two versions in turn: the last few
/// snippets' trees are kept (per thread), so each version is parsed once, not per size.
pub fn parse_snippet(language: Language, text: &str) -> Option<Tree> {
    let found = SNIPPET_TREES.with(|trees| {
        let mut trees = trees.borrow_mut();
        let at = trees.iter().position(|(l, t, _)| *l == language && t == text)?;
        let entry = trees.remove(at);
        let tree = entry.2.clone();
        trees.insert(0, entry);
        Some(tree)
    });
    if let Some(tree) = found {
        return tree;
    }
    let tree = SNIPPET_PARSERS.with(|parsers| {
        let mut parsers = parsers.borrow_mut();
        let slot = match language {
            Language::Cuda => &mut parsers.0,
            Language::Triton => &mut parsers.1,
        };
        let parser = slot.get_or_insert_with(|| parser_for(language));
        match language {
            Language::Cuda if text.contains("__align__") => parser.parse(blank_align(text), None),
            _ => parser.parse(text, None),
        }
    });
    SNIPPET_TREES.with(|trees| {
        let mut trees = trees.borrow_mut();
        trees.insert(0, (language, text.to_string(), tree.clone()));
        trees.truncate(SNIPPETS);
    });
    tree
}

/// `text` with each `__align__(…)` (CUDA's alignment attribute, `__shared__ __align__(16)
/// float tile[…]`, which the grammar does not know and reads as an error swallowing the
/// code around it) blanked, byte for byte, so every node keeps its place in `text`.
fn blank_align(text: &str) -> String {
    let mut out = text.as_bytes().to_vec();
    let mut from = 0;
    while let Some(at) = text[from..].find("__align__").map(|i| from + i) {
        let open = at + "__align__".len();
        let rest = &text.as_bytes()[open..];
        let skip = rest.iter().take_while(|b| b.is_ascii_whitespace()).count();
        let mut end = open;
        if rest.get(skip) == Some(&b'(') {
            let mut depth = 0usize;
            for (i, b) in rest.iter().enumerate().skip(skip) {
                match b {
                    b'(' => depth += 1,
                    b')' => depth = depth.saturating_sub(1),
                    _ => {}
                }
                if depth == 0 {
                    end = open + i + 1;
                    break;
                }
            }
        }
        for b in &mut out[at..end.max(open)] {
            if *b != b'\n' {
                *b = b' ';
            }
        }
        from = end.max(open);
    }
    // Only ASCII bytes were replaced by ASCII spaces: still UTF-8.
    String::from_utf8(out).unwrap_or_else(|_| text.to_string())
}

/// Whether `rope` holds `needle`, across its chunks' seams too, without copying it.
fn rope_contains(rope: &Rope, needle: &str) -> bool {
    let needle = needle.as_bytes();
    let holds = |hay: &[u8]| hay.windows(needle.len()).any(|w| w == needle);
    let mut tail: Vec<u8> = Vec::new();
    rope.chunks().map(str::as_bytes).any(|chunk| {
        // The end of the previous chunk and the start of this one: a needle cut in two.
        tail.extend_from_slice(&chunk[..chunk.len().min(needle.len())]);
        let found = holds(chunk) || holds(&tail);
        tail.clear();
        tail.extend_from_slice(&chunk[chunk.len().saturating_sub(needle.len())..]);
        found
    })
}

/// Parses a rope (incrementally from `old`) within `budget`; `(None, true)` when the
/// parse ran out of time (the parser is reset for the next one).
fn parse_rope(
    parser: &mut Parser,
    language: Language,
    rope: &Rope,
    old: Option<&Tree>,
    budget: Duration,
) -> (Option<Tree>, bool) {
    // CUDA's `__align__(…)`, which the grammar does not know, is read blanked (see
    // `blank_align`); a text without it is read from the rope as it is.
    let blanked =
        (language == Language::Cuda && rope_contains(rope, "__align__")).then(|| blank_align(&rope.to_string()));
    let mut read = |byte: usize, _: Point| -> &[u8] {
        if byte >= rope.len_bytes() {
            return &[];
        }
        if let Some(text) = &blanked {
            return text.as_bytes().get(byte..).unwrap_or_default();
        }
        let (chunk, chunk_start, _, _) = rope.chunk_at_byte(byte);
        &chunk.as_bytes()[byte - chunk_start..]
    };
    let start = Instant::now();
    let mut progress = |_: &ParseState| {
        if start.elapsed() > budget {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    };
    let options = ParseOptions::new().progress_callback(&mut progress);
    match parser.parse_with_options(&mut read, old, Some(options)) {
        Some(tree) => (Some(tree), false),
        None => {
            parser.reset();
            tracing::warn!("parse abandoned after {:?} ({} bytes)", start.elapsed(), rope.len_bytes());
            (None, true)
        }
    }
}

impl SourceText {
    pub fn new(language: Language, text: &str) -> Self {
        Self::with_budget(language, text, PARSE_BUDGET)
    }

    /// A text whose parses may each run at most `budget` (plus a share per byte).
    pub fn with_budget(language: Language, text: &str, budget: Duration) -> Self {
        let mut this = Self::unparsed(language, text);
        this.whole = true;
        this.budget = budget;
        this.reparse();
        this
    }

    /// A text kept as a rope only, never parsed whole: its reader parses it in pieces
    /// (`extract` reads a CUDA file item by item), so no tree of the whole file is ever
    /// held. [`SourceText::tree`] is `None`, and [`SourceText::reparse`] does nothing.
    pub fn unparsed(language: Language, text: &str) -> Self {
        static TEXTS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        Self {
            language,
            rope: Rope::from_str(text),
            tree: None,
            parser: None,
            whole: false,
            dirty: true,
            id: TEXTS.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
            revision: 0,
            edits: Default::default(),
            log_from: 0,
            budget: PARSE_BUDGET,
            timed_out: false,
        }
    }

    /// A piece of a larger text parsed with `parser` (the caller's, reused from piece to
    /// piece) within the budget of its size; `timed_out` when the parse ran out of time.
    pub fn piece(parser: &mut Parser, language: Language, text: &str) -> Self {
        let mut this = Self::unparsed(language, text);
        let (tree, timed_out) = parse_rope(parser, language, &this.rope, None, this.budget());
        (this.tree, this.timed_out, this.dirty) = (tree, timed_out, false);
        this
    }

    /// Which text this is: `(id, revision)` changes whenever the text does, and no two
    /// texts share an id.
    pub fn revision(&self) -> (u64, u64) {
        (self.id, self.revision)
    }

    /// The edits made since `revision` of this text, in order, as (start, old end, new
    /// end) byte offsets; `None` when they are not all known (the text was replaced, or
    /// more were made than are kept).
    pub fn edits_since(&self, revision: u64) -> Option<Vec<(usize, usize, usize)>> {
        if revision < self.log_from || revision > self.revision {
            return None;
        }
        Some(self.edits.iter().filter(|e| e.0 > revision).map(|&(_, s, o, n)| (s, o, n)).collect())
    }

    /// The last parse ran out of time: there is no tree for the current text.
    pub fn timed_out(&self) -> bool {
        self.timed_out
    }

    /// How long a parse of the current text may run.
    pub fn budget(&self) -> Duration {
        self.budget + Duration::from_nanos(self.rope.len_bytes() as u64 * BUDGET_PER_BYTE_NS)
    }

    pub fn language(&self) -> Language {
        self.language
    }

    pub fn rope(&self) -> &Rope {
        &self.rope
    }

    /// The syntax tree of the current text (none while the last parse ran out of time).
    /// The byte ranges of the top-level items of the parsed text (comments left out);
    /// none where the parse is missing.
    pub fn item_ranges(&self) -> Vec<crate::kernel::TextRange> {
        let Some(tree) = self.tree() else { return Vec::new() };
        let root = tree.root_node();
        let mut cursor = root.walk();
        let out = root
            .named_children(&mut cursor)
            .filter(|n| n.kind() != "comment")
            .map(|n| crate::kernel::TextRange::new(n.start_byte(), n.end_byte()))
            .collect();
        out
    }

    pub fn tree(&self) -> Option<&Tree> {
        self.tree.as_ref().filter(|_| !self.timed_out)
    }

    pub fn len_bytes(&self) -> usize {
        self.rope.len_bytes()
    }

    /// The text of a byte range (clamped to the document, snapped to char boundaries).
    pub fn slice(&self, start: usize, end: usize) -> Cow<'_, str> {
        let len = self.rope.len_bytes();
        let start = self.snap(start.min(len));
        let end = self.snap(end.min(len)).max(start);
        self.rope.byte_slice(start..end).into()
    }

    /// Content hash of a byte range, read straight from the rope (no copy).
    pub fn hash_range(&self, start: usize, end: usize) -> ContentHash {
        let len = self.rope.len_bytes();
        let start = self.snap(start.min(len));
        let end = self.snap(end.min(len)).max(start);
        let slice = self.rope.byte_slice(start..end);
        Hasher::new().pieces(end - start, slice.chunks()).finish()
    }

    /// Largest char boundary at or before `byte`.
    pub fn snap(&self, byte: usize) -> usize {
        let byte = byte.min(self.rope.len_bytes());
        self.rope.char_to_byte(self.rope.byte_to_char(byte))
    }

    fn point(&self, byte: usize) -> Point {
        let row = self.rope.byte_to_line(byte);
        Point { row, column: byte - self.rope.line_to_byte(row) }
    }

    /// Replaces bytes `start..end` with `text`. Offsets are clamped to the document and
    /// snapped to character boundaries, so a bad range can never corrupt the text.
    pub fn edit(&mut self, start: usize, end: usize, text: &str) {
        let start = self.snap(start);
        let end = self.snap(end).max(start);
        let start_position = self.point(start);
        let old_end_position = self.point(end);
        let start_char = self.rope.byte_to_char(start);
        let end_char = self.rope.byte_to_char(end);
        self.rope.remove(start_char..end_char);
        self.rope.insert(start_char, text);
        self.revision += 1;
        let new_end = start + text.len();
        const KEPT: usize = 256;
        if self.edits.len() == KEPT {
            self.edits.pop_front();
            self.log_from = self.edits.front().map_or(self.revision, |e| e.0 - 1);
        }
        self.edits.push_back((self.revision, start, end, new_end));
        let new_end_position = self.point(new_end);
        if let Some(tree) = &mut self.tree {
            tree.edit(&InputEdit {
                start_byte: start,
                old_end_byte: end,
                new_end_byte: new_end,
                start_position,
                old_end_position,
                new_end_position,
            });
        }
        self.dirty = true;
    }

    /// Replaces the whole text.
    pub fn replace_all(&mut self, text: &str) {
        self.rope = Rope::from_str(text);
        self.revision += 1;
        self.edits.clear();
        self.log_from = self.revision;
        self.tree = None;
        self.dirty = true;
    }

    /// Brings the tree up to date with the text (incrementally when possible); nothing
    /// for a text that is not parsed whole.
    pub fn reparse(&mut self) {
        if !self.dirty || !self.whole {
            return;
        }
        let budget = self.budget();
        let parser = self.parser.get_or_insert_with(|| parser_for(self.language));
        let (tree, timed_out) = parse_rope(parser, self.language, &self.rope, self.tree.as_ref(), budget);
        // Abandoned: the next parse starts afresh, from the old tree (kept, edited with
        // the text) where there is one.
        if let Some(tree) = tree {
            self.tree = Some(tree);
        }
        self.timed_out = timed_out;
        self.dirty = false;
    }

    /// Whole text as a string.
    pub fn text(&self) -> String {
        self.rope.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_word_cut_between_a_ropes_chunks_is_found() {
        let text = format!("{}__align__(16){}", "x".repeat(2000), "y".repeat(2000));
        let rope = Rope::from_str(&text);
        assert!(rope.chunks().count() > 1);
        for at in [0, 1500, 1996, 2000, 2004] {
            let mut t = "z".repeat(4100);
            t.replace_range(at..at + 9, "__align__");
            assert!(rope_contains(&Rope::from_str(&t), "__align__"), "at {at}");
        }
        assert!(rope_contains(&rope, "__align__"));
        assert!(!rope_contains(&Rope::from_str(&"z".repeat(4100)), "__align__"));
    }

    #[test]
    fn incremental_edits_keep_text_and_tree_in_step() {
        let mut src = SourceText::new(Language::Cuda, "__global__ void k(float* a) { a[0] = 1; }\n");
        src.edit(32, 33, "threadIdx.x");
        src.reparse();
        assert_eq!(src.text(), "__global__ void k(float* a) { a[threadIdx.x] = 1; }\n");
        let tree = src.tree().expect("tree");
        assert!(!tree.root_node().has_error());
    }

    #[test]
    fn range_hashes_do_not_depend_on_rope_chunks() {
        let text = "x".repeat(5000) + "é" + &"y".repeat(5000);
        let src = SourceText::new(Language::Cuda, &text);
        let (a, b) = (100, text.len() - 100);
        assert_eq!(src.hash_range(a, b), Hasher::new().str(&text[a..b]).finish());
    }

    #[test]
    fn out_of_range_edits_are_clamped() {
        let mut src = SourceText::new(Language::Triton, "x = 1\n");
        src.edit(100, 200, "y = 2\n");
        src.reparse();
        assert_eq!(src.text(), "x = 1\ny = 2\n");
        let mut src = SourceText::new(Language::Triton, "é\n");
        // Byte 1 is inside 'é': snapped back to its start.
        src.edit(1, 1, "a");
        assert_eq!(src.text(), "aé\n");
    }
}

#[cfg(test)]
mod budget_tests {
    use super::*;

    #[test]
    fn a_parse_that_runs_out_of_time_leaves_no_tree_and_the_next_edit_parses_again() {
        // Runs of `*/` send tree-sitter's error recovery into seconds (11 s for these 5 KB).
        let slow = format!("__global__ void k(float* a) {{\n{}\n a[0] = a[1];\n}}\n", "*/ ".repeat(1600));
        let start = Instant::now();
        let mut src = SourceText::new(Language::Cuda, &slow);
        assert!(src.timed_out() && src.tree().is_none());
        assert!(start.elapsed() < Duration::from_secs(5), "{:?}", start.elapsed());
        src.replace_all("x = 1\n");
        src.reparse();
        assert!(!src.timed_out() && src.tree().is_some());
        let fine = SourceText::new(Language::Cuda, &"__global__ void k(float* a) { a[0] = 1; }\n".repeat(2000));
        assert!(!fine.timed_out());
    }
}
