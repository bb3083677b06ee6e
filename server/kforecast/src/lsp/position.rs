//! LSP positions ↔ byte offsets, in the negotiated encoding (UTF-16 by default).

use ropey::Rope;
use tower_lsp::lsp_types::Position;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Encoding {
    Utf8,
    Utf16,
}

/// Byte offset of a position; out-of-range lines and columns are clamped to the
/// document (end of line, end of text).
pub fn to_offset(rope: &Rope, pos: Position, enc: Encoding) -> usize {
    let line = pos.line as usize;
    if line >= rope.len_lines() {
        return rope.len_bytes();
    }
    let line_start_char = rope.line_to_char(line);
    let line_slice = rope.line(line);
    // Columns stop before the line break.
    let mut line_chars = line_slice.len_chars();
    while line_chars > 0 && matches!(line_slice.char(line_chars - 1), '\n' | '\r') {
        line_chars -= 1;
    }
    let col = pos.character as usize;
    let char_in_line = match enc {
        Encoding::Utf16 => {
            let start_cu = rope.char_to_utf16_cu(line_start_char);
            let end_cu = rope.char_to_utf16_cu(line_start_char + line_chars);
            let target = (start_cu + col).min(end_cu);
            rope.utf16_cu_to_char(target) - line_start_char
        }
        Encoding::Utf8 => {
            let start_byte = rope.char_to_byte(line_start_char);
            let end_byte = rope.char_to_byte(line_start_char + line_chars);
            let target = (start_byte + col).min(end_byte);
            rope.byte_to_char(target) - line_start_char
        }
    };
    rope.char_to_byte(line_start_char + char_in_line.min(line_chars))
}

/// Position of a byte offset (clamped to the document).
pub fn to_position(rope: &Rope, offset: usize, enc: Encoding) -> Position {
    let offset = offset.min(rope.len_bytes());
    let char_idx = rope.byte_to_char(offset);
    let line = rope.char_to_line(char_idx);
    let line_start = rope.line_to_char(line);
    let character = match enc {
        Encoding::Utf16 => rope.char_to_utf16_cu(char_idx) - rope.char_to_utf16_cu(line_start),
        Encoding::Utf8 => offset - rope.char_to_byte(line_start),
    };
    Position::new(line as u32, character as u32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf16_and_utf8_columns() {
        let rope = Rope::from_str("a😀b\nxyz\n");
        // '😀' is 2 UTF-16 units and 4 UTF-8 bytes.
        assert_eq!(to_offset(&rope, Position::new(0, 3), Encoding::Utf16), 5);
        assert_eq!(to_offset(&rope, Position::new(0, 5), Encoding::Utf8), 5);
        assert_eq!(to_position(&rope, 5, Encoding::Utf16), Position::new(0, 3));
        assert_eq!(to_position(&rope, 5, Encoding::Utf8), Position::new(0, 5));
    }

    #[test]
    fn out_of_range_is_clamped() {
        let rope = Rope::from_str("ab\ncd");
        assert_eq!(to_offset(&rope, Position::new(0, 99), Encoding::Utf16), 2);
        assert_eq!(to_offset(&rope, Position::new(99, 0), Encoding::Utf16), 5);
        assert_eq!(to_position(&rope, 1000, Encoding::Utf16), Position::new(1, 2));
    }
}
