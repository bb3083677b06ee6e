//! Where a CUDA/C++ text can be cut into pieces that parse alone as they parse in the
//! whole file: a lexical scan (no parse) that follows comments, strings, character and
//! raw string literals, preprocessor lines and bracket depth, and cuts at the start of a
//! line that begins a new top-level item after one has ended.
//!
//! An item has ended after a `;` at depth 0, after the `}` closing a depth-0 body that a
//! `(…)` came before (a function; not a `struct`, whose `;` may follow on the next
//! line), and after a preprocessor line outside any `#if` region. A `#if … #endif`
//! region stays in one piece (its items are the `preproc_if`'s children), and so does
//! anything the scan is unsure of: a piece too large costs time, never correctness.

/// The byte offsets where pieces start (the first is 0), for a text given as chunks.
#[cfg(test)]
pub fn piece_starts<'a>(chunks: impl IntoIterator<Item = &'a str>) -> Vec<usize> {
    let mut starts = Vec::new();
    scan(chunks.into_iter().map(str::as_bytes), 0, |at| {
        starts.push(at);
        true
    });
    starts
}

/// Scans the text from byte `from` (the start of the text or of a piece: the scan's
/// state is the same at both), given as chunks from there, and tells `found` each
/// piece's start, `from`'s first; stops when `found` returns false.
pub fn scan<'a>(chunks: impl IntoIterator<Item = &'a [u8]>, from: usize, mut found: impl FnMut(usize) -> bool) {
    let mut scan = Scan { line_start: true, origin: from, ..Scan::default() };
    let mut at = from;
    for chunk in chunks {
        for &b in chunk {
            scan.byte(b, at);
            at += 1;
            if let Some(start) = scan.found.take() {
                if !found(start) {
                    return;
                }
            }
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
enum Mode {
    #[default]
    Code,
    /// `//` to the end of the line (a backslash-newline continues it).
    LineComment,
    BlockComment,
    /// A string or character literal, by its quote.
    Quoted(u8),
    /// `R"delim(` … `)delim"`: reading the delimiter, then the body.
    RawOpen,
    RawBody,
    /// A preprocessor line (to its unescaped newline).
    Directive,
}

#[derive(Default)]
struct Scan {
    /// A piece starts here (taken by the caller).
    found: Option<usize>,
    /// The first piece has started (at `origin`, where the scan began).
    begun: bool,
    origin: usize,
    mode: Mode,
    /// Where a comment or literal returns to (code or a directive).
    back: Mode,
    /// The previous byte was a backslash (inside literals, comments and directives).
    escaped: bool,
    depth: usize,
    /// Nesting of `#if`/`#ifdef`/`#ifndef` regions.
    conditional: usize,
    /// The line has had only blanks so far.
    line_start: bool,
    /// A top-level item has ended: the next line that begins one starts a piece.
    ended: bool,
    /// A `(` came at depth 0 since the last item ended (a function's parameters).
    parens: bool,
    /// The last two bytes of code or directive read.
    prev: u8,
    prev2: u8,
    /// The directive's name, while reading it.
    directive: Vec<u8>,
    naming: bool,
    raw_delimiter: Vec<u8>,
    /// How much of `)delim"` has matched in a raw string's body.
    raw_match: usize,
    /// A `/` waiting to see whether a comment starts.
    slash: bool,
    /// A `*` in a block comment waiting for its `/`.
    star: bool,
}

impl Scan {
    fn byte(&mut self, b: u8, at: usize) {
        match self.mode {
            Mode::Code | Mode::Directive => {
                self.code(b, at);
                (self.prev2, self.prev) = (self.prev, b);
            }
            Mode::LineComment => {
                if b == b'\n' && !self.escaped {
                    self.end_line();
                }
                self.escaped = b == b'\\' || (self.escaped && b == b'\r');
            }
            Mode::BlockComment => {
                if self.star && b == b'/' {
                    self.mode = self.back;
                }
                self.star = b == b'*';
                if b == b'\n' && self.back == Mode::Code {
                    self.newline();
                }
            }
            Mode::Quoted(q) => {
                if self.escaped {
                    self.escaped = false;
                } else if b == b'\\' {
                    self.escaped = true;
                } else if b == q || b == b'\n' {
                    // An unterminated literal ends with its line, as the grammar's does.
                    self.mode = self.back;
                    if b == b'\n' {
                        self.end_line();
                    }
                }
            }
            Mode::RawOpen => {
                if b == b'(' {
                    self.mode = Mode::RawBody;
                    self.raw_match = 0;
                } else if b == b'"' || b == b'\n' || self.raw_delimiter.len() >= 16 {
                    // Not a raw string after all: read on as code.
                    self.mode = self.back;
                } else {
                    self.raw_delimiter.push(b);
                }
            }
            Mode::RawBody => {
                let expected = |i: usize, d: &[u8]| match i {
                    0 => b')',
                    i if i <= d.len() => d[i - 1],
                    _ => b'"',
                };
                if b == expected(self.raw_match, &self.raw_delimiter) {
                    self.raw_match += 1;
                    if self.raw_match == self.raw_delimiter.len() + 2 {
                        self.mode = self.back;
                    }
                } else {
                    self.raw_match = usize::from(b == b')');
                }
            }
        }
    }

    fn newline(&mut self) {
        self.line_start = true;
    }

    /// The end of a line that a comment or literal reached: a directive ends with it.
    fn end_line(&mut self) {
        let directive = self.back == Mode::Directive;
        self.mode = Mode::Code;
        self.newline();
        if directive {
            self.end_directive();
        }
    }

    /// Code or a directive's text.
    fn code(&mut self, b: u8, at: usize) {
        let directive = self.mode == Mode::Directive;
        if self.slash {
            self.slash = false;
            match b {
                b'/' => {
                    (self.back, self.mode, self.escaped) = (self.mode, Mode::LineComment, false);
                    return;
                }
                b'*' => {
                    (self.back, self.mode, self.star) = (self.mode, Mode::BlockComment, false);
                    return;
                }
                _ if !directive => self.significant(b'/'),
                _ => {}
            }
        }
        if directive {
            if self.naming {
                if b.is_ascii_alphabetic() {
                    self.directive.push(b);
                    return;
                }
                if !(self.directive.is_empty() && (b == b' ' || b == b'\t')) {
                    self.naming = false;
                }
            }
            match b {
                b'\n' if !self.escaped => {
                    self.mode = Mode::Code;
                    self.newline();
                    self.end_directive();
                }
                b'"' | b'\'' => (self.back, self.mode, self.escaped) = (Mode::Directive, Mode::Quoted(b), false),
                b'/' => self.slash = true,
                _ => {}
            }
            self.escaped = b == b'\\' || (self.escaped && b == b'\r');
            return;
        }
        if self.line_start && !b.is_ascii_whitespace() {
            self.line_start = false;
            let begins_item = b.is_ascii_alphabetic() || matches!(b, b'_' | b'#' | b'/');
            if self.ended && begins_item && self.depth == 0 && self.conditional == 0 {
                self.found = Some(at);
                (self.ended, self.parens) = (false, false);
            }
            if !self.begun {
                (self.begun, self.found) = (true, Some(self.origin));
            }
            if b == b'#' {
                (self.mode, self.naming, self.escaped) = (Mode::Directive, true, false);
                self.directive.clear();
                return;
            }
        }
        match b {
            b'\n' => self.newline(),
            b'/' => self.slash = true,
            b'"' => {
                // `R"(…)"`, `u8R"x(…)x"`: a raw string (not an identifier ending in R).
                let raw = self.prev == b'R'
                    && (!(self.prev2.is_ascii_alphanumeric() || self.prev2 == b'_')
                        || matches!(self.prev2, b'8' | b'u' | b'U' | b'L'));
                self.back = Mode::Code;
                if raw {
                    self.mode = Mode::RawOpen;
                    self.raw_delimiter.clear();
                } else {
                    (self.mode, self.escaped) = (Mode::Quoted(b'"'), false);
                }
                self.significant(b);
            }
            // `1'000'000` is a number with separators, not a character literal.
            b'\'' if !self.prev.is_ascii_alphanumeric() => {
                (self.back, self.mode, self.escaped) = (Mode::Code, Mode::Quoted(b'\''), false);
                self.significant(b);
            }
            b if b.is_ascii_whitespace() => {}
            _ => self.significant(b),
        }
    }

    /// A byte of code (not a blank, comment or literal's inside).
    fn significant(&mut self, b: u8) {
        if !self.begun {
            (self.begun, self.found) = (true, Some(self.origin));
        }
        match b {
            b'(' | b'[' | b'{' => {
                if b == b'(' && self.depth == 0 {
                    self.parens = true;
                }
                self.depth += 1;
            }
            b')' | b']' | b'}' => {
                self.depth = self.depth.saturating_sub(1);
                if b == b'}' && self.depth == 0 && self.parens {
                    self.ended = true;
                }
            }
            b';' if self.depth == 0 => self.ended = true,
            _ => {
                if self.depth == 0 {
                    self.ended = false;
                }
            }
        }
    }

    fn end_directive(&mut self) {
        match self.directive.as_slice() {
            b"if" | b"ifdef" | b"ifndef" => self.conditional += 1,
            b"endif" => self.conditional = self.conditional.saturating_sub(1),
            _ => {}
        }
        if self.depth == 0 && self.conditional == 0 {
            self.ended = true;
        }
        self.directive.clear();
        self.naming = false;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pieces(text: &str) -> Vec<&str> {
        let starts = piece_starts([text]);
        let mut out = Vec::new();
        for (i, &s) in starts.iter().enumerate() {
            out.push(&text[s..starts.get(i + 1).copied().unwrap_or(text.len())]);
        }
        out
    }

    #[test]
    fn cuts_between_functions_and_declarations() {
        let text = "#include <cuda.h>\n#define N 4\n// k\n__global__ void k(float* a) {\n  a[0] = '}';\n}\n\
                    void run(float* a) { k<<<1, N>>>(a); }\nconst int M = 3;\nint x;\n";
        assert_eq!(
            pieces(text),
            [
                "#include <cuda.h>\n",
                "#define N 4\n",
                "// k\n__global__ void k(float* a) {\n  a[0] = '}';\n}\n",
                "void run(float* a) { k<<<1, N>>>(a); }\n",
                "const int M = 3;\n",
                "int x;\n"
            ]
        );
    }

    #[test]
    fn keeps_what_cannot_be_cut_alone() {
        // A struct whose `;` is on the next line, a template header, a conditional region,
        // a namespace, braces in comments, strings and raw strings, a macro's open brace.
        let text = "struct S { int a; }\n;\ntemplate <int B>\n__global__ void t() { /* } */ }\n\
                    #if A\nvoid f() {}\nvoid g() {}\n#endif\nnamespace n {\nvoid h() {}\n}\nint y;\n\
                    #define OPEN {\nconst char* s = R\"x(}\";)x\";\nconst char* u = \"\\\"}\";\nint z;\n";
        assert_eq!(
            pieces(text),
            [
                "struct S { int a; }\n;\n",
                "template <int B>\n__global__ void t() { /* } */ }\n",
                "#if A\nvoid f() {}\nvoid g() {}\n#endif\n",
                "namespace n {\nvoid h() {}\n}\nint y;\n",
                "#define OPEN {\n",
                "const char* s = R\"x(}\";)x\";\n",
                "const char* u = \"\\\"}\";\n",
                "int z;\n"
            ]
        );
    }

    #[test]
    fn pieces_cover_the_text_whatever_its_chunks() {
        let text = "void a() {}\n// c\nvoid b() {}\n#define X \\\n  1\nint c;\n".repeat(3);
        let whole = piece_starts([text.as_str()]);
        let (l, r) = text.split_at(17);
        assert_eq!(piece_starts([l, r]), whole);
        assert_eq!(whole.first(), Some(&0));
        assert!(whole.windows(2).all(|w| w[0] < w[1]));
        assert_eq!(piece_starts([""]), Vec::<usize>::new());
    }
}
